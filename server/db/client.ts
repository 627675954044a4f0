import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { databaseEngine, databaseFile } from "../config/database-url";
import { PrismaClient } from "./generated/client";
import { PrismaClient as PostgresClient } from "./postgresql/generated/client";
import { pool } from "./postgresql/pool";

export { Prisma } from "./generated/client";
export type { ApiKey, Beacon, Event, Geofence, User } from "./generated/client";

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

function createClient(): PrismaClient {
  if (databaseEngine() === "postgresql") {
    // One model, two providers (scripts/prisma-schemas.ts): the PostgreSQL client answers the
    // same calls with the same types, so the code above sees one client.
    return new PostgresClient({ adapter: new PrismaPg(pool()) }) as unknown as PrismaClient;
  }
  // timeout = SQLite busy timeout: wait for another writer (the key CLI, a migration) instead
  // of failing at once with SQLITE_BUSY.
  const adapter = new PrismaBetterSQLite3({ url: databaseFile(), timeout: 5000 });
  return new PrismaClient({ adapter });
}

/**
 * A filter for text containing `text`, ignoring case as SQLite's LIKE does for ASCII (PostgreSQL
 * compares case by default: its client is asked for ILIKE).
 */
export function containsText(text: string): { contains: string } {
  return databaseEngine() === "postgresql"
    ? ({ contains: text, mode: "insensitive" } as { contains: string })
    : { contains: text };
}

/** The one Prisma client of the process (kept across hot reloads in development). */
export const prisma: PrismaClient = globalForPrisma.prisma ?? createClient();
globalForPrisma.prisma = prisma;
