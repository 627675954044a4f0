import type { StoredTrip, TripOwner, TripRef, TripWrite } from "../../storage/port";
import { TRIP_COLUMNS as COLUMNS } from "../../storage/records";
import { type Queryable, jsonb, row, rows } from "./sql";

/**
 * The trip statements: reads inside the tracking transaction (FOR UPDATE: an expiry sweep or
 * another app process waits for the update that read the trip), the read before it, and the
 * writes.
 */

const ACTIVE = `"status" IN ('started', 'approaching', 'arrived')`;

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

const JSON_COLUMNS = new Set(["metadata", "legs"]);
const param = (c: string, i: number) => `$${i + 1}${JSON_COLUMNS.has(c) ? "::jsonb" : ""}`;
const INSERT = `INSERT INTO "Trip" (${COLUMNS.map((c) => `"${c}"`).join(", ")})
  VALUES (${COLUMNS.map(param).join(", ")})`;
const UPDATE = `UPDATE "Trip" SET ${COLUMNS.map((c, i) => `"${c}" = ${param(c, i)}`).join(", ")}
  WHERE "seq" = $${COLUMNS.length + 1}`;

/** Writes a plan's trips (inside the tracking transaction). */
export async function writeTrips(on: Queryable, trips: readonly TripWrite[]): Promise<void> {
  for (const { seq, trip } of trips) {
    const values = COLUMNS.map((c) => (JSON_COLUMNS.has(c) ? jsonb(trip[c]) : trip[c]));
    await rows(seq === null ? INSERT : UPDATE, seq === null ? values : [...values, seq], on);
  }
}
