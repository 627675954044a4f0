import { storage } from "../../storage";
import type { TrackInput } from "../schema";
import { etaBetween } from "./eta";
import { type EtaHint, routedMode } from "./model";
import type { TripOptions } from "./options";
import { type Destination, ownerOf } from "./start";

/**
 * What tracking learns of the user's trip before its transaction (docs/trips.md#eta): whether the
 * user is on one, the destination the track body's tripOptions name, and the road ETA to the
 * destination, computed by a routing worker while no transaction waits.
 */
export interface TrackHints {
  /** the user was on a trip (read again, locked, in the transaction) */
  active: boolean;
  options: TripOptions | null;
  /** where the tripOptions' geofence is (null: none named, or none found) */
  destination: Destination | null;
  eta: EtaHint | null;
}

export const NO_HINTS: TrackHints = { active: false, options: null, destination: null, eta: null };

/** The destination of a geofence named by _id or by tag and externalId; null when none is found. */
export async function geofenceDestination(
  live: boolean,
  ref: { id: string } | { tag: string; externalId: string },
): Promise<Destination | null> {
  const g = await storage().geofences.byRef(live, ref);
  if (!g) return null;
  return {
    geofenceId: g.id,
    tag: g.tag,
    externalId: g.externalId,
    latitude: g.centerLat,
    longitude: g.centerLng,
    arrivalRadius: null,
  };
}

export async function tripHints(live: boolean, input: TrackInput): Promise<TrackHints> {
  const options = input.tripOptions ?? null;
  const active = await storage().trips.activeDestination(live, ownerOf(input.userId ?? null, input.deviceId));
  if (!active && !options) return NO_HINTS;
  let destination: Destination | null = null;
  // The SDKs send the same tripOptions with every update: the geofence is looked up only when
  // they name another trip or another destination than the one the user is on.
  const same =
    active &&
    options?.externalId === active.externalId &&
    (options.destinationGeofenceId
      ? options.destinationGeofenceId === active.geofenceId
      : options.destinationGeofenceTag === (active.tag ?? undefined) &&
        options.destinationGeofenceExternalId === (active.geofenceExternalId ?? undefined));
  if (same) {
    // unchanged: the trip keeps its destination
  } else if (options?.destinationGeofenceId)
    destination = await geofenceDestination(live, { id: options.destinationGeofenceId });
  else if (options?.destinationGeofenceTag && options.destinationGeofenceExternalId) {
    destination = await geofenceDestination(live, {
      tag: options.destinationGeofenceTag,
      externalId: options.destinationGeofenceExternalId,
    });
  }
  // The ETA to where the user will be headed after the update: the named destination, else the trip's.
  const trip =
    active && active.latitude !== null && active.longitude !== null
      ? { latitude: active.latitude, longitude: active.longitude }
      : null;
  const to = destination ?? trip;
  const mode = routedMode(options?.mode ?? active?.mode ?? "car");
  const eta = to
    ? await etaBetween([input.longitude, input.latitude], [to.longitude, to.latitude], mode)
    : null;
  return { active: !!active, options, destination, eta };
}
