import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";
import { databaseFile } from "./server/config/database-url";

// Prisma's CLI runs on its WebAssembly engines through the driver adapter: no engine
// binaries are downloaded (see docs/architecture.md).
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  adapter: async () => new PrismaBetterSQLite3({ url: databaseFile() }),
});
