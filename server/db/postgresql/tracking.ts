import type {
  GeofenceVersion,
  Membership,
  PlaceVerdict,
  StoredUser,
  TrackedGeofence,
  TrackingPlan,
  TrackingReader,
  Decision,
  VerdictCounts,
  WebhookTarget,
  Written,
} from "../../storage/port";
import { writeOutboxRow } from "./outbox";
import { activeTrip, tripByRef, writeTrips } from "./trips";
import { type Queryable, inTransaction, jsonb, row, rows } from "./sql";

/**
 * The PostgreSQL tracking store. Each update is decided and written in a transaction of its
 * own, holding a transaction-scoped advisory lock per identity of the device (its deviceId and,
 * when given, its userId, taken in one order so two updates never wait on each other in a
 * circle): two updates of one device, from any app process, are applied one after the other,
 * so each sees the other's result and one move makes its events once. Updates of different
 * devices run side by side on the pool's connections.
 */

export const USER_COLUMNS = `"seq", "id", "live", "deviceId", "userId", "description", "metadata", "deviceType",
  "device", "foreground", "stopped", "latitude", "longitude", "accuracy", "country", "state", "postalCode", "dma", "place",
  "placeEnteredAt", "createdAt", "actualUpdatedAt", "updatedAt"`;

export const GEOFENCE_COLUMNS = `"seq", "id", "live", "description", "tag", "externalId", "type", "geometry",
  "centerLng", "centerLat", "radius", "metadata", "enabled", "dwellThreshold", "userIds", "stopDetection",
  "disableAfter", "deleteAfter", "createdAt", "updatedAt"`;

type TrackedRow = Omit<TrackedGeofence, "ring">;

const toTracked = (g: TrackedRow): TrackedGeofence => ({
  ...g,
  ring: g.type === "circle" ? [] : (g.geometry[0] ?? []),
});

/** A geofence's version: its updatedAt in ms (EXTRACT gives seconds as numeric, exact to the microsecond). */
export const VERSION = `(EXTRACT(EPOCH FROM "updatedAt") * 1000)::float8`;

/** An envelope's parameters: west, south, east, north. */
export const ENVELOPE = (first: number) =>
  `ST_MakeEnvelope($${first}, $${first + 1}, $${first + 2}, $${first + 3}, 4326)`;

export function trackedGeofencesBySeqs(seqs: readonly number[], on: Queryable) {
  if (!seqs.length) return Promise.resolve([]);
  return rows<TrackedRow>(
    `SELECT ${GEOFENCE_COLUMNS} FROM "Geofence" WHERE "seq" = ANY($1::int[])`,
    [seqs],
    on,
  ).then((r) => r.map(toTracked));
}

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
 * A user row with its memberships, read in the same statement (decide asks for the memberships
 * of the user it found next: one round trip fewer per update). The statement reads the user FOR
 * UPDATE: when it had to wait for another transaction that changed the row (another device of
 * the same user, which holds other device locks), the row is the committed one but the
 * memberships are those of the statement's snapshot, from before; `changedSince` says so (the
 * row as the snapshot saw it has another updatedAt), and they are read again.
 */
export const WITH_MEMBERSHIPS = `, (SELECT COALESCE(json_agg(json_build_array(m."geofenceSeq", m."enteredAt", m."dwelled")), '[]')
  FROM "UserGeofence" m WHERE m."userSeq" = "User"."seq") AS "memberships",
  (SELECT s."updatedAt" FROM "User" s WHERE s."seq" = "User"."seq") IS DISTINCT FROM "User"."updatedAt" AS "changedSince"`;

export type UserWithMemberships = StoredUser & {
  memberships: [number, string, boolean][];
  changedSince: boolean;
};

/** A user row read with its memberships, as the user and its memberships (null: to be read again). */
export function withMemberships({
  memberships,
  changedSince,
  ...stored
}: UserWithMemberships): [StoredUser, Membership[] | null] {
  if (changedSince) return [stored, null];
  return [
    stored,
    memberships.map(([geofenceSeq, enteredAt, dwelled]) => ({
      geofenceSeq,
      enteredAt: new Date(enteredAt),
      dwelled,
    })),
  ];
}

/**
 * The reader of one update's transaction. The user is read FOR UPDATE: a delete of it (which
 * locks it too) either waits for this update to commit and then removes what it wrote, or
 * commits first and this update finds no user and makes a new one. Without the lock, an update
 * decided on a user deleted meanwhile wrote events of no user (a 500).
 */
export function trackingReader(client: Queryable): TrackingReader {
  /** The memberships read with the last user found, by that user's seq. */
  let found: { seq: number; memberships: Membership[] } | null = null;
  const user = async (sql: string, values: unknown[]) => {
    const r = await row<UserWithMemberships>(sql, values, client);
    if (!r) return null;
    const [stored, memberships] = withMemberships(r);
    found = memberships && { seq: stored.seq, memberships };
    return stored;
  };
  return {
    userByUserId: (live, userId) =>
      user(
        `SELECT ${USER_COLUMNS}${WITH_MEMBERSHIPS} FROM "User" WHERE "live" = $1 AND "userId" = $2 FOR UPDATE`,
        [live, userId],
      ),
    userByDeviceId: (live, deviceId, anonymous) =>
      user(
        `SELECT ${USER_COLUMNS}${WITH_MEMBERSHIPS} FROM "User" WHERE "live" = $1 AND "deviceId" = $2${anonymous ? ` AND "userId" IS NULL` : ""}
         ORDER BY "updatedAt" DESC LIMIT 1 FOR UPDATE`,
        [live, deviceId],
      ),
    // Each candidate instant is locked (without waiting) and looked for in one statement: one
    // held by another process's update still deciding counts as taken (../../tracking/instants.ts).
    // This process's updates are given disjoint candidates and never ask about each other's.
    // (Should the holder commit between this statement's snapshot and its lock, the unique index
    // on the instant refuses the write and the update is decided again: see RETRIES.)
    userUpdatedAtTaken: (live, ats, exceptSeq) =>
      instantsTaken(
        client,
        live ? INSTANT_LOCKS.userLive : INSTANT_LOCKS.userTest,
        `EXISTS (SELECT 1 FROM "User" WHERE "live" = $1 AND "updatedAt" = c.t AND "seq" IS DISTINCT FROM $4)`,
        ats,
        [live, exceptSeq],
      ),
    eventCreatedAtTaken: (live, ats) =>
      instantsTaken(
        client,
        live ? INSTANT_LOCKS.eventLive : INSTANT_LOCKS.eventTest,
        `EXISTS (SELECT 1 FROM "Event" WHERE "live" = $1 AND "createdAt" = c.t)`,
        ats,
        [live],
      ),
    memberships: async (userSeq) =>
      // Nothing of the user's is written before decide asks: what was read with it still holds.
      found?.seq === userSeq
        ? found.memberships
        : rows<Membership>(
            `SELECT "geofenceSeq", "enteredAt", "dwelled" FROM "UserGeofence" WHERE "userSeq" = $1`,
            [userSeq],
            client,
          ),
    geofenceVersionsNear: (live, box, seqs) =>
      rows<GeofenceVersion>(
        `SELECT "seq", ${VERSION} AS "version" FROM "Geofence" WHERE "box" && ${ENVELOPE(1)} AND "live" = $5
         UNION SELECT "seq", ${VERSION} FROM "Geofence" WHERE "seq" = ANY($6::int[])`,
        [box.minLng, box.minLat, box.maxLng, box.maxLat, live, seqs],
        client,
      ),
    geofencesBySeqs: (seqs) => trackedGeofencesBySeqs(seqs, client),
    webhooksFor: (live) => webhookTargets(live, client),
    tripByRef: (live, ref) => tripByRef(client, live, ref),
    activeTrip: (live, owner) => activeTrip(client, live, owner),
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
    placeVerdictsInBox: (live, box) =>
      rows<PlaceVerdict>(
        `SELECT "placeId", "verifiedPlaceId", "verification" FROM "Event"
         WHERE "type" = 'user.entered_place' AND "live" = $1 AND "latitude" BETWEEN $2 AND $3
           AND "longitude" BETWEEN $4 AND $5 AND ("verification" != 0 OR "verifiedPlaceId" IS NOT NULL)`,
        [live, box.minLat, box.maxLat, box.minLng, box.maxLng],
        client,
      ),
  };
}

export const USER_WRITE = `"deviceId", "userId", "description", "metadata", "deviceType", "device", "foreground", "stopped", "latitude",
  "longitude", "accuracy", "country", "state", "postalCode", "dma", "place", "placeEnteredAt", "actualUpdatedAt", "updatedAt"`;

export function userValues(u: NonNullable<TrackingPlan["user"]>["write"]) {
  return [
    u.deviceId,
    u.userId,
    u.description,
    jsonb(u.metadata),
    u.deviceType,
    jsonb(u.device),
    u.foreground,
    u.stopped,
    u.latitude,
    u.longitude,
    u.accuracy,
    jsonb(u.country),
    jsonb(u.state),
    jsonb(u.postalCode),
    jsonb(u.dma),
    jsonb(u.place),
    u.placeEnteredAt,
    u.actualUpdatedAt,
    u.updatedAt,
  ];
}

const USER_PARAMS = `$1, $2, $3, $4::jsonb, $5, $6::jsonb, $7, $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14::jsonb, $15::jsonb, $16::jsonb, $17, $18, $19`;

/**
 * The plan's writes in one statement, one round trip: the user row (inserted or updated), its
 * history row, the memberships exited, entered and dwelled, and the events (a dense move makes
 * dozens), each part a data-modifying CTE fed by arrays that are empty when there is nothing to
 * write. The parts touch different rows, so none needs to see another's effect.
 */
function writeStatement(insert: boolean) {
  const userPart = insert
    ? `INSERT INTO "User" (${USER_WRITE}, "id", "live", "createdAt") VALUES (${USER_PARAMS}, $20, $21, $22) RETURNING "seq"`
    : `UPDATE "User" SET (${USER_WRITE}) = (${USER_PARAMS}) WHERE "seq" = $20 RETURNING "seq"`;
  const p = insert ? 23 : 21;
  const n = (k: number) => `$${p + k}`;
  return `WITH u AS (${userPart}),
  l AS (INSERT INTO "UserLocation" ("userSeq", "latitude", "longitude", "accuracy", "recordedAt", "receivedAt")
        SELECT "seq", ${n(0)}::float8, ${n(1)}::float8, ${n(2)}::float8, ${n(3)}::timestamptz, ${n(4)}::timestamptz FROM u
        WHERE ${n(0)}::float8 IS NOT NULL),
  x AS (DELETE FROM "UserGeofence" WHERE "userSeq" = (SELECT "seq" FROM u) AND "geofenceSeq" = ANY(${n(5)}::int[])),
  m AS (INSERT INTO "UserGeofence" ("userSeq", "geofenceSeq", "enteredAt", "dwelled")
        SELECT (SELECT "seq" FROM u), s, t, false FROM unnest(${n(6)}::int[], ${n(7)}::timestamptz[]) AS m(s, t)),
  d AS (UPDATE "UserGeofence" SET "dwelled" = true
        WHERE "userSeq" = (SELECT "seq" FROM u) AND "geofenceSeq" = ANY(${n(8)}::int[])),
  ev AS (INSERT INTO "Event" ("id", "live", "type", "userSeq", "user", "geofenceId", "geofence", "subject", "region",
           "place", "placeId", "alternatePlaces", "latitude", "longitude", "accuracy", "confidence", "probability",
           "band", "verification", "duration", "createdAt", "actualCreatedAt", "metadata", "trip")
         SELECT id, live, type, (SELECT "seq" FROM u), "user", "geofenceId", geofence, subject, region, place, "placeId",
           "alternatePlaces", latitude, longitude, accuracy, confidence, probability, band, 0, duration, "createdAt",
           "actualCreatedAt", metadata, trip
         FROM unnest(${n(9)}::text[], ${n(10)}::boolean[], ${n(11)}::text[], ${n(12)}::jsonb[], ${n(13)}::text[],
           ${n(14)}::jsonb[], ${n(15)}::text[], ${n(16)}::jsonb[], ${n(17)}::jsonb[], ${n(18)}::text[], ${n(19)}::jsonb[],
           ${n(20)}::float8[], ${n(21)}::float8[], ${n(22)}::float8[], ${n(23)}::int[], ${n(24)}::float8[], ${n(25)}::text[],
           ${n(26)}::float8[], ${n(27)}::timestamptz[], ${n(28)}::timestamptz[], ${n(29)}::jsonb[], ${n(30)}::jsonb[])
           AS e(id, live, type, "user", "geofenceId", geofence, subject, region, place, "placeId", "alternatePlaces",
             latitude, longitude, accuracy, confidence, probability, band, duration, "createdAt", "actualCreatedAt",
             metadata, trip)
         RETURNING "id", "seq")
  SELECT (SELECT "seq" FROM u) AS "userSeq",
         COALESCE((SELECT json_agg(json_build_array("id", "seq")) FROM ev), '[]'::json) AS events`;
}

const WRITE_INSERT = writeStatement(true);
const WRITE_UPDATE = writeStatement(false);

export async function write(client: Queryable, plan: TrackingPlan): Promise<Written> {
  const { user, location } = plan;
  if (plan.trips?.length) await writeTrips(client, plan.trips);
  if (!user) return { userSeq: 0, eventSeqs: [] };
  const e = plan.events;
  const head =
    user.seq === null
      ? [...userValues(user.write), user.id, user.live, user.createdAt]
      : [...userValues(user.write), user.seq];
  const result = await row<{ userSeq: number; events: [string, number][] }>(
    user.seq === null ? WRITE_INSERT : WRITE_UPDATE,
    [
      ...head,
      location?.latitude ?? null,
      location?.longitude ?? null,
      location?.accuracy ?? null,
      location?.recordedAt ?? null,
      location?.receivedAt ?? null,
      plan.exited,
      plan.entered.map((m) => m.geofenceSeq),
      plan.entered.map((m) => m.enteredAt),
      plan.dwelled,
      e.map((x) => x.id),
      e.map((x) => x.live),
      e.map((x) => x.type),
      e.map((x) => jsonb(x.user)),
      e.map((x) => x.geofenceId),
      e.map((x) => jsonb(x.geofence)),
      e.map((x) => x.subject),
      e.map((x) => jsonb(x.region)),
      e.map((x) => jsonb(x.place)),
      e.map((x) => x.placeId),
      e.map((x) => jsonb(x.alternatePlaces)),
      e.map((x) => x.latitude),
      e.map((x) => x.longitude),
      e.map((x) => x.accuracy),
      e.map((x) => x.confidence),
      e.map((x) => x.probability),
      e.map((x) => x.band),
      e.map((x) => x.duration),
      e.map((x) => x.createdAt),
      e.map((x) => x.actualCreatedAt),
      e.map((x) => jsonb(x.metadata)),
      e.map((x) => jsonb(x.trip)),
    ],
    client,
  );
  if (!result) throw new Error("the tracking write returned nothing");
  const seqOf = new Map(result.events);
  // The outbox, in the same transaction: no event is committed without what it owes webhooks.
  await writeOutboxRow(client, plan.outbox);
  return { userSeq: result.userSeq, eventSeqs: e.map((x) => seqOf.get(x.id)!) };
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

/**
 * The advisory locks of instants are pairs of 32-bit keys (a key space apart from the identity
 * locks' 64-bit keys): one class per kind and world, then the instant's milliseconds modulo 2^32
 * (instants 49.7 days apart share a lock, which only makes one skip the other).
 */
export const INSTANT_LOCKS = {
  userTest: 0x4c500001,
  userLive: 0x4c500002,
  eventTest: 0x4c500003,
  eventLive: 0x4c500004,
};

/**
 * For each of `ats`, whether it is taken: a row holds it (`exists`, on `c.t`, after `$1`…), or
 * another transaction holds its lock. Its lock is taken when free (held to the commit); nothing
 * waits.
 */
async function instantsTaken(
  client: Queryable,
  lockClass: number,
  exists: string,
  ats: readonly Date[],
  params: unknown[],
): Promise<boolean[]> {
  const found = await rows<{ got: boolean; taken: boolean }>(
    `SELECT pg_try_advisory_xact_lock(${lockClass}, c.k) AS got, ${exists} AS taken
     FROM unnest($2::int[], $3::timestamptz[]) WITH ORDINALITY AS c(k, t, i) ORDER BY c.i`,
    [params[0], ats.map((t) => (t.getTime() % 2 ** 32) | 0), ats, ...params.slice(1)],
    client,
  );
  return found.map((r) => !r.got || r.taken);
}

/** How often an update is decided again after another took its updatedAt or createdAt meanwhile. */
const RETRIES = 5;

const INSTANT_KEYS = new Set(["User_live_updatedAt_key", "Event_live_createdAt_key"]);

const tookInstant = (e: unknown) =>
  (e as { code?: string }).code === "23505" &&
  INSTANT_KEYS.has((e as { constraint?: string }).constraint ?? "");

/** A device's identities, the names of the advisory locks its updates hold. */
export function identitiesOf(device: { live: boolean; deviceId: string; userId: string | null }): string[] {
  const world = device.live ? "live" : "test";
  const identities = [`device:${world}:${device.deviceId}`];
  if (device.userId !== null) identities.push(`user:${world}:${device.userId}`);
  return identities;
}

/** One update in a transaction of its own, holding its device's locks (decided again when another took its instant). */
export async function applyOne<T>(
  device: { live: boolean; deviceId: string; userId: string | null },
  decide: (read: TrackingReader) => Promise<Decision<T>>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(async (client) => {
        const decision = await decide(trackingReader(client));
        const written = decision.plan ? await write(client, decision.plan) : null;
        return decision.answer(written);
      }, identitiesOf(device));
    } catch (e) {
      // Another update took the same instant after all (the instant locks should prevent it):
      // decide again; it is committed now, so the decision picks the next free instant.
      if (!tookInstant(e) || attempt >= RETRIES) throw e;
    }
  }
}
