import {
  ACTIVE_STATUSES,
  statusIn,
  type StoredTrip,
  TRIP_COLUMNS as COLUMNS,
  TRIP_TRACKING,
  type TripOwner,
  type TripRef,
  type TripStore,
  type TripWrite,
} from "../../storage/trips";
import { pool } from "./pool";
import { shared } from "./shared-stores";
import { type Queryable, gathered, jsonb, row, rows } from "./sql";
import { pgPart } from "./tracking-part";

/**
 * The trip statements: reads inside the tracking transaction (FOR UPDATE: an expiry sweep or
 * another app process waits for the update that read the trip), the read before it, and the
 * writes.
 */

const ACTIVE = statusIn(ACTIVE_STATUSES);

export function tripByRef(on: Queryable, live: boolean, ref: TripRef): Promise<StoredTrip | null> {
  return "id" in ref
    ? row<StoredTrip>(`SELECT * FROM "Trip" WHERE "id" = $1 AND "live" = $2 FOR UPDATE`, [ref.id, live], on)
    : row<StoredTrip>(
        `SELECT * FROM "Trip" WHERE "live" = $1 AND "externalId" = $2 FOR UPDATE`,
        [live, ref.externalId],
        on,
      );
}

export function activeTrip(
  on: Queryable,
  live: boolean,
  owner: TripOwner,
  lock = true,
): Promise<StoredTrip | null> {
  const forUpdate = lock ? " FOR UPDATE" : "";
  return "userId" in owner
    ? row<StoredTrip>(
        `SELECT * FROM "Trip" WHERE "live" = $1 AND "userId" = $2 AND ${ACTIVE} ORDER BY "seq" DESC LIMIT 1${forUpdate}`,
        [live, owner.userId],
        on,
      )
    : row<StoredTrip>(
        `SELECT * FROM "Trip" WHERE "live" = $1 AND "deviceId" = $2 AND "userId" IS NULL AND ${ACTIVE}
         ORDER BY "seq" DESC LIMIT 1${forUpdate}`,
        [live, owner.deviceId],
        on,
      );
}

/**
 * The active trip of each owner asked, in one statement: `lock` takes each row FOR UPDATE (in a
 * tracking batch's transaction).
 */
async function activeTrips(
  asked: { live: boolean; owner: TripOwner }[],
  on: Queryable,
  lock: boolean,
): Promise<(StoredTrip | null)[]> {
  const byUser = asked.flatMap((a, i) =>
    "userId" in a.owner ? [{ i, live: a.live, key: a.owner.userId }] : [],
  );
  const byDevice = asked.flatMap((a, i) =>
    "deviceId" in a.owner ? [{ i, live: a.live, key: a.owner.deviceId }] : [],
  );
  const forUpdate = lock ? " FOR UPDATE" : "";
  const found = await rows<StoredTrip & { i: number }>(
    `SELECT c.i, t.* FROM unnest($1::int[], $2::boolean[], $3::text[]) AS c(i, wlive, wkey)
     CROSS JOIN LATERAL (SELECT * FROM "Trip" WHERE "live" = c.wlive AND "userId" = c.wkey AND ${ACTIVE}
       ORDER BY "seq" DESC LIMIT 1${forUpdate}) t
     UNION ALL
     SELECT c.i, t.* FROM unnest($4::int[], $5::boolean[], $6::text[]) AS c(i, wlive, wkey)
     CROSS JOIN LATERAL (SELECT * FROM "Trip" WHERE "live" = c.wlive AND "deviceId" = c.wkey AND "userId" IS NULL
       AND ${ACTIVE} ORDER BY "seq" DESC LIMIT 1${forUpdate}) t`,
    [
      byUser.map((a) => a.i),
      byUser.map((a) => a.live),
      byUser.map((a) => a.key),
      byDevice.map((a) => a.i),
      byDevice.map((a) => a.live),
      byDevice.map((a) => a.key),
    ],
    on,
  );
  const out = asked.map((): StoredTrip | null => null);
  for (const { i, ...trip } of found) out[i] = trip as StoredTrip;
  return out;
}

/**
 * Tracking's read before its transaction (../../tracking/trips/hints.ts), which every update
 * makes: the owners asked in the same turn of the event loop are read together, without a lock.
 */
export const activeTripsGathered = gathered((asked: { live: boolean; owner: TripOwner }[]) =>
  activeTrips(asked, pool(), false),
);

/** A tracking batch's reads of its users' trips (FOR UPDATE), those of one turn together. */
export function activeTripsLocked(
  on: Queryable,
): (live: boolean, owner: TripOwner) => Promise<StoredTrip | null> {
  const read = gathered((asked: { live: boolean; owner: TripOwner }[]) => activeTrips(asked, on, true));
  return (live, owner) => read({ live, owner });
}

const JSON_COLUMNS = new Set(["metadata", "legs"]);
const param = (c: string, i: number) => `$${i + 1}${JSON_COLUMNS.has(c) ? "::jsonb" : ""}`;
const INSERT = `INSERT INTO "Trip" (${COLUMNS.map((c) => `"${c}"`).join(", ")})
  VALUES (${COLUMNS.map(param).join(", ")})`;
const UPDATE = `UPDATE "Trip" SET ${COLUMNS.map((c, i) => `"${c}" = ${param(c, i)}`).join(", ")}
  WHERE "seq" = $${COLUMNS.length + 1}`;

/**
 * Writes trips (inside the tracking transaction): every statement sent at once, in order, without
 * waiting for the one before (the connection pipelines, ./pool.ts); settled when all are.
 */
export function writeTrips(on: Queryable, trips: readonly TripWrite[]): Promise<unknown> {
  return Promise.all(
    trips.map(({ seq, trip }) => {
      const values = COLUMNS.map((c) => (JSON_COLUMNS.has(c) ? jsonb(trip[c]) : trip[c]));
      return rows(seq === null ? INSERT : UPDATE, seq === null ? values : [...values, seq], on);
    }),
  );
}

/** The trip events' part of tracking: the trips they read (FOR UPDATE) and those a plan makes or changes. */
export const tripTracking = pgPart({
  part: TRIP_TRACKING,
  reader: ({ client, batched }) => ({
    tripByRef: (live, ref) => tripByRef(client, live, ref),
    activeTrip: batched ? activeTripsLocked(client) : (live, owner) => activeTrip(client, live, owner),
  }),
  // Trips first, sent without waiting (they run in order, before the plans' statement).
  before: (client, writes) => writeTrips(client, writes.flat()),
});

export const postgresTrips: TripStore = {
  ...shared.trips,
  async activeDestination(live, owner) {
    const trip = await activeTripsGathered({ live, owner });
    if (!trip) return null;
    return {
      id: trip.id,
      externalId: trip.externalId,
      mode: trip.mode,
      latitude: trip.destinationLatitude,
      longitude: trip.destinationLongitude,
      geofenceId: trip.destinationGeofenceId,
      tag: trip.destinationGeofenceTag,
      geofenceExternalId: trip.destinationGeofenceExternalId,
    };
  },
};
