import { ApiError } from "../../errors";
import { searchText } from "../../geocode/forward";
import type { Clock } from "../clock";
import { geofenceDestination } from "./hints";
import { type TripLeg } from "./model";
import { type Destination } from "./start";
import type { LegInput } from "./schema";

export async function destinationOf(
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
export async function legsFrom(live: boolean, legs: LegInput[], at: Date, clock: Clock): Promise<TripLeg[]> {
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
