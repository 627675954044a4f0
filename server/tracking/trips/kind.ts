import { haversine } from "../../geo/distance";
import { ENTER_AT, insideProbability } from "../../geofences/inside";
import { ACTIVE_STATUSES, TRIP_TRACKING, type TripWrite } from "../../storage/trips";
import { storage } from "../../storage";
import { partWrite } from "../../storage/tracking";
import { mayRead } from "../visible";
import { type TrackHints, NO_HINTS, tripHints } from "./hints";
import { type EtaHint, isActive, serializeTrip } from "./model";
import { type Trip, advance } from "./progress";
import { ownerOf, tripFromOptions, withoutSeq } from "./start";
import { type GeofenceState, geofences } from "../kinds/geofences";
import type { EventDraft, Kind, Update } from "../kinds/kind";

export interface TripState {
  /** the trip the user is on (read in the transaction), as it is before the update moves it */
  current: TripWrite | null | undefined;
  /** what naming another trip (tripOptions) changed first: the trip it ended, and its event */
  replaced: TripWrite | null;
  /** the road ETA computed before the transaction, for the destination and mode it names */
  eta: EtaHint | null;
  /** the geofences near the fix and those the user is in (the destination may be one) */
  geofences: GeofenceState;
}

/** A trip event: about the trip as it is after the change. */
export const tripEvent = (type: string, trip: Trip, leg?: unknown): EventDraft => {
  const wire = serializeTrip(trip);
  return {
    type,
    about: { trip: (leg ? { ...wire, leg } : wire) as EventDraft["about"]["trip"] },
    subject: null,
    probability: 1,
    band: "core",
    duration: null,
  };
};

/** user.stopped_trip for a trip that ends. */
export const stoppedTrip = (trip: Trip) => tripEvent("user.stopped_trip", trip);

/**
 * The trip the user is on before the update moves it, and what naming a trip (tripOptions)
 * changes first. Read only when the read before the transaction found one, or the update names
 * one, so updates of users on no trip pay nothing. Another device's update may start a trip for
 * the user, not end the one it is on.
 */
async function tripBefore(u: Update, hints: TrackHints): Promise<Omit<TripState, "eta" | "geofences">> {
  const { read, key, fix, clock, owned } = u;
  const part = read.part(TRIP_TRACKING);
  const owner = ownerOf(u.userId, u.deviceId);
  if (hints.options) {
    const { current, replaced } = await tripFromOptions(part, key.live, owner, hints.options, {
      destination: hints.destination,
      at: fix.at,
      clock,
      mayEndOther: mayRead(key, owned),
    });
    return { current, replaced };
  }
  const found = hints.active ? await part.activeTrip(key.live, owner) : null;
  return {
    current: hints.active ? found && { seq: found.seq, trip: withoutSeq(found) } : undefined,
    replaced: null,
  };
}

/**
 * Trips (docs/trips.md): the trip the user is on moves on with each update: its road ETA
 * (computed before the transaction: ../trips/hints.ts), its delay, its legs, and Radar's trip
 * events. The trip is written with the update; the user's answer shows the trip it is on.
 */
export const trips: Kind<TripState> = {
  name: "trips",
  parts: [TRIP_TRACKING],
  prepare: (live, input) => tripHints(live, input),
  async load(u, prepared) {
    const hints = (prepared as TrackHints | undefined) ?? NO_HINTS;
    return { ...(await tripBefore(u, hints)), eta: hints.eta, geofences: u.loaded(geofences) };
  },
  detect({ fix }, { current, replaced, eta, geofences: near }) {
    const events: EventDraft[] = replaced ? [stoppedTrip(replaced.trip)] : [];
    const written: TripWrite[] = replaced ? [replaced] : [];
    if (current) {
      const { latitude: lat, longitude: lng, accuracy } = fix;
      const geofence = (id: string | null) => (id ? near.geofences.find((g) => g.id === id) : undefined);
      const arrived = (t: Trip) => {
        const g = geofence(t.destinationGeofenceId);
        if (g) return g.enabled && insideProbability(g, lat, lng, accuracy) >= ENTER_AT;
        if (t.destinationGeofenceId || t.destinationLatitude === null || t.destinationLongitude === null)
          return false;
        return haversine(lng, lat, t.destinationLongitude, t.destinationLatitude) <= (t.arrivalRadius ?? 0);
      };
      const tag = current.trip.destinationGeofenceTag;
      const wrongDestination =
        tag !== null &&
        near.geofences.some(
          (g) =>
            g.tag === tag &&
            g.enabled &&
            g.id !== current.trip.destinationGeofenceId &&
            !near.memberships.has(g.seq) &&
            insideProbability(g, lat, lng, accuracy) >= ENTER_AT,
        );
      const moved = advance(current.trip, {
        at: fix.at,
        position: [lng, lat],
        eta,
        arrived,
        wrongDestination,
      });
      events.push(...moved.events.map((e) => tripEvent(e.type, moved.trip, e.leg)));
      written.push({ seq: current.seq, trip: moved.trip });
    }
    const onTrip = written.find((w) => isActive(w.trip.status));
    return {
      events,
      writes: written.length ? [partWrite(TRIP_TRACKING, written)] : [],
      shown: onTrip ? { trip: serializeTrip(onTrip.trip) } : {},
    };
  },
  async storedMany(users) {
    // The trips these users are on (Radar's user.trip), read at once.
    const found = await storage().trips.list(
      {
        live: users[0]!.live,
        statuses: ACTIVE_STATUSES,
        owners: {
          userIds: users.flatMap((u) => (u.userId ? [u.userId] : [])),
          deviceIds: users.flatMap((u) => (u.userId ? [] : [u.deviceId])),
        },
      },
      users.length * 2,
    );
    return users.map((u) => {
      const trip = found.find((t) =>
        u.userId ? t.userId === u.userId : t.deviceId === u.deviceId && !t.userId,
      );
      return trip ? { trip: serializeTrip(trip) } : {};
    });
  },
  async stored(read, user) {
    const found = await read.part(TRIP_TRACKING).activeTrip(user.live, ownerOf(user.userId, user.deviceId));
    return found ? { trip: serializeTrip(withoutSeq(found)) } : {};
  },
};
