import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";
import { databaseEngine, databaseFile } from "./server/config/database-url";

// Prisma's CLI runs on its WebAssembly engines through a driver adapter: no engine binaries are
// downloaded (see docs/architecture.md). DATABASE_URL picks the engine: file:… is SQLite (the
// embedded default), postgres://… is PostgreSQL with its own schema and migrations
// (prisma/postgresql/, written from prisma/schema.prisma by scripts/prisma-schemas.ts).
const postgres = databaseEngine() === "postgresql";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: postgres ? "prisma/postgresql/schema.prisma" : "prisma/schema.prisma",
  adapter: async () =>
    postgres
      ? new PrismaPg({ connectionString: process.env.DATABASE_URL })
      : new PrismaBetterSQLite3({ url: databaseFile() }),
});
