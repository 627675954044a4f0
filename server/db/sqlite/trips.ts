import {
  ACTIVE_STATUSES,
  type ActiveDestination,
  statusIn,
  type StoredTrip,
  TRIP_COLUMNS as COLUMNS,
  TRIP_TRACKING,
  type TripOwner,
  type TripRef,
  type TripStore,
  type TripWrite,
} from "../../storage/trips";
import { prepared, sqlDate, rowDate } from "./connection";
import { shared } from "./shared-stores";
import { sqlitePart } from "./tracking-part";

/** The trip statements: reads inside and outside the tracking transaction, and its writes. */

interface TripRow extends Omit<
  StoredTrip,
  | "live"
  | "metadata"
  | "legs"
  | "startNotified"
  | "scheduledArrivalAt"
  | "createdAt"
  | "updatedAt"
  | "startedAt"
  | "endedAt"
  | "expiresAt"
> {
  live: number;
  metadata: string | null;
  legs: string | null;
  startNotified: number;
  scheduledArrivalAt: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  endedAt: string | null;
  expiresAt: string;
}

const parsed = (t: string | null) => (t === null ? null : (JSON.parse(t) as unknown));

const tripOf = (r: TripRow): StoredTrip => ({
  ...r,
  live: r.live === 1,
  metadata: parsed(r.metadata),
  legs: parsed(r.legs),
  startNotified: r.startNotified === 1,
  scheduledArrivalAt: rowDate(r.scheduledArrivalAt),
  createdAt: new Date(r.createdAt),
  updatedAt: new Date(r.updatedAt),
  startedAt: rowDate(r.startedAt),
  endedAt: rowDate(r.endedAt),
  expiresAt: new Date(r.expiresAt),
});

/** Started, approaching or arrived. */
const ACTIVE = statusIn(ACTIVE_STATUSES);

export function tripByRef(live: boolean, ref: TripRef): StoredTrip | null {
  const row = (
    "id" in ref
      ? prepared(`SELECT * FROM "Trip" WHERE "id" = ? AND "live" = ?`).get(ref.id, live ? 1 : 0)
      : prepared(`SELECT * FROM "Trip" WHERE "live" = ? AND "externalId" = ?`).get(
          live ? 1 : 0,
          ref.externalId,
        )
  ) as TripRow | undefined;
  return row ? tripOf(row) : null;
}

export function activeTrip(live: boolean, owner: TripOwner): StoredTrip | null {
  const row = (
    "userId" in owner
      ? prepared(
          `SELECT * FROM "Trip" WHERE "live" = ? AND "userId" = ? AND ${ACTIVE} ORDER BY "seq" DESC LIMIT 1`,
        ).get(live ? 1 : 0, owner.userId)
      : prepared(
          `SELECT * FROM "Trip" WHERE "live" = ? AND "deviceId" = ? AND "userId" IS NULL AND ${ACTIVE}
           ORDER BY "seq" DESC LIMIT 1`,
        ).get(live ? 1 : 0, owner.deviceId)
  ) as TripRow | undefined;
  return row ? tripOf(row) : null;
}

/** Only the columns the ETA and tripOptions need (a trip may have no destination): most updates find none. */
export function activeDestination(live: boolean, owner: TripOwner): ActiveDestination | null {
  const columns = `"id", "externalId", "mode", "destinationLatitude" AS "latitude", "destinationLongitude" AS "longitude",
    "destinationGeofenceId" AS "geofenceId", "destinationGeofenceTag" AS "tag",
    "destinationGeofenceExternalId" AS "geofenceExternalId"`;
  const row = (
    "userId" in owner
      ? prepared(
          `SELECT ${columns} FROM "Trip" WHERE "live" = ? AND "userId" = ? AND ${ACTIVE} ORDER BY "seq" DESC LIMIT 1`,
        ).get(live ? 1 : 0, owner.userId)
      : prepared(
          `SELECT ${columns} FROM "Trip" WHERE "live" = ? AND "deviceId" = ? AND "userId" IS NULL AND ${ACTIVE}
           ORDER BY "seq" DESC LIMIT 1`,
        ).get(live ? 1 : 0, owner.deviceId)
  ) as ActiveDestination | undefined;
  return row ?? null;
}

const value = (t: TripWrite["trip"], c: (typeof COLUMNS)[number]) => {
  const v = t[c];
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return sqlDate(v);
  if (typeof v === "boolean") return v ? 1 : 0;
  if (c === "metadata" || c === "legs") return JSON.stringify(v);
  return v as string | number;
};

const INSERT = `INSERT INTO "Trip" (${COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES (${COLUMNS.map(() => "?").join(", ")})`;
const UPDATE = `UPDATE "Trip" SET ${COLUMNS.map((c) => `"${c}" = ?`).join(", ")} WHERE "seq" = ?`;

/** Writes a plan's trips (inside the tracking transaction). */
export function writeTrips(trips: readonly TripWrite[]): void {
  for (const { seq, trip } of trips) {
    const values = COLUMNS.map((c) => value(trip, c));
    if (seq === null) prepared(INSERT).run(...values);
    else prepared(UPDATE).run(...values, seq);
  }
}

/** The trip events' part of tracking: the trips they read and the trips a plan makes or changes. */
export const tripTracking = sqlitePart({
  part: TRIP_TRACKING,
  reader: {
    tripByRef: async (live, ref) => tripByRef(live, ref),
    activeTrip: async (live, owner) => activeTrip(live, owner),
  },
  write: (_userSeq, trips) => writeTrips(trips),
});

export const sqliteTrips: TripStore = {
  ...shared.trips,
  activeDestination: async (live, owner) => activeDestination(live, owner),
};
