import { userCountMoves } from "../../storage/overview";
import type { Decision, TrackingPlan, TrackingReader, TrackingStore, Written } from "../../storage/tracking";
import { updatesOnTheWay } from "../../workers/thread-memory";
import { withWriteLock } from "../write-lock";
import { connection, prepared } from "./connection";
import { SqliteGeofenceIndex } from "./geofence-index";
import { gathering } from "./gather";
import { writeOutboxRow } from "./webhooks";
import { activeTrip, tripByRef, writeTrips } from "./trips";
import {
  addMembership,
  countEvents,
  countUsers,
  geofencesBySeqs,
  geofenceSeqsByIds,
  insertEvent,
  insertLocation,
  insertUser,
  markDwelled,
  membershipsOf,
  placeVerdictsInBox,
  removeMembership,
  updateUser,
  userByDeviceId,
  userByUserId,
  verificationCountsOf,
  webhooksFor,
} from "./tracking-sql";
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

/** Every geofence's box and version, brought up to date at the start of each batch's transaction. */
const geofences = new SqliteGeofenceIndex(prepared);

const reader: TrackingReader = {
  userByUserId: async (live, userId) => userByUserId(live, userId),
  userByDeviceId: async (live, deviceId, anonymous) => userByDeviceId(live, deviceId, anonymous),
  memberships: async (userSeq) => membershipsOf(userSeq),
  geofenceVersionsNear: async (live, box, seqs) => geofences.near(live, box, seqs),
  geofencesBySeqs: async (seqs) => geofencesBySeqs(seqs),
  geofenceSeqsByIds: async (live, ids) => geofenceSeqsByIds(live, ids),
  verificationCounts: async (live, classes) => verificationCountsOf(live, classes),
  placeVerdictsInBox: async (live, box) => placeVerdictsInBox(live, box),
  webhooksFor: async (live) => webhooksFor(live),
  tripByRef: async (live, ref) => tripByRef(live, ref),
  activeTrip: async (live, owner) => activeTrip(live, owner),
};

/** A plan's user, its history and memberships; its seq (0: no user, as an anonymous update has none). */
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
  for (const seq of plan.exited) removeMembership(userSeq, seq);
  for (const m of plan.entered) addMembership(userSeq, m.geofenceSeq, m.enteredAt);
  for (const seq of plan.dwelled) markDwelled(userSeq, seq);
  return userSeq;
}

function write(plan: TrackingPlan): Written {
  writeTrips(plan.trips ?? []);
  const userSeq = writeUser(plan);
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
    geofences.refresh();
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
