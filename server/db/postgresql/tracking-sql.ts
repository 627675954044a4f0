import type { Decision, TrackingPart, TrackingReader } from "../../storage/tracking";
import type { StoredUser } from "../../storage/users";
import type { WebhookTarget } from "../../storage/webhook-records";
import type { VerdictCounts } from "../../storage/events";
import { TRACKING_PARTS } from "./kinds";
import type { PgTracking } from "./tracking-part";
import { writeMany } from "./tracking-write";
import { type Queryable, inTransaction, row, rows } from "./sql";
import { isRetryableConflict } from "../../errors";

/**
 * The PostgreSQL tracking store. Each update is decided and written in a transaction of its
 * own, holding a transaction-scoped advisory lock per identity of the device (its deviceId and,
 * when given, its userId, taken in one order so two updates never wait on each other in a
 * circle): two updates of one device, from any app process, are applied one after the other,
 * so each sees the other's result and one move makes its events once. Updates of different
 * devices run side by side on the pool's connections.
 */

const USER_COLUMNS = `"seq", "id", "live", "deviceId", "userId", "description", "metadata", "deviceType",
  "device", "foreground", "stopped", "latitude", "longitude", "accuracy", "country", "state", "postalCode", "dma", "place",
  "placeEnteredAt", "createdAt", "actualUpdatedAt", "updatedAt"`;

/** An envelope's parameters: west, south, east, north. */
export const ENVELOPE = (first: number) =>
  `ST_MakeEnvelope($${first}, $${first + 1}, $${first + 2}, $${first + 3}, 4326)`;

export function verificationCounts(
  on: Queryable,
  live: boolean,
  subject: string,
  type: string,
  band: string,
): Promise<VerdictCounts> {
  return row<VerdictCounts>(
    `SELECT COUNT(*) FILTER (WHERE "verification" = 1)::int AS accepted,
            COUNT(*) FILTER (WHERE "verification" = -1)::int AS rejected
     FROM "Event" WHERE "live" = $1 AND "subject" = $2 AND "type" = $3 AND "band" = $4 AND "verification" != 0`,
    [live, subject, type, band],
    on,
  ).then((r) => r ?? { accepted: 0, rejected: 0 });
}

/**
 * A user row as tracking reads it: with the values its kinds' parts read with it (./kinds.ts,
 * PgPart.withUser), in the same statement (one round trip fewer per update). The statement reads
 * the user FOR UPDATE: when it had to wait for another transaction that changed the row (another
 * device of the same user, which holds other device locks), the row is the committed one but the
 * values are those of the statement's snapshot, from before; `changedSince` says so (the row as
 * the snapshot saw it has another updatedAt), and the parts read them again.
 */
const WITH_USER = TRACKING_PARTS.flatMap((p) => (p.withUser ? [p] : []));
export const USER_READ = `${USER_COLUMNS}${WITH_USER.map((p, i) => `, ${p.withUser!.column} AS "part${i}"`).join("")},
  (SELECT s."updatedAt" FROM "User" s WHERE s."seq" = "User"."seq") IS DISTINCT FROM "User"."updatedAt" AS "changedSince"`;

export type UserRead = StoredUser & { changedSince: boolean } & Record<`part${number}`, unknown>;

/**
 * A user row (it may hold more columns) as the stored user. Every field listed, not a rest copy
 * (docs/development.md, "Objects on hot paths").
 */
const storedUserOf = (r: StoredUser): StoredUser => ({
  seq: r.seq,
  id: r.id,
  live: r.live,
  deviceId: r.deviceId,
  userId: r.userId,
  description: r.description,
  metadata: r.metadata,
  deviceType: r.deviceType,
  device: r.device,
  foreground: r.foreground,
  stopped: r.stopped,
  latitude: r.latitude,
  longitude: r.longitude,
  accuracy: r.accuracy,
  country: r.country,
  state: r.state,
  postalCode: r.postalCode,
  dma: r.dma,
  place: r.place,
  placeEnteredAt: r.placeEnteredAt,
  createdAt: r.createdAt,
  actualUpdatedAt: r.actualUpdatedAt,
  updatedAt: r.updatedAt,
});

/** One transaction of tracking: its parts' readers made once, and the values read with its users. */
export function trackingOf(
  client: Queryable,
  batched: boolean,
): PgTracking & { read(row: UserRead): StoredUser } {
  const values = new Map<string, Map<number, unknown>>();
  const withUser = (part: string) => {
    let found = values.get(part);
    if (!found) values.set(part, (found = new Map()));
    return found;
  };
  return {
    client,
    batched,
    withUser,
    read(row) {
      const stored = storedUserOf(row);
      if (!row.changedSince) {
        WITH_USER.forEach((p, i) =>
          withUser(p.part.name).set(stored.seq, p.withUser!.parse(row[`part${i}`])),
        );
      }
      return stored;
    },
  };
}

const PARTS_BY_NAME = new Map(TRACKING_PARTS.map((p) => [p.part.name, p]));

/** A reader's `part`: each part's reader made at its first question in the transaction. */
export function partsOf(tx: PgTracking): TrackingReader["part"] {
  const readers = new Map<string, unknown>();
  return <R>(part: TrackingPart<R, unknown>): R => {
    let r = readers.get(part.name);
    if (r === undefined) {
      const found = PARTS_BY_NAME.get(part.name);
      if (!found) throw new Error(`no tracking part "${part.name}" on PostgreSQL`);
      readers.set(part.name, (r = found.reader(tx)));
    }
    return r as R;
  };
}

/**
 * The reader of one update's transaction. The user is read FOR UPDATE: a delete of it (which
 * locks it too) either waits for this update to commit and then removes what it wrote, or
 * commits first and this update finds no user and makes a new one. Without the lock, an update
 * decided on a user deleted meanwhile wrote events of no user (a 500).
 */
export function trackingReader(client: Queryable): TrackingReader {
  const tx = trackingOf(client, false);
  const user = async (sql: string, values: unknown[]) => {
    const r = await row<UserRead>(sql, values, client);
    return r ? tx.read(r) : null;
  };
  return {
    userByUserId: (live, userId) =>
      user(`SELECT ${USER_READ} FROM "User" WHERE "live" = $1 AND "userId" = $2 FOR UPDATE`, [live, userId]),
    userByDeviceId: (live, deviceId, anonymous) =>
      user(
        `SELECT ${USER_READ} FROM "User" WHERE "live" = $1 AND "deviceId" = $2${anonymous ? ` AND "userId" IS NULL` : ""}
         ORDER BY "updatedAt" DESC LIMIT 1 FOR UPDATE`,
        [live, deviceId],
      ),
    webhooksFor: (live) => webhookTargets(live, client),
    part: partsOf(tx),
    verificationCounts: async (live, classes) => {
      if (!classes.length) return [];
      // Every class of the update's events in one statement: a dense move makes dozens.
      const found = await rows<VerdictCounts & { i: number }>(
        // LATERAL: one index lookup per class (Event_verdicts_idx holds verified events only).
        `SELECT c.i::int AS i, v.accepted, v.rejected
         FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS c(subject, type, band, i)
         CROSS JOIN LATERAL (
           SELECT COUNT(*) FILTER (WHERE e."verification" = 1)::int AS accepted,
                  COUNT(*) FILTER (WHERE e."verification" = -1)::int AS rejected
           FROM "Event" e WHERE e."live" = $1 AND e."subject" = c.subject AND e."type" = c.type
             AND e."band" = c.band AND e."verification" != 0) v
         ORDER BY c.i`,
        [live, classes.map((c) => c.subject), classes.map((c) => c.type), classes.map((c) => c.band)],
        client,
      );
      return found.map(({ accepted, rejected }) => ({ accepted, rejected }));
    },
  };
}

/** The enabled webhooks of a world (an update with events fills their outbox). */
export async function webhookTargets(live: boolean, client: Queryable): Promise<WebhookTarget[]> {
  const found = await rows<{ seq: number; mode: "single" | "multiple"; types: string | null }>(
    `SELECT "seq", "mode", "types" FROM "Webhook" WHERE "live" = $1 AND "enabled"`,
    [live],
    client,
  );
  return found.map((r) => ({ seq: r.seq, mode: r.mode, types: r.types ? r.types.split(",") : null }));
}

/** How often an update is decided again after PostgreSQL rolled it back (a deadlock). */
const RETRIES = 5;

/** A device's identities, the names of the advisory locks its updates hold. */
export function identitiesOf(device: { live: boolean; deviceId: string; userId: string | null }): string[] {
  const world = device.live ? "live" : "test";
  const identities = [`device:${world}:${device.deviceId}`];
  if (device.userId !== null) identities.push(`user:${world}:${device.userId}`);
  return identities;
}

/**
 * One update in a transaction of its own, holding its device's locks; decided again when
 * PostgreSQL rolled it back to end a deadlock.
 */
export async function applyOne<T>(
  device: { live: boolean; deviceId: string; userId: string | null },
  decide: (read: TrackingReader) => Promise<Decision<T>>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(async (client, commitNow) => {
        const decision = await decide(trackingReader(client));
        const written = decision.plan ? (await writeMany(client, [decision.plan], commitNow))[0]! : null;
        return decision.answer(written);
      }, identitiesOf(device));
    } catch (e) {
      // Rolled back by PostgreSQL to end a deadlock (or not serializable): nothing was written,
      // and deciding again is what the client would otherwise do after an error.
      if (!isRetryableConflict(e) || attempt >= RETRIES) throw e;
    }
  }
}
