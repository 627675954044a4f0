import { userCountMoves } from "../../storage/overview";
import type {
  Decision,
  TrackingPart,
  TrackingPlan,
  TrackingReader,
  TrackingStore,
  Written,
} from "../../storage/tracking";
import { updatesOnTheWay } from "../../workers/thread-memory";
import { withWriteLock } from "../write-lock";
import { connection } from "./connection";
import { gathering } from "./gather";
import { writeOutboxRow } from "./webhooks";
import {
  countEvents,
  countUsers,
  insertEvent,
  insertLocation,
  insertUser,
  updateUser,
  userByDeviceId,
  userByUserId,
  verificationCountsOf,
  webhooksFor,
} from "./tracking-sql";
import { TRACKING_PARTS as PARTS } from "./kinds";
import { metrics } from "../../metrics/metrics.mjs";

/**
 * The SQLite tracking store. SQLite has one writer, so updates are applied one after the other
 * under the process's write lock (../write-lock.ts): two updates of one device never both see
 * the same "before" state. Updates that arrive while others are being written are applied
 * together in one transaction (group commit): a commit costs more than an update, so under load
 * this multiplies throughput; under load a batch waits up to a millisecond for updates known to
 * be on their way (./gather.ts). Each update runs in a savepoint of its own, so a failing one
 * fails alone; each is answered only after its commit.
 *
 * The reader answers from prepared statements at once (resolved promises), so a whole batch runs
 * without yielding to the event loop: no request can read the connection mid-transaction.
 */

interface Pending {
  decide(read: TrackingReader): Promise<Decision<unknown>>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** The kinds' parts of tracking storage (./kinds.ts), by name. */
const partsByName = new Map(PARTS.map((p) => [p.part.name, p]));

const reader: TrackingReader = {
  userByUserId: async (live, userId) => userByUserId(live, userId),
  userByDeviceId: async (live, deviceId, anonymous) => userByDeviceId(live, deviceId, anonymous),
  verificationCounts: async (live, classes) => verificationCountsOf(live, classes),
  webhooksFor: async (live) => webhooksFor(live),
  part<R>(part: TrackingPart<R, unknown>): R {
    const found = partsByName.get(part.name);
    if (!found) throw new Error(`no tracking part "${part.name}" on SQLite`);
    return found.reader as R;
  },
};

/** A plan's user and its history; its seq (0: no user, as an anonymous update has none). */
function writeUser(plan: TrackingPlan): number {
  const { user, location } = plan;
  if (!user) return 0;
  let userSeq = user.seq;
  if (userSeq === null) userSeq = insertUser(user.id, user.live, user.write, user.createdAt);
  else updateUser(userSeq, user.write);
  if (location) {
    insertLocation(
      userSeq,
      location.latitude,
      location.longitude,
      location.accuracy,
      location.recordedAt,
      location.receivedAt,
    );
  }
  return userSeq;
}

function write(plan: TrackingPlan): Written {
  const userSeq = writeUser(plan);
  for (const { part, write } of plan.writes) partsByName.get(part)?.write?.(userSeq, write);
  // An update's events all copy the same user: its JSON is written once per update.
  const userJson = plan.events.length ? JSON.stringify(plan.events[0]!.user) : "";
  const eventSeqs = plan.events.map((e) => insertEvent(userSeq, e, userJson));
  countEvents(plan.events);
  countUsers(userCountMoves([plan.user]));
  // The outbox, in the same transaction: no event is committed without what it owes webhooks.
  writeOutboxRow(plan.outbox);
  return { userSeq, eventSeqs };
}

const run = (sql: string) => connection().exec(sql);

async function applyBatch(batch: Pending[]) {
  const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
  run("BEGIN IMMEDIATE");
  try {
    for (const p of PARTS) p.begin?.();
    for (const item of batch) {
      run("SAVEPOINT update_");
      try {
        const decision = await item.decide(reader);
        const written = decision.plan ? write(decision.plan) : null;
        run("RELEASE update_");
        outcomes.push({ ok: true, value: decision.answer(written) });
      } catch (error) {
        run("ROLLBACK TO update_");
        run("RELEASE update_");
        outcomes.push({ ok: false, error });
      }
    }
    run("COMMIT");
  } catch (error) {
    if (connection().inTransaction) run("ROLLBACK");
    throw error;
  }
  return outcomes;
}

function runBatch(batch: Pending[]): Promise<void> {
  metrics.trackingBatchSize.observe(batch.length);
  return withWriteLock(() => applyBatch(batch)).then(
    (outcomes) =>
      batch.forEach((item, i) => {
        const o = outcomes[i]!;
        if (o.ok) item.resolve(o.value);
        else item.reject(o.error);
      }),
    (error: unknown) => batch.forEach((item) => item.reject(error)),
  );
}

/** Batches of at most 64; one waits up to 1 ms for eight when they are on their way (./gather.ts). */
const batches = gathering(runBatch, { upTo: 8, waitMs: 1, max: 64, coming: updatesOnTheWay });

export const sqliteTracking: TrackingStore = {
  apply<T>(_device: unknown, decide: (read: TrackingReader) => Promise<Decision<T>>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      batches.add({ decide, resolve: resolve as (value: unknown) => void, reject });
    });
  },
};
