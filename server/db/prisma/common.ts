/** What wraps each write: SQLite's process-wide write lock, or PostgreSQL's nothing (./index.ts). */
export type WriteLock = <T>(fn: () => T | Promise<T>) => Promise<T>;

/**
 * A table's sort as Prisma orders: empty values (NULL) last in both directions, as in PostgreSQL
 * and SQLite alike (their defaults differ); then by seq, so pages never overlap.
 */
export const tableOrder = (sort: string, dir: "asc" | "desc", nullable: readonly string[]) => [
  nullable.includes(sort) ? { [sort]: { sort: dir, nulls: "last" as const } } : { [sort]: dir },
  { seq: dir },
];
