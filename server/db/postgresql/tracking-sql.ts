import type { Membership, PlaceVerdict, TrackingReader, Decision } from "../../storage/tracking";
import type { StoredUser } from "../../storage/users";
import type { WebhookTarget } from "../../storage/webhook-records";
import type { TrackedGeofence } from "../../storage/geofences";
import type { VerdictCounts } from "../../storage/events";
import { activeTrip, tripByRef } from "./trips";
import { writeMany } from "./tracking-write";
import type { GeofenceIndex } from "../geofence-index";
import { geofencesNow } from "./geofence-index";
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

/**
 * A user row (it may hold more columns) as the stored user. Every field listed, not a rest copy
 * (docs/development.md, "Objects on hot paths").
 */
export const storedUserOf = (r: StoredUser): StoredUser => ({
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

/** A user row read with its memberships, as the user and its memberships (null: to be read again). */
export function withMemberships(row: UserWithMemberships): [StoredUser, Membership[] | null] {
  const { memberships, changedSince } = row;
  const stored = storedUserOf(row);
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
  let geofences: Promise<GeofenceIndex> | undefined;
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
    memberships: async (userSeq) =>
      // Nothing of the user's is written before decide asks: what was read with it still holds.
      found?.seq === userSeq
        ? found.memberships
        : rows<Membership>(
            `SELECT "geofenceSeq", "enteredAt", "dwelled" FROM "UserGeofence" WHERE "userSeq" = $1`,
            [userSeq],
            client,
          ),
    // From this process's index of geofences, brought up to date once per transaction (at its
    // first question: one statement, usually no row; ./geofence-index.ts).
    geofenceVersionsNear: async (live, box, seqs) =>
      (await (geofences ??= geofencesNow(client))).near(live, box, seqs),
    geofencesBySeqs: (seqs) => trackedGeofencesBySeqs(seqs, client),
    geofenceSeqsByIds: (live, ids) => geofenceSeqsByIds(client, live, ids),
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

async function geofenceSeqsByIds(
  client: Queryable,
  live: boolean,
  ids: readonly string[],
): Promise<number[]> {
  if (!ids.length) return [];
  const found = await rows<{ seq: number }>(
    `SELECT "seq" FROM "Geofence" WHERE "live" = $1 AND "id" = ANY($2::text[])`,
    [live, ids],
    client,
  );
  return found.map((r) => r.seq);
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
