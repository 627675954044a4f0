import { haversine } from "../../geo/distance";
import { ENTER_AT, insideProbability } from "../../geofences/inside";
import { serializeTrip } from "../trips/model";
import { type Trip, advance } from "../trips/progress";
import type { Detected, Detector, EventDraft } from "./types";

/**
 * Trips (docs/trips.md): the trip the user is on (snapshot.trip, read in the transaction) moves on
 * with each update: its road ETA (computed before the transaction: snapshot.eta), its delay, its
 * legs, and Radar's trip events. The trip is written with the update.
 */
export const trips: Detector = {
  detect({ fix, snapshot }): Detected {
    const current = snapshot.trip;
    if (!current) return { events: [] };
    const { latitude: lat, longitude: lng, accuracy } = fix;
    const geofence = (id: string | null) => (id ? snapshot.geofences.find((g) => g.id === id) : undefined);
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
      snapshot.geofences.some(
        (g) =>
          g.tag === tag &&
          g.enabled &&
          g.id !== current.trip.destinationGeofenceId &&
          !snapshot.memberships.has(g.seq) &&
          insideProbability(g, lat, lng, accuracy) >= ENTER_AT,
      );
    const { trip, events } = advance(current.trip, {
      at: fix.at,
      position: [lng, lat],
      eta: snapshot.eta ?? null,
      arrived,
      wrongDestination,
    });
    const wire = serializeTrip(trip);
    return {
      events: events.map((e): EventDraft => ({
        type: e.type,
        probability: 1,
        band: "core",
        duration: null,
        trip: e.leg ? { ...wire, leg: e.leg } : wire,
      })),
      trips: [{ seq: current.seq, trip }],
    };
  },
};
