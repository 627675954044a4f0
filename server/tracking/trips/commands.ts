import type { AuthKey } from "../../auth/keys";
import { ApiError } from "../../errors";
import type { StoredUser } from "../../storage/users";
import { type TrackingReader, partWrite } from "../../storage/tracking";
import { TRIP_TRACKING, type TripWrite } from "../../storage/trips";
import { storage } from "../../storage";
import type { Clock } from "../clock";
import { userEventsPlan } from "../plan";
import type { EventDraft } from "../kinds/kind";
import { stoppedTrip, tripEvent } from "./kind";
import {
  type TripStatus,
  aimedAt,
  currentLegIndex,
  legsOf,
  mayMove,
  routedMode,
  serializeTrip,
  straightLineEta,
} from "./model";
import type { Trip } from "./progress";
import { newTrip, ownerOf, withOptions, withoutSeq } from "./start";
import { processClock } from "../track";
import type { CreateTripInput, UpdateTripInput } from "./schema";
import {
  type TripCaller,
  reachable,
  readsUser,
  tripOrNotFound,
  inTripTransaction,
  tripUser,
  userOf,
  type TripAnswer,
} from "./access";

import { destinationOf, legsFrom } from "./destinations";

/**
 * The trip calls (docs/trips.md): each decides and writes in the tracking store's transaction for
 * the trip's user, like a location update of that user, so a trip never changes under an update
 * deciding on it and its events are ordered with the user's others.
 */

const EVENT_OF: Partial<Record<TripStatus, string>> = {
  started: "user.started_trip",
  approaching: "user.approaching_trip_destination",
  arrived: "user.arrived_at_trip_destination",
  completed: "user.stopped_trip",
  canceled: "user.stopped_trip",
};

/**
 * Writes trips with the events they make for their user, in the transaction for that user: when
 * the user was never tracked, the trips alone (events need a user and a location).
 */
export async function written(
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
        events: [],
        outbox: null,
        writes: [partWrite(TRIP_TRACKING, trips)],
      },
      answer: () => ({ trip: main, events: [], owned }),
    };
  }
  const { plan, recorded } = await userEventsPlan(
    read,
    user,
    drafts,
    [partWrite(TRIP_TRACKING, trips)],
    clock,
  );
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
  const now = clock.wall();
  const destination = (await destinationOf(live, body)) ?? null;
  const legs = body.legs?.length ? await legsFrom(live, body.legs, now, clock) : [];
  const owner = { userId: body.userId ?? null, deviceId: body.deviceId ?? null };
  return storage().tracking.apply(
    { live, deviceId: body.deviceId ?? `trip:${body.externalId}`, userId: body.userId ?? null },
    async (read) => {
      const taken = await read.part(TRIP_TRACKING).tripByRef(live, { externalId: body.externalId });
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
          ? await read.part(TRIP_TRACKING).activeTrip(live, ownerOf(owner.userId, owner.deviceId ?? ""))
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
    const now = clock.wall();
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
          ? await read.part(TRIP_TRACKING).activeTrip(live, ownerOf(found.userId, found.deviceId ?? ""))
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
  const window = { from: trip.startedAt, to: trip.endedAt ?? undefined };
  return (await storage().users.locations(user.seq, 1000, window)).map((l) => ({
    type: "Point",
    coordinates: [l.longitude, l.latitude],
    accuracy: l.accuracy,
    recordedAt: l.recordedAt.toISOString(),
  }));
}
