import { Prisma } from "./client";

/** Prisma error codes we act on, matched by code, never by message text. */
export const isUniqueViolation = (e: unknown): e is Prisma.PrismaClientKnownRequestError =>
  e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";

export const isRecordNotFound = (e: unknown): e is Prisma.PrismaClientKnownRequestError =>
  e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025";

/**
 * The database's own error under Prisma's: a driver adapter error is thrown as it is (PostgreSQL)
 * or wrapped in a known request error (SQLite).
 */
function driverCause(e: unknown): { originalCode?: string } | undefined {
  const meta = e instanceof Prisma.PrismaClientKnownRequestError ? e.meta : undefined;
  const wrapped = (meta?.driverAdapterError as { cause?: unknown } | undefined)?.cause;
  const direct = e instanceof Error && e.name === "DriverAdapterError" ? e.cause : undefined;
  return (wrapped ?? direct) as { originalCode?: string } | undefined;
}

/**
 * A write a trigger refused (the only such trigger keeps geofence versions increasing:
 * migration 20261128000000_geofence_version): SQLITE_CONSTRAINT_TRIGGER on SQLite, check_violation
 * on PostgreSQL.
 */
export const isRefusedByTrigger = (e: unknown): boolean => {
  const code = driverCause(e)?.originalCode;
  return code === "SQLITE_CONSTRAINT_TRIGGER" || code === "23514";
};
