import { type Position, haversine } from "../../geo/distance";
import type { Mode } from "../../routing/profiles";
import {
  ACTIVE_STATUSES,
  ENDED_STATUSES,
  type StoredTrip,
  TRIP_STATUSES,
  type TripStatus,
} from "../../storage/trips";

/**
 * Trips as Radar's SDKs and API know them (docs/trips.md): statuses and the moves between them,
 * legs, the ETA and the delay, and the wire form. Pure: the kind (server/tracking/kinds/
 * trips.ts) and the API's commands (./commands.ts) decide with these.
 */

export { ACTIVE_STATUSES, ENDED_STATUSES, TRIP_STATUSES, type TripStatus };

export const isActive = (status: string) => (ACTIVE_STATUSES as readonly string[]).includes(status);
export const isEnded = (status: string) => (ENDED_STATUSES as readonly string[]).includes(status);

/** The statuses a trip may be set to from each (the same status again changes nothing). */
const NEXT: Record<TripStatus, readonly TripStatus[]> = {
  pending: ["started", "canceled"],
  started: ["approaching", "arrived", "completed", "canceled"],
  approaching: ["started", "arrived", "completed", "canceled"],
  arrived: ["completed", "canceled"],
  completed: [],
  canceled: [],
  expired: [],
};

/** Whether a trip in `from` may be set to `to` by a client. */
export const mayMove = (from: string, to: TripStatus) =>
  from === to || (NEXT[from as TripStatus] ?? []).includes(to);

/** The SDKs' travel modes; truck and motorbike are routed as car (the road graph has no truck profile). */
export const TRIP_MODES = ["car", "foot", "bike", "truck", "motorbike"] as const;
export type TripMode = (typeof TRIP_MODES)[number];
export const routedMode = (mode: string): Mode => (mode === "foot" || mode === "bike" ? mode : "car");

/** Default minutes before arrival that make user.approaching_trip_destination. */
export const DEFAULT_APPROACHING_MINUTES = 5;
/** Meters around a destination without a geofence (an address, a point) that count as arrived. */
export const DEFAULT_ARRIVAL_RADIUS_M = 100;
/** Hours after which a trip that has not ended becomes expired (TRIP_EXPIRY_HOURS). */
export const DEFAULT_EXPIRY_HOURS = 24;

/** Speeds for the ETA where no road is imported: the straight line at the mode's usual pace. */
const STRAIGHT_KMH: Record<Mode, number> = { car: 40, bike: 15, foot: 5 };

/** Meters and minutes to a destination, and how they were found. */
export interface Eta {
  distance: number;
  duration: number;
  source: "road" | "straight_line";
}

/** A road ETA computed before the tracking transaction, for one destination and mode. */
export interface EtaHint extends Eta {
  to: Position;
  mode: Mode;
}

export function straightLineEta(from: Position, to: Position, mode: Mode): Eta {
  const distance = Math.round(haversine(from[0], from[1], to[0], to[1]));
  return { distance, duration: round1((distance / 1000 / STRAIGHT_KMH[mode]) * 60), source: "straight_line" };
}

export const round1 = (x: number) => Math.round(x * 10) / 10;

/** A leg as stored in the trip's `legs` (its wire form, with what progress needs). */
export interface TripLeg {
  _id: string;
  status: "pending" | "started" | "approaching" | "arrived" | "completed" | "canceled" | "expired";
  destination: {
    type: "geofence" | "address" | "coordinates";
    source: { geofence?: string; data: unknown };
    location: { type: "Point"; coordinates: Position };
    arrivalRadius?: number;
  };
  /** minutes at the leg's destination before the next leg starts */
  stopDuration?: number;
  metadata?: Record<string, unknown>;
  eta?: { distance: number; duration: number };
  arrivedAt?: string;
  createdAt: string;
  updatedAt: string;
}

export const legsOf = (trip: Pick<StoredTrip, "legs">): TripLeg[] =>
  Array.isArray(trip.legs) ? (trip.legs as TripLeg[]) : [];

const LEG_DONE = new Set(["completed", "canceled", "expired"]);

/** The leg being travelled: the first not completed, canceled or expired (-1: none). */
export const currentLegIndex = (legs: readonly TripLeg[]) => legs.findIndex((l) => !LEG_DONE.has(l.status));

/** Where a trip or leg goes, resolved before the transaction (a geofence's center, an address's point). */
export interface Destination {
  geofenceId: string | null;
  tag: string | null;
  externalId: string | null;
  latitude: number;
  longitude: number;
  /** meters, for destinations without a geofence */
  arrivalRadius: number | null;
}

/** The trip's destination columns for a destination (none: no destination). */
export const destinationColumns = (d: Destination | null) => ({
  destinationGeofenceId: d?.geofenceId ?? null,
  destinationGeofenceTag: d?.tag ?? null,
  destinationGeofenceExternalId: d?.externalId ?? null,
  destinationLatitude: d?.latitude ?? null,
  destinationLongitude: d?.longitude ?? null,
  arrivalRadius: d ? (d.geofenceId ? null : (d.arrivalRadius ?? DEFAULT_ARRIVAL_RADIUS_M)) : null,
});
/** A trip with its destination fields set to a leg's (the trip's destination is its current leg's). */
export function aimedAt(trip: Omit<StoredTrip, "seq">, leg: TripLeg): Omit<StoredTrip, "seq"> {
  const [lng, lat] = leg.destination.location.coordinates;
  const data = leg.destination.source.data as { tag?: string; externalId?: string } | undefined;
  const geofence = leg.destination.type === "geofence";
  return {
    ...trip,
    ...destinationColumns({
      geofenceId: geofence ? (leg.destination.source.geofence ?? null) : null,
      tag: geofence ? (data?.tag ?? null) : null,
      externalId: geofence ? (data?.externalId ?? null) : null,
      latitude: lat,
      longitude: lng,
      arrivalRadius: leg.destination.arrivalRadius ?? null,
    }),
  };
}

/** Minutes the ETA runs behind the scheduled arrival (0: on time), from `at`. */
export function delayOf(scheduledArrivalAt: Date | null, at: Date, etaMinutes: number | null): number | null {
  if (!scheduledArrivalAt || etaMinutes === null) return null;
  const late = (at.getTime() + etaMinutes * 60_000 - scheduledArrivalAt.getTime()) / 60_000;
  return late > 0 ? round1(late) : 0;
}

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);

/** The trip's wire form (Radar's trip object; `locations` only when asked for). */
export function serializeTrip(t: StoredTrip | Omit<StoredTrip, "seq">, locations?: unknown[]) {
  const legs = legsOf(t);
  const hasDestination = t.destinationLatitude !== null && t.destinationLongitude !== null;
  return {
    _id: t.id,
    live: t.live,
    externalId: t.externalId,
    ...(t.userId !== null && { userId: t.userId }),
    ...(t.deviceId !== null && { deviceId: t.deviceId }),
    ...(t.metadata !== null && { metadata: t.metadata }),
    mode: t.mode,
    status: t.status,
    ...(t.destinationGeofenceTag !== null && { destinationGeofenceTag: t.destinationGeofenceTag }),
    ...(t.destinationGeofenceExternalId !== null && {
      destinationGeofenceExternalId: t.destinationGeofenceExternalId,
    }),
    ...(t.destinationGeofenceId !== null && { destinationGeofenceId: t.destinationGeofenceId }),
    // Exactly two numbers: Radar's iOS SDK reads no other shape.
    ...(hasDestination && {
      destinationLocation: { type: "Point", coordinates: [t.destinationLongitude!, t.destinationLatitude!] },
    }),
    ...(t.arrivalRadius !== null && { arrivalRadius: t.arrivalRadius }),
    approachingThreshold: t.approachingThreshold,
    ...(t.etaDuration !== null && {
      eta: { distance: t.etaDistance, duration: t.etaDuration, source: t.etaSource },
    }),
    ...(t.scheduledArrivalAt && { scheduledArrivalAt: t.scheduledArrivalAt.toISOString() }),
    ...(t.delayMinutes !== null && {
      delay: { delayed: t.delayMinutes > 0, scheduledArrivalTimeDelay: t.delayMinutes },
    }),
    ...(legs.length && { legs: legs.map(({ arrivedAt: _a, ...l }) => l) }),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    startedAt: iso(t.startedAt),
    endedAt: iso(t.endedAt),
    expiresAt: t.expiresAt.toISOString(),
    ...(locations && { locations }),
  };
}

export type WireTrip = ReturnType<typeof serializeTrip>;
