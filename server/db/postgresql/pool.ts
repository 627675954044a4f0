import pg from "pg";
import { env } from "../../config/env";
import { log } from "../../log/logger.mjs";
import { provide } from "../../metrics/metrics.mjs";

/**
 * The PostgreSQL connections of the process, shared by Prisma (through its driver adapter) and
 * the adapter's own SQL (the files in this folder), and kept across hot reloads.
 *
 * PG_POOL_SIZE sets how many (default 10 per thread: the server's thread and the tracking thread
 * each keep a pool; the webhook sender's thread keeps 2, one query at a time being all it runs):
 * with N app processes the database sees up to N × (2 × PG_POOL_SIZE + 2)
 * connections, which must stay under its max_connections.
 */
const shared = globalThis as unknown as { pgPool?: pg.Pool; pgPoolSize?: number; pgTracking?: boolean };

/**
 * A thread that needs fewer connections than PG_POOL_SIZE says so before its first query. The
 * pool may exist already (importing the Prisma client makes it) but has no connection yet: its
 * options are read at each connection.
 */
export function limitPoolSize(max: number): void {
  shared.pgPoolSize = max;
  if (shared.pgPool) shared.pgPool.options.max = max;
}

/**
 * The tracking thread's connections plan each named statement once (`plan_cache_mode =
 * force_generic_plan`), not at every call: PostgreSQL otherwise keeps planning the statements it
 * judges dearer as generic plans (the batch's, fed by arrays of varying lengths), about 15% of its
 * CPU under dense tracking (docs/performance.md, "Dense tracking on PostgreSQL"). Set before the
 * thread's first query.
 */
export function trackingConnections(): void {
  shared.pgTracking = true;
  if (shared.pgPool) Object.assign(shared.pgPool.options, TRACKING);
}

const TRACKING = { options: "-c plan_cache_mode=force_generic_plan" };

// Dates are instants (timestamptz), and 8-byte integers (COUNT, SUM) fit a JS number here.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function pool(): pg.Pool {
  if (!shared.pgPool) {
    shared.pgPool = new pg.Pool({
      connectionString: process.env.DATABASE_URL,
      max: shared.pgPoolSize ?? env().PG_POOL_SIZE,
      // Queries asked together on one connection are sent without waiting for each other's
      // answers (node-postgres's pipelining): a tracking decision's independent questions
      // (server/tracking/decide.ts) cost one round trip, not one each.
      pipeline: true,
      ...(shared.pgTracking && TRACKING),
    });
    // An idle connection the server closed (a restart, a failover) is replaced on next use; it
    // must not end the process.
    shared.pgPool.on("error", (e) =>
      log.error({ reason: e.message }, "PostgreSQL: an idle connection was lost"),
    );
    const counted = shared.pgPool;
    provide({
      pool: () => ({ total: counted.totalCount, idle: counted.idleCount, waiting: counted.waitingCount }),
    });
  }
  return shared.pgPool;
}
