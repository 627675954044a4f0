import pg from "pg";
import { env } from "../../config/env";

/**
 * The PostgreSQL connections of the process, shared by Prisma (through its driver adapter) and
 * the adapter's own SQL (the files in this folder), and kept across hot reloads.
 *
 * PG_POOL_SIZE sets how many (default 10 per thread: the server's thread and the tracking thread
 * each keep a pool; the webhook sender's thread keeps 2, one query at a time being all it runs):
 * with N app processes the database sees up to N × (2 × PG_POOL_SIZE + 2)
 * connections, which must stay under its max_connections.
 */
const shared = globalThis as unknown as { pgPool?: pg.Pool; pgPoolSize?: number };

/** A thread that needs fewer connections than PG_POOL_SIZE says so before its first query. */
export function limitPoolSize(max: number): void {
  shared.pgPoolSize = max;
}

// Dates are instants (timestamptz), and 8-byte integers (COUNT, SUM) fit a JS number here.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function pool(): pg.Pool {
  if (!shared.pgPool) {
    shared.pgPool = new pg.Pool({
      connectionString: process.env.DATABASE_URL,
      max: shared.pgPoolSize ?? env().PG_POOL_SIZE,
    });
    // An idle connection the server closed (a restart, a failover) is replaced on next use; it
    // must not end the process.
    shared.pgPool.on("error", (e) => console.error(`PostgreSQL: an idle connection was lost (${e.message})`));
  }
  return shared.pgPool;
}
