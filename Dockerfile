# syntax=docker/dockerfile:1
# The service's image (docs/deployment.md#containers): built with the commands CI runs (npm ci,
# npm run build), started with npm start (migrations, first-run setup, then the server), as a
# user without privileges, its data in the /data volume. Not built on the project's own machines
# (they run no container engine): tests/api/deployment-files.test.ts checks that these commands are
# the project's.

FROM node:20-bookworm-slim AS build
# better-sqlite3 is compiled when no prebuilt binary fits.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
# pg_dump and pg_restore for npm run backup and npm run restore on PostgreSQL.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql-client \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /data && chown node:node /data
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    DATABASE_URL=file:/data/location.db \
    GEODATA_DIR=/data/geodata \
    LOG_FORMAT=json \
    PORT=3000 \
    HOST=0.0.0.0
COPY --from=build --chown=node:node /app /app
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["npm", "start"]
