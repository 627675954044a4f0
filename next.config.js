/** @type {import('next').NextConfig} */
const nextConfig = {
  // better-sqlite3 is a native module, pelias-parser reads its dictionaries from its own folder:
  // load them from node_modules at run time, never bundle them. The logger and the metrics are
  // the same modules the server in front of Next.js (scripts/serve.mjs) loads, so one registry.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "pelias-parser",
    "pino",
    "pino-pretty",
    "prom-client",
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  // Keep the API paths exact: /v1/geofences/ is not redirected to /v1/geofences.
  skipTrailingSlashRedirect: true,
  // Types are checked by `npm run typecheck` (CI runs it before the tests), not again by every
  // build: on a first `npm start` type-checking was a third of the wait (66 s of 3 min 20 s).
  typescript: { ignoreBuildErrors: true },
  // The usual protections on every answer, pages and API alike (docs/security.md#browser); each
  // page's Content-Security-Policy comes from proxy.ts, with its nonce.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
