import type { TrackingReader, TrackingStore } from "../../storage/tracking";
import type { StoredUser } from "../../storage/users";
import type { WebhookTarget } from "../../storage/webhook-records";
import type { VerdictCounts } from "../../storage/events";
import { clockSeeded } from "./clock-seed";
import { type Queryable, gathered, inTransaction, rows } from "./sql";
import {
  USER_READ,
  type UserRead,
  applyOne,
  identitiesOf,
  partsOf,
  trackingOf,
  webhookTargets,
} from "./tracking-sql";
import { writeMany } from "./tracking-write";
import { metrics } from "../../metrics/metrics.mjs";

/**
 * Group commit on PostgreSQL (docs/deployment.md#group-commit): updates of different devices that
 * arrive together are decided and written in one transaction, and what they read is read with
 * one statement per kind of question for the whole batch, not one per update.
 *
 * - A batch takes the queued updates in order whose devices' identities (deviceId, userId) are
 *   neither in the batch already, nor in a batch running, nor held back for an earlier queued
 *   update: a device's updates are applied one after the other, in the order they came.
 * - Its transaction takes every identity's advisory lock first, in one order (as one update does):
 *   other processes' updates of these devices wait for the commit, and no two transactions wait
 *   on each other in a circle.
 * - The batch's decisions run side by side through a reader that gathers the questions asked in
 *   the same turn of the event loop and answers each kind with one set-based statement (the
 *   users FOR UPDATE with their memberships, their active trips FOR UPDATE, the geofences to
 *   decode, the verdict counts); the rarer questions are asked one by one. Which geofences are near each position is
 *   answered from the process's index of geofences (./geofence-index.ts), brought up to date
 *   with one statement per batch.
 * - Then the plans are written, all in one statement (./tracking-write.ts), and the batch commits
 *   once. Each update is answered only after the commit.
 * - If anything fails, the batch rolls back whole and each of its updates is applied again in a
 *   transaction of its own: a failing update fails alone, the others are written.
 *
 * One update alone takes the path of one update (no batch statements).
 */

interface Pending {
  device: { live: boolean; deviceId: string; userId: string | null };
  identities: string[];
  decide: Parameters<TrackingStore["apply"]>[1];
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** The most updates in one transaction, and the batches running at once (each on a connection). */
const MAX_BATCH = 32;
const RUNNING_BATCHES = 2;
/**
 * A batch beside a running one waits until this many updates can join it. A batch's fixed cost
 * (its transaction, locks and four round trips, on both sides of the socket) is most of what an
 * update costs PostgreSQL: updates that arrive while one batch runs are cheaper together in the
 * next one than spread over small batches side by side (docs/performance.md, tenth session: up
 * to 4 batches from 3 waiting updates averaged 3.5 updates each; up to 2 from 10 took about 15%
 * less CPU per update and raised PostgreSQL from 0.70 to 0.77-0.80 of SQLite).
 */
const FILL = 10;

const queue: Pending[] = [];
/** The identities of the updates in running batches. */
const busy = new Set<string>();
let running = 0;
let scheduled = false;
/** Batches of more than one update committed by this thread (tests look at it). */
export const batchesCommitted = { count: 0 };

function takeBatch(): Pending[] {
  const batch: Pending[] = [];
  const held = new Set<string>();
  for (let i = 0; i < queue.length && batch.length < MAX_BATCH;) {
    const p = queue[i]!;
    if (p.identities.some((id) => busy.has(id) || held.has(id))) {
      // Waits for the next batch, and so do later updates of its identities.
      p.identities.forEach((id) => held.add(id));
      i++;
      continue;
    }
    p.identities.forEach((id) => {
      held.add(id);
      busy.add(id);
    });
    batch.push(p);
    queue.splice(i, 1);
  }
  return batch;
}

function schedule(): void {
  scheduled = false;
  while (running < RUNNING_BATCHES && queue.length >= (running ? FILL : 1)) {
    const batch = takeBatch();
    if (!batch.length) return;
    running++;
    void run(batch).finally(() => {
      running--;
      for (const p of batch) p.identities.forEach((id) => busy.delete(id));
      schedule();
    });
  }
}

async function run(batch: Pending[]): Promise<void> {
  metrics.trackingBatchSize.observe(batch.length);
  if (batch.length === 1) {
    const [p] = batch as [Pending];
    await applyOne(p.device, p.decide).then(p.resolve, p.reject);
    return;
  }
  let answers: unknown[];
  try {
    answers = await inTransaction(
      async (client, commitNow) => {
        const read = batchReader(client);
        const settled = await Promise.allSettled(batch.map((p) => p.decide(read)));
        const failed = settled.find((s) => s.status === "rejected");
        if (failed) throw failed.reason;
        const decisions = settled.map(
          (s) => (s as PromiseFulfilledResult<Awaited<ReturnType<Pending["decide"]>>>).value,
        );
        const planned = decisions.flatMap((d) => (d.plan ? [d.plan] : []));
        const written = await writeMany(client, planned, commitNow);
        let next = 0;
        return decisions.map((d) => d.answer(d.plan ? written[next++]! : null));
      },
      batch.flatMap((p) => p.identities),
    );
  } catch {
    // Nothing of the batch was written: each update alone, so one that fails fails by itself.
    await Promise.all(batch.map((p) => applyOne(p.device, p.decide).then(p.resolve, p.reject)));
    return;
  }
  batchesCommitted.count++;
  batch.forEach((p, i) => p.resolve(answers[i]));
}

export const postgresTracking: TrackingStore = {
  async apply<T>(device: Pending["device"], decide: Pending["decide"]): Promise<T> {
    // Decisions stamp times with this thread's clock: set it first (clock-seed.ts).
    await clockSeeded();
    return new Promise<T>((resolve, reject) => {
      queue.push({
        device,
        identities: identitiesOf(device),
        decide,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      if (!scheduled) {
        scheduled = true;
        setImmediate(schedule);
      }
    });
  },
};

/** A row's index into the questions asked (1-based, from WITH ORDINALITY). */
type Indexed<T> = T & { i: number };

/** The batch's reader: the frequent questions gathered into set-based statements. */
function batchReader(client: Queryable): TrackingReader {
  const tx = trackingOf(client, true);
  /** The user rows found, by seq: two updates of the batch must not have found the same one. */
  const found = new Set<number>();
  const users = <A>(sql: string, columns: (asked: A[]) => unknown[]) =>
    gathered(async (asked: A[]) => {
      const rowsFound = await rows<Indexed<UserRead>>(sql, columns(asked), client);
      const byIndex = new Map<number, StoredUser>();
      for (const r of rowsFound) {
        const user = tx.read(r);
        // Two devices of one user (one names it by userId, the other is its deviceId): alone, the
        // second would wait for the first's commit on the user's row; in one transaction it would
        // not, and both would decide from the same state.
        if (found.has(user.seq)) throw new Error("two updates of the batch found the same user");
        found.add(user.seq);
        byIndex.set(r.i, user);
      }
      return asked.map((_, k) => byIndex.get(k + 1) ?? null);
    });
  const byUserId = users(
    `SELECT c.i::int AS i, ${USER_READ}
     FROM unnest($1::boolean[], $2::text[]) WITH ORDINALITY AS c(wlive, wuser, i)
     CROSS JOIN LATERAL (SELECT * FROM "User" WHERE "live" = c.wlive AND "userId" = c.wuser FOR UPDATE) "User"`,
    (asked: { live: boolean; userId: string }[]) => [asked.map((a) => a.live), asked.map((a) => a.userId)],
  );
  const byDeviceId = users(
    `SELECT c.i::int AS i, ${USER_READ}
     FROM unnest($1::boolean[], $2::text[], $3::boolean[]) WITH ORDINALITY AS c(wlive, wdevice, wanonymous, i)
     CROSS JOIN LATERAL (SELECT * FROM "User" WHERE "live" = c.wlive AND "deviceId" = c.wdevice
       AND (NOT c.wanonymous OR "userId" IS NULL) ORDER BY "updatedAt" DESC LIMIT 1 FOR UPDATE) "User"`,
    (asked: { live: boolean; deviceId: string; anonymous: boolean }[]) => [
      asked.map((a) => a.live),
      asked.map((a) => a.deviceId),
      asked.map((a) => a.anonymous),
    ],
  );
  const counts = gatheredCounts(client);
  const targets = new Map<boolean, Promise<WebhookTarget[]>>();
  return {
    userByUserId: (live, userId) => byUserId({ live, userId }),
    userByDeviceId: (live, deviceId, anonymous) => byDeviceId({ live, deviceId, anonymous }),
    verificationCounts: async (live, classes) => (classes.length ? counts({ live, classes }) : []),
    webhooksFor: (live) => {
      let found = targets.get(live);
      if (!found) targets.set(live, (found = webhookTargets(live, client)));
      return found;
    },
    part: partsOf(tx),
  };
}

/** The verdict counts of every class of the batch's events, in one statement. */
function gatheredCounts(client: Queryable) {
  return gathered(
    async (asked: { live: boolean; classes: Parameters<TrackingReader["verificationCounts"]>[1] }[]) => {
      const flat = asked.flatMap((a) => a.classes.map((c) => ({ live: a.live, ...c })));
      if (!flat.length) return asked.map(() => []);
      const found = await rows<VerdictCounts & { i: number }>(
        `SELECT c.i::int AS i, v.accepted, v.rejected
       FROM unnest($1::boolean[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS c(wlive, subject, type, band, i)
       CROSS JOIN LATERAL (
         SELECT COUNT(*) FILTER (WHERE e."verification" = 1)::int AS accepted,
                COUNT(*) FILTER (WHERE e."verification" = -1)::int AS rejected
         FROM "Event" e WHERE e."live" = c.wlive AND e."subject" = c.subject AND e."type" = c.type
           AND e."band" = c.band AND e."verification" != 0) v
       ORDER BY c.i`,
        [
          flat.map((c) => c.live),
          flat.map((c) => c.subject),
          flat.map((c) => c.type),
          flat.map((c) => c.band),
        ],
        client,
      );
      let at = 0;
      return asked.map((a) =>
        found.slice(at, (at += a.classes.length)).map(({ accepted, rejected }) => ({ accepted, rejected })),
      );
    },
  );
}
