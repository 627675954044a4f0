import { databaseEngine } from "../config/database-url";
import { limitPoolSize, trackingConnections } from "../db/postgresql/pool";
import { postgresStorage } from "../db/postgresql/storage";
import { sqliteStorage } from "../db/sqlite/storage";
import { metrics } from "../metrics/metrics.mjs";
import type { Storage } from "./port";
import type { TrackingStore } from "./tracking";

/**
 * The storage adapter DATABASE_URL names: file:… is SQLite, the embedded default (one process);
 * postgres://… is PostgreSQL with PostGIS, shared by any number of app processes
 * (docs/deployment.md).
 */
export function storage(): Storage {
  return counted(databaseEngine() === "postgresql" ? postgresStorage() : sqliteStorage);
}

const countedStores = new WeakMap<Storage, Storage>();

/**
 * The adapter, with the events its tracking writes counted (location_events_total): every event
 * is written by a tracking plan (updates, conversions, trips), counted once its plan is written.
 */
function counted(adapter: Storage): Storage {
  let done = countedStores.get(adapter);
  if (!done) {
    const tracking: TrackingStore = {
      apply: (device, decide) =>
        adapter.tracking.apply(device, async (read) => {
          const decision = await decide(read);
          const plan = decision.plan;
          if (!plan?.events.length) return decision;
          return {
            plan,
            answer(written) {
              if (written) for (const e of plan.events) metrics.events.inc({ type: e.type });
              return decision.answer(written);
            },
          };
        }),
    };
    done = { ...adapter, tracking };
    countedStores.set(adapter, done);
  }
  return done;
}

/**
 * For a thread that runs one query at a time (the webhook sender's): at most `max` database
 * connections, whatever PG_POOL_SIZE says. Called before its first query.
 */
export function limitConnections(max: number): void {
  limitPoolSize(max);
}

/**
 * For the tracking thread, which runs the same statements over and over: on PostgreSQL, each is
 * planned once per connection, not at every call. Called before its first query.
 */
export function trackingThreadConnections(): void {
  trackingConnections();
}
