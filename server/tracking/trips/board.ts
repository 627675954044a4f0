import { EVENT_TYPES } from "../../../lib/types";
import { z } from "zod";
import type { AuthKey } from "../../auth/keys";
import { ApiError } from "../../errors";
import { booleanish, choiceList, optionalString } from "../../http/fields";
import { routeInWorker } from "../../planner/pool";
import type { StoredTrip } from "../../storage/trips";
import { storage } from "../../storage";
import { serializeEvent } from "../serialize";
import { ACTIVE_STATUSES, TRIP_STATUSES, routedMode, serializeTrip } from "./model";
import { refOf, tripUser } from "./access";

/**
 * The dashboard's Trips page (docs/trips.md#dashboard): trips filtered on the server with where
 * their users are now, a trip's remaining route by road, and its events.
 */

/** Most trips the board shows at once. */
export const BOARD_LIMIT = 200;

export const boardQuery = z.object({
  /** default: the trips under way */
  status: choiceList(TRIP_STATUSES).optional(),
  delayed: booleanish.optional(),
  destinationGeofenceTag: optionalString(256),
});

/** Trips, newest first, each with its user's last position (null: never tracked). */
export async function tripsBoard(key: AuthKey, q: z.output<typeof boardQuery>) {
  const found = await storage().trips.list(
    {
      live: key.live,
      statuses: q.status ?? ACTIVE_STATUSES,
      delayed: q.delayed,
      destinationGeofenceTag: q.destinationGeofenceTag,
      sortBy: "updatedAt",
    },
    BOARD_LIMIT + 1,
  );
  const trips = found.slice(0, BOARD_LIMIT);
  const users = await storage().users.byOwners(
    key.live,
    trips.flatMap((t) => (t.userId ? [t.userId] : [])),
    trips.flatMap((t) => (!t.userId && t.deviceId ? [t.deviceId] : [])),
  );
  const byUserId = new Map(users.filter((u) => u.userId).map((u) => [u.userId!, u]));
  const byDevice = new Map(users.filter((u) => !u.userId).map((u) => [u.deviceId, u]));
  return {
    trips: trips.map((t) => {
      const u = t.userId ? byUserId.get(t.userId) : t.deviceId ? byDevice.get(t.deviceId) : undefined;
      return {
        ...serializeTrip(t),
        user: u
          ? {
              _id: u.id,
              location: { type: "Point", coordinates: [u.longitude, u.latitude] },
              updatedAt: u.updatedAt.toISOString(),
            }
          : null,
      };
    }),
    hasMore: found.length > BOARD_LIMIT,
  };
}

async function tripOf(key: AuthKey, ref: string): Promise<StoredTrip> {
  const trip = await storage().trips.byRef(key.live, refOf(ref));
  if (!trip) throw new ApiError("not_found", `no trip ${ref} in this environment`);
  return trip;
}

/** The road from the user to the trip's current destination ([lng, lat] points), or why there is none. */
export async function remainingRoute(key: AuthKey, ref: string) {
  const trip = await tripOf(key, ref);
  const user = await tripUser(trip);
  if (!user || trip.destinationLatitude === null || trip.destinationLongitude === null) {
    return { line: null, reason: user ? "the trip has no destination" : "its user has not been tracked" };
  }
  const [r] = await routeInWorker(
    [user.longitude, user.latitude],
    [trip.destinationLongitude, trip.destinationLatitude],
    [routedMode(trip.mode)],
    0,
    true,
  );
  if (!r || !("leg" in r) || !r.leg.path) return { line: null, reason: "no imported roads join them" };
  return { line: r.leg.path, reason: null };
}

/** The events trips make (their names in lib/types.ts). */
const TRIP_EVENT_TYPES = EVENT_TYPES.filter((t) => t.includes("_trip"));

/**
 * The trip's events, oldest first (its timeline; among the user's latest 500 trip events). Known
 * by the trip they carry, never by time: an event is stamped when it happened (the wall clock),
 * a trip's createdAt by the process's strictly increasing clock (server/storage/ids.ts), which runs
 * ahead of the wall clock under a burst of writes, so a trip's own started event can be older than
 * its createdAt (its timeline was empty then).
 */
export async function tripEvents(key: AuthKey, ref: string) {
  const trip = await tripOf(key, ref);
  const user = await tripUser(trip);
  if (!user) return { events: [] };
  const events = await storage().events.list(
    { live: key.live, userSeq: user.seq, types: TRIP_EVENT_TYPES },
    500,
  );
  return {
    events: events
      .filter((e) => (e.trip as { _id?: string } | null)?._id === trip.id)
      .reverse()
      .map(serializeEvent),
  };
}
