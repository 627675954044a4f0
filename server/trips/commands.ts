import type { AuthKey } from "../auth/keys";
import { ApiError } from "../errors";
import { searchText } from "../geocode/forward";
import type { StoredEvent } from "../storage/events";
import type { StoredUser } from "../storage/users";
import type { Decision, TrackingReader } from "../storage/tracking";
import type { StoredTrip, TripRef, TripWrite } from "../storage/trips";
import { storage } from "../storage";
import { type Clock, stoppedTrip, userEventsPlan } from "../tracking/plan";
import type { EventDraft } from "../tracking/detectors/types";
import { geofenceDestination } from "../tracking/trips/hints";
import {
  type TripLeg,
  type TripStatus,
  aimedAt,
  currentLegIndex,
  isActive,
  legsOf,
  mayMove,
  routedMode,
  serializeTrip,
  straightLineEta,
} from "../tracking/trips/model";
import type { Trip } from "../tracking/trips/progress";
import { type Destination, newTrip, ownerOf, withOptions, withoutSeq } from "../tracking/trips/start";
import { processClock } from "../tracking/track";
import { type Claimed, mayRead, ownsDevice } from "../tracking/visible";
import type { CreateTripInput, LegInput, UpdateTripInput } from "./schema";

/**
 * The trip calls (docs/trips.md): each decides and writes in the tracking store's transaction for
 * the trip's user, like a location update of that user, so a trip never changes under an update
 * deciding on it and its events are ordered with the user's others.
 */

export interface TripAnswer {
  trip: Trip;
  events: StoredEvent[];
  /** the request names the trip user's device (or there is none): a publishable key may read the user's state */
  owned: boolean;
}

/**
 * The identities a trip call names (the SDKs send the userId; a device without one, its deviceId).
 * A publishable key reaches a trip by its _id, or by externalId with the trip's own userId or
 * deviceId; anything else is answered as a trip that does not exist (docs/security.md).
 */
export interface TripCaller {
  key: AuthKey;
  claimed: Claimed & { userId?: string | null };
}

function reachable({ key, claimed }: TripCaller, ref: string, trip: StoredTrip): boolean {
  if (key.kind !== "publishable" || trip.id === ref) return true;
  return (
    (!!claimed.userId && claimed.userId === trip.userId) ||
    (!!claimed.deviceId && trip.userId === null && claimed.deviceId === trip.deviceId)
  );
}

/** Whether the caller may read the state of the trip's user (its last fix, its other trip). */
const readsUser = (caller: TripCaller, user: StoredUser | null) =>
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

async function tripOrNotFound(caller: TripCaller, ref: string) {
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
async function inTripTransaction(
  caller: TripCaller,
  ref: string,
  change: (read: TrackingReader, found: StoredTrip) => Promise<Decision<TripAnswer>>,
): Promise<TripAnswer> {
  const before = await tripOrNotFound(caller, ref);
  return storage().tracking.apply(lockOf(before), async (read) => {
    const found = await read.tripByRef(caller.key.live, { id: before.id });
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

async function destinationOf(
  live: boolean,
  o: {
    destinationGeofenceId?: string;
    destinationGeofenceTag?: string;
    destinationGeofenceExternalId?: string;
  },
): Promise<Destination | null | undefined> {
  if (o.destinationGeofenceId) {
    const d = await geofenceDestination(live, { id: o.destinationGeofenceId });
    if (!d)
      throw new ApiError(
        "not_found",
        `no geofence with _id ${o.destinationGeofenceId}`,
        "destinationGeofenceId",
      );
    return d;
  }
  if (o.destinationGeofenceTag === undefined && o.destinationGeofenceExternalId === undefined)
    return undefined;
  if (!o.destinationGeofenceTag || !o.destinationGeofenceExternalId) {
    const missing = o.destinationGeofenceTag ? "destinationGeofenceExternalId" : "destinationGeofenceTag";
    throw new ApiError(
      "invalid_input",
      `${missing}: is required with the other (a geofence is named by both)`,
      missing,
    );
  }
  const d = await geofenceDestination(live, {
    tag: o.destinationGeofenceTag,
    externalId: o.destinationGeofenceExternalId,
  });
  if (!d) {
    throw new ApiError(
      "not_found",
      `no geofence with tag ${o.destinationGeofenceTag} and externalId ${o.destinationGeofenceExternalId} in this environment`,
      "destinationGeofenceExternalId",
    );
  }
  return d;
}

/** The legs as stored: each destination found (geofences by reference, addresses geocoded). */
async function legsFrom(live: boolean, legs: LegInput[], at: Date, clock: Clock): Promise<TripLeg[]> {
  const stamp = at.toISOString();
  const out: TripLeg[] = [];
  for (const [i, l] of legs.entries()) {
    let destination: TripLeg["destination"];
    if (l.geofence) {
      const d = await geofenceDestination(live, l.geofence);
      if (!d)
        throw new ApiError(
          "not_found",
          `legs[${i}]: no such geofence in this environment`,
          `legs.${i}.destination`,
        );
      destination = {
        type: "geofence",
        source: { geofence: d.geofenceId!, data: { tag: d.tag, externalId: d.externalId } },
        location: { type: "Point", coordinates: [d.longitude, d.latitude] },
        ...(l.arrivalRadius !== null && { arrivalRadius: l.arrivalRadius }),
      };
    } else if (l.address) {
      const found = searchText(l.address, { limit: 1 })[0];
      if (!found) {
        throw new ApiError(
          "invalid_input",
          `legs.${i}.destination.address: no address found for '${l.address}'`,
          `legs.${i}.destination.address`,
        );
      }
      destination = {
        type: "address",
        source: { data: l.address },
        location: { type: "Point", coordinates: [found.longitude ?? 0, found.latitude ?? 0] },
        ...(l.arrivalRadius !== null && { arrivalRadius: l.arrivalRadius }),
      };
    } else {
      destination = {
        type: "coordinates",
        source: { data: l.coordinates },
        location: { type: "Point", coordinates: l.coordinates! },
        ...(l.arrivalRadius !== null && { arrivalRadius: l.arrivalRadius }),
      };
    }
    out.push({
      _id: clock.newId(),
      status: "pending",
      destination,
      ...(l.stopDuration && { stopDuration: l.stopDuration }),
      ...(l.metadata && { metadata: l.metadata }),
      createdAt: stamp,
      updatedAt: stamp,
    });
  }
  return out;
}

const userOf = (
  read: TrackingReader,
  live: boolean,
  owner: { userId: string | null; deviceId: string | null },
) =>
  owner.userId
    ? read.userByUserId(live, owner.userId)
    : owner.deviceId
      ? read.userByDeviceId(live, owner.deviceId, true)
      : Promise.resolve(null);

const EVENT_OF: Partial<Record<TripStatus, string>> = {
  started: "user.started_trip",
  approaching: "user.approaching_trip_destination",
  arrived: "user.arrived_at_trip_destination",
  completed: "user.stopped_trip",
  canceled: "user.stopped_trip",
};

const tripEvent = (type: string, trip: Trip): EventDraft =>
  type === "user.stopped_trip"
    ? stoppedTrip(trip)
    : { type, probability: 1, band: "core", duration: null, trip: serializeTrip(trip) };

/**
 * Writes trips with the events they make for their user, in the transaction for that user: when
 * the user was never tracked, the trips alone (events need a user and a location).
 */
async function written(
  read: TrackingReader,
  user: StoredUser | null,
  trips: TripWrite[],
  drafts: EventDraft[],
  clock: Clock,
  owned: boolean,
) {
  const main = trips[trips.length - 1]!.trip;
  if (!user || !drafts.length) {
    return {
      plan: {
        user: null,
        location: null,
        entered: [],
        exited: [],
        dwelled: [],
        events: [],
        outbox: null,
        trips,
      },
      answer: () => ({ trip: main, events: [], owned }),
    };
  }
  const { plan, recorded } = await userEventsPlan(read, user, drafts, trips, clock);
  return {
    plan,
    answer: (w: Parameters<typeof recorded>[0]) => ({ trip: main, events: recorded(w), owned }),
  };
}

/** The trip as it starts: its first leg started, a first ETA on the straight line from the user's last fix. */
function started(trip: Trip, user: StoredUser | null, at: Date): Trip {
  let t: Trip = { ...trip, status: "started", startedAt: trip.startedAt ?? at, updatedAt: at };
  const legs = legsOf(t).map((l) => ({ ...l }));
  const i = currentLegIndex(legs);
  if (i >= 0 && legs[i]!.status === "pending") {
    legs[i]!.status = "started";
    t = { ...aimedAt(t, legs[i]!), legs };
  }
  if (user && t.destinationLatitude !== null && t.destinationLongitude !== null) {
    const eta = straightLineEta(
      [user.longitude, user.latitude],
      [t.destinationLongitude, t.destinationLatitude],
      routedMode(t.mode),
    );
    t = {
      ...t,
      etaDistance: eta.distance,
      etaDuration: eta.duration,
      etaSource: eta.source,
      startNotified: true,
    };
  }
  return t;
}

export async function createTrip(
  caller: TripCaller,
  body: CreateTripInput,
  clock = processClock,
): Promise<TripAnswer> {
  const live = caller.key.live;
  if (!body.userId && !body.deviceId) {
    throw new ApiError(
      "invalid_input",
      "userId: is required (or deviceId, for a device without one): whose trip it is",
      "userId",
    );
  }
  const now = clock.now();
  const destination = (await destinationOf(live, body)) ?? null;
  const legs = body.legs?.length ? await legsFrom(live, body.legs, now, clock) : [];
  const owner = { userId: body.userId ?? null, deviceId: body.deviceId ?? null };
  return storage().tracking.apply(
    { live, deviceId: body.deviceId ?? `trip:${body.externalId}`, userId: body.userId ?? null },
    async (read) => {
      const taken = await read.tripByRef(live, { externalId: body.externalId });
      if (taken) {
        const status = reachable(caller, body.externalId, taken) ? ` (${taken.status})` : "";
        throw new ApiError(
          "conflict",
          `externalId: a trip with externalId ${body.externalId} exists${status}; trips' externalIds are unique`,
          "externalId",
        );
      }
      const user = await userOf(read, live, owner);
      // Another device's caller neither ends the user's other trip nor learns of it, nor is
      // answered an ETA from the user's last fix.
      const reads = readsUser(caller, user);
      let trip = newTrip(
        live,
        {
          externalId: body.externalId,
          owner,
          status: "pending",
          mode: body.mode,
          metadata: body.metadata,
          destination,
          approachingThreshold: body.approachingThreshold,
          scheduledArrivalAt: body.scheduledArrivalAt,
          legs,
        },
        now,
        clock,
      );
      if (legs.length) trip = aimedAt(trip, legs[0]!);
      const trips: TripWrite[] = [];
      const drafts: EventDraft[] = [];
      if ((body.status ?? "started") === "started") {
        const active = reads
          ? await read.activeTrip(live, ownerOf(owner.userId, owner.deviceId ?? ""))
          : null;
        if (active) {
          const ended: Trip = { ...withoutSeq(active), status: "canceled", endedAt: now, updatedAt: now };
          trips.push({ seq: active.seq, trip: ended });
          drafts.push(stoppedTrip(ended));
        }
        trip = started(trip, reads ? user : null, now);
        if (user) drafts.push(tripEvent("user.started_trip", trip));
      }
      trips.push({ seq: null, trip });
      return written(read, user, trips, drafts, clock, reads);
    },
  );
}

export async function updateTrip(
  caller: TripCaller,
  ref: string,
  body: UpdateTripInput,
  clock = processClock,
): Promise<TripAnswer> {
  const live = caller.key.live;
  const destination = await destinationOf(live, body);
  return inTripTransaction(caller, ref, async (read, found) => {
    const now = clock.now();
    const user = await userOf(read, live, found);
    const reads = readsUser(caller, user);
    const to = body.status;
    if (to && !mayMove(found.status, to)) {
      throw new ApiError(
        "invalid_input",
        `status: a trip that is ${found.status} cannot become ${to}`,
        "status",
      );
    }
    let trip = withOptions(withoutSeq(found), body, destination, now);
    const trips: TripWrite[] = [];
    const drafts: EventDraft[] = [];
    if (to && to !== found.status) {
      if (to === "started" && found.status === "pending") {
        const active = reads
          ? await read.activeTrip(live, ownerOf(found.userId, found.deviceId ?? ""))
          : null;
        if (active && active.seq !== found.seq) {
          const ended: Trip = { ...withoutSeq(active), status: "canceled", endedAt: now, updatedAt: now };
          trips.push({ seq: active.seq, trip: ended });
          drafts.push(stoppedTrip(ended));
        }
        trip = started(trip, reads ? user : null, now);
      } else {
        trip = {
          ...trip,
          status: to,
          ...(to === "completed" || to === "canceled" ? { endedAt: now } : {}),
        };
      }
      const type = EVENT_OF[to];
      if (type) drafts.push(tripEvent(type, trip));
    }
    trips.push({ seq: found.seq, trip });
    return written(read, user, trips, drafts, clock, reads);
  });
}

/** Sets a leg's status (the SDK's leg calls): arriving at the last leg arrives the trip. */
export async function updateLeg(
  caller: TripCaller,
  tripId: string,
  legId: string,
  status: TripLeg["status"],
  clock = processClock,
): Promise<TripAnswer> {
  const live = caller.key.live;
  return inTripTransaction(caller, tripId, async (read, found) => {
    if (!isActive(found.status))
      throw new ApiError(
        "invalid_input",
        `status: the trip is ${found.status}; only an active trip's legs change`,
        "status",
      );
    const legs = legsOf(found).map((l) => ({ ...l }));
    const i = legs.findIndex((l) => l._id === legId);
    if (i < 0) throw new ApiError("not_found", `no leg ${legId} on trip ${tripId}`);
    const now = clock.now();
    const stamp = now.toISOString();
    legs[i] = { ...legs[i]!, status, updatedAt: stamp, ...(status === "arrived" && { arrivedAt: stamp }) };
    let trip: Trip = { ...withoutSeq(found), legs, updatedAt: now };
    const drafts: EventDraft[] = [];
    const next = currentLegIndex(legs);
    if (next >= 0 && legs[next]!.status === "pending") {
      legs[next] = { ...legs[next]!, status: "started", updatedAt: stamp };
      trip = aimedAt(trip, legs[next]!);
    }
    if (status === "arrived") {
      if (i === legs.length - 1) trip.status = "arrived";
      drafts.push({
        // Radar's name for every leg's arrival (the SDKs know no other); the leg is in trip.leg.
        ...tripEvent("user.arrived_at_trip_destination", trip),
        trip: { ...serializeTrip(trip), leg: legs[i] },
      });
    }
    const user = await userOf(read, live, found);
    return written(read, user, [{ seq: found.seq, trip }], drafts, clock, readsUser(caller, user));
  });
}

/** Puts the legs in the order given (every leg of the trip, by _id). */
export async function reorderLegs(
  caller: TripCaller,
  tripId: string,
  order: string[],
  clock = processClock,
): Promise<TripAnswer> {
  return inTripTransaction(caller, tripId, async (read, found) => {
    const legs = legsOf(found);
    const byId = new Map(legs.map((l) => [l._id, l]));
    if (
      order.length !== legs.length ||
      new Set(order).size !== order.length ||
      order.some((id) => !byId.has(id))
    ) {
      throw new ApiError(
        "invalid_input",
        `legs: must list each of the trip's ${legs.length} legs' _id once`,
        "legs",
      );
    }
    const now = clock.now();
    const reordered = order.map((id) => byId.get(id)!);
    let trip: Trip = { ...withoutSeq(found), legs: reordered, updatedAt: now };
    const i = currentLegIndex(reordered);
    if (i >= 0) trip = aimedAt(trip, reordered[i]!);
    return written(read, null, [{ seq: found.seq, trip }], [], clock, caller.key.kind !== "publishable");
  });
}

export async function deleteTrip(key: AuthKey, ref: string): Promise<void> {
  const found = await tripOrNotFound({ key, claimed: {} }, ref);
  await storage().trips.delete(key.live, { id: found.id });
}

/** A trip, with its user's locations while on it when asked (newest first, at most 1,000). */
export async function getTrip(key: AuthKey, ref: string, includeLocations = false) {
  const trip = await tripOrNotFound({ key, claimed: {} }, ref);
  return serializeTrip(trip, includeLocations ? await locationsOf(trip) : undefined);
}

export async function locationsOf(trip: Trip) {
  const user = await tripUser(trip);
  if (!user || !trip.startedAt) return [];
  const from = trip.startedAt.getTime();
  const to = trip.endedAt?.getTime() ?? Infinity;
  return (await storage().users.locations(user.seq, 1000))
    .filter((l) => l.recordedAt.getTime() >= from && l.recordedAt.getTime() <= to)
    .map((l) => ({
      type: "Point",
      coordinates: [l.longitude, l.latitude],
      accuracy: l.accuracy,
      recordedAt: l.recordedAt.toISOString(),
    }));
}
