/** @type {import('next').NextConfig} */
const nextConfig = {
  // better-sqlite3 is a native module, pelias-parser reads its dictionaries from its own folder:
  // load them from node_modules at run time, never bundle them.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pelias-parser"],
  poweredByHeader: false,
  reactStrictMode: true,
  // Keep the API paths exact: /v1/geofences/ is not redirected to /v1/geofences.
  skipTrailingSlashRedirect: true,
};

export default nextConfig;
