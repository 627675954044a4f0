import { databaseCode } from "../errors";
import { Prisma } from "./client";

/** Prisma error codes we act on, matched by code, never by message text. */
export const isUniqueViolation = (e: unknown): e is Prisma.PrismaClientKnownRequestError =>
  e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";

export const isRecordNotFound = (e: unknown): e is Prisma.PrismaClientKnownRequestError =>
  e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025";

/**
 * A write a trigger refused (the only such trigger keeps geofence versions increasing:
 * migration 20261128000000_geofence_version): SQLITE_CONSTRAINT_TRIGGER on SQLite, check_violation
 * on PostgreSQL.
 */
export const isRefusedByTrigger = (e: unknown): boolean => {
  const code = databaseCode(e);
  return code === "SQLITE_CONSTRAINT_TRIGGER" || code === "23514";
};
