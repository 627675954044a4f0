import type { Position } from "../../geo/distance";
import type { StoredTrip } from "../../storage/trips";
import {
  type EtaHint,
  type TripLeg,
  aimedAt,
  currentLegIndex,
  delayOf,
  legsOf,
  routedMode,
  straightLineEta,
} from "./model";

/**
 * How a location update moves a trip on (docs/trips.md#events), decided from the trip, the fix,
 * where the user is, and the road ETA computed before the update: pure, so each rule is tested
 * on its own.
 */

export type Trip = Omit<StoredTrip, "seq">;

export interface TripEventDraft {
  type: string;
  /** for leg events: the leg */
  leg?: TripLeg;
}

export interface Whereabouts {
  at: Date;
  position: Position;
  /** the road ETA found for a destination and mode before the update (used when they still hold) */
  eta: EtaHint | null;
  /** whether the user is at the trip's current destination (its geofence, or within its radius) */
  arrived: (trip: Trip) => boolean;
  /** the user just entered another geofence with the destination's tag */
  wrongDestination: boolean;
}

const sameSpot = (a: Position, b: Position) => Math.abs(a[0] - b[0]) < 1e-9 && Math.abs(a[1] - b[1]) < 1e-9;

/** The trip after one update of its user, and the events it makes (at least user.updated_trip). */
export function advance(trip: Trip, w: Whereabouts): { trip: Trip; events: TripEventDraft[] } {
  const { at } = w;
  const stamp = at.toISOString();
  if (at.getTime() >= trip.expiresAt.getTime()) {
    return { trip: { ...trip, status: "expired", endedAt: at, updatedAt: at }, events: [] };
  }
  const events: TripEventDraft[] = [];
  let t: Trip = { ...trip, updatedAt: at };
  if (!t.startNotified) {
    events.push({ type: "user.started_trip" });
    t.startNotified = true;
  }
  const legs = legsOf(t).map((l) => ({ ...l }));
  let i = currentLegIndex(legs);
  // A leg arrived at, whose stop is over: completed, and the next leg starts.
  if (i >= 0 && i < legs.length - 1 && legs[i]!.status === "arrived") {
    const stopped = at.getTime() - Date.parse(legs[i]!.arrivedAt ?? stamp);
    if (stopped >= (legs[i]!.stopDuration ?? 0) * 60_000) {
      legs[i] = { ...legs[i]!, status: "completed", updatedAt: stamp };
      i++;
      legs[i] = { ...legs[i]!, status: "started", updatedAt: stamp };
      t = { ...aimedAt(t, legs[i]!), status: "started" };
    }
  }
  const leg = i >= 0 ? legs[i] : undefined;
  if (leg && leg.status === "pending") Object.assign(leg, { status: "started", updatedAt: stamp });
  const last = !leg || i === legs.length - 1;

  if (t.destinationLatitude !== null && t.destinationLongitude !== null) {
    const to: Position = [t.destinationLongitude, t.destinationLatitude];
    const mode = routedMode(t.mode);
    const eta =
      w.eta && w.eta.mode === mode && sameSpot(w.eta.to, to) ? w.eta : straightLineEta(w.position, to, mode);
    t = { ...t, etaDistance: eta.distance, etaDuration: eta.duration, etaSource: eta.source };
  }

  const arrivedAlready = leg ? leg.status === "arrived" : t.status === "arrived";
  if (!arrivedAlready && w.arrived(t)) {
    t = { ...t, etaDistance: 0, etaDuration: 0 };
    if (leg) Object.assign(leg, { status: "arrived", arrivedAt: stamp, updatedAt: stamp });
    // Every leg's arrival has Radar's name (the SDKs know no other); the trip arrives at the last.
    if (last) t.status = "arrived";
    events.push({ type: "user.arrived_at_trip_destination", leg });
  } else if (
    t.etaDuration !== null &&
    t.etaDuration <= t.approachingThreshold &&
    (leg ? leg.status === "started" : t.status === "started")
  ) {
    if (leg) Object.assign(leg, { status: "approaching", updatedAt: stamp });
    if (last) t.status = "approaching";
    events.push({ type: "user.approaching_trip_destination", leg });
  }
  if (leg && t.etaDuration !== null) leg.eta = { distance: t.etaDistance ?? 0, duration: t.etaDuration };
  t.delayMinutes = delayOf(t.scheduledArrivalAt, at, t.etaDuration);
  if (w.wrongDestination) events.push({ type: "user.arrived_at_wrong_trip_destination" });
  if (!events.length) events.push({ type: "user.updated_trip" });
  return { trip: legs.length ? { ...t, legs } : t, events };
}
