import type { AuthKey } from "../../auth/keys";
import { ApiError } from "../../errors";
import type { StoredEvent } from "../../storage/events";
import type { StoredUser } from "../../storage/users";
import type { Decision, TrackingReader } from "../../storage/tracking";
import { type StoredTrip, type TripRef, TRIP_TRACKING } from "../../storage/trips";
import { storage } from "../../storage";
import type { Trip } from "./progress";
import { type Claimed, mayRead, ownsDevice } from "../visible";

/**
 * The identities a trip call names (the SDKs send the userId; a device without one, its deviceId).
 * A publishable key reaches a trip by its _id, or by externalId with the trip's own userId or
 * deviceId; anything else is answered as a trip that does not exist (docs/security.md).
 */
/** What a trip call answers: the trip, the events it made, and whether the caller may read the user. */
export interface TripAnswer {
  trip: Trip;
  events: StoredEvent[];
  /** the request names the trip user's device (or there is none): a publishable key may read the user's state */
  owned: boolean;
}

export interface TripCaller {
  key: AuthKey;
  claimed: Claimed & { userId?: string | null };
}

export function reachable({ key, claimed }: TripCaller, ref: string, trip: StoredTrip): boolean {
  if (key.kind !== "publishable" || trip.id === ref) return true;
  return (
    (!!claimed.userId && claimed.userId === trip.userId) ||
    (!!claimed.deviceId && trip.userId === null && claimed.deviceId === trip.deviceId)
  );
}

/** Whether the caller may read the state of the trip's user (its last fix, its other trip). */
export const readsUser = (caller: TripCaller, user: StoredUser | null) =>
  !user || mayRead(caller.key, ownsDevice(user, caller.claimed));

/** A trip by _id (24 hex digits) or externalId, as the paths name it. */
export const refOf = (ref: string): TripRef =>
  /^[0-9a-f]{24}$/.test(ref) ? { id: ref } : { externalId: ref };

/**
 * What a trip call locks: the trip's user, as a location update of that user does (a trip with a
 * userId has no deviceId: the identity named after the trip locks nothing else).
 */
const lockOf = (t: StoredTrip) => ({
  live: t.live,
  deviceId: t.deviceId ?? `trip:${t.externalId}`,
  userId: t.userId,
});

const notFound = (ref: string) =>
  new ApiError("not_found", `no trip with _id or externalId ${ref} in this environment`);

export async function tripOrNotFound(caller: TripCaller, ref: string) {
  const { live } = caller.key;
  const r = refOf(ref);
  const found =
    (await storage().trips.byRef(live, r)) ??
    ("id" in r ? await storage().trips.byRef(live, { externalId: ref }) : null);
  if (!found || !reachable(caller, ref, found)) throw notFound(ref);
  return found;
}

/**
 * Runs `change` on a trip named by the path, in the tracking store's transaction for its user,
 * with the trip as read there (locked on PostgreSQL).
 */
export async function inTripTransaction(
  caller: TripCaller,
  ref: string,
  change: (read: TrackingReader, found: StoredTrip) => Promise<Decision<TripAnswer>>,
): Promise<TripAnswer> {
  const before = await tripOrNotFound(caller, ref);
  return storage().tracking.apply(lockOf(before), async (read) => {
    const found = await read.part(TRIP_TRACKING).tripByRef(caller.key.live, { id: before.id });
    if (!found) throw notFound(ref);
    return change(read, found);
  });
}

/** The user a trip is of (by userId, else the device), or null when never tracked. */
export async function tripUser(trip: Trip): Promise<StoredUser | null> {
  const [u] = await storage().users.byOwners(
    trip.live,
    trip.userId ? [trip.userId] : [],
    trip.userId ? [] : [trip.deviceId ?? ""],
  );
  return u ?? null;
}

export const userOf = (
  read: TrackingReader,
  live: boolean,
  owner: { userId: string | null; deviceId: string | null },
) =>
  owner.userId
    ? read.userByUserId(live, owner.userId)
    : owner.deviceId
      ? read.userByDeviceId(live, owner.deviceId, true)
      : Promise.resolve(null);
