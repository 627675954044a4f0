import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseFile } from "../config/database-url";
import { PrismaClient } from "./generated/client";

export { Prisma } from "./generated/client";
export type { ApiKey, Event, Geofence, User } from "./generated/client";

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

function createClient(): PrismaClient {
  // timeout = SQLite busy timeout: wait for another writer (the key CLI, a migration) instead
  // of failing at once with SQLITE_BUSY.
  const adapter = new PrismaBetterSQLite3({ url: databaseFile(), timeout: 5000 });
  return new PrismaClient({ adapter });
}

/** The one Prisma client of the process (kept across hot reloads in development). */
export const prisma: PrismaClient = globalForPrisma.prisma ?? createClient();
globalForPrisma.prisma = prisma;
