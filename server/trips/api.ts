import type { AuthKey } from "../auth/keys";
import { serializeEvent } from "../tracking/serialize";
import { serializeTrip } from "../tracking/trips/model";
import { storage } from "../storage";
import * as commands from "./commands";
import type { CreateTripInput, UpdateTripInput } from "./schema";
import type { z } from "zod";
import type { listTripsSchema } from "./schema";

/** The trip routes' answers in wire form: {trip, events}, as the SDKs read them. */

const answered = ({ trip, events }: commands.TripAnswer) => ({
  trip: serializeTrip(trip),
  events: events.map(serializeEvent),
});

export const createTrip = async (key: AuthKey, body: CreateTripInput) =>
  answered(await commands.createTrip(key, body));
export const updateTrip = async (key: AuthKey, ref: string, body: UpdateTripInput) =>
  answered(await commands.updateTrip(key, ref, body));
export const updateLeg = async (
  key: AuthKey,
  ref: string,
  legId: string,
  status: Parameters<typeof commands.updateLeg>[3],
) => answered(await commands.updateLeg(key, ref, legId, status));
export const reorderLegs = async (key: AuthKey, ref: string, legs: string[]) =>
  answered(await commands.reorderLegs(key, ref, legs));
export const { deleteTrip, getTrip } = commands;

/** Newest first; `hasMore` when more match than `limit` (default 100, at most 1,000). */
export async function listTrips(key: AuthKey, q: z.output<typeof listTripsSchema>) {
  const limit = q.limit ?? 100;
  const found = await storage().trips.list(
    {
      live: key.live,
      statuses: q.status,
      destinationGeofenceTag: q.destinationGeofenceTag,
      destinationGeofenceExternalId: q.destinationGeofenceExternalId,
      externalId: q.externalId,
      userId: q.userId,
      createdAfter: q.createdAfter,
      createdBefore: q.createdBefore,
      delayed: q.delayed,
      sortBy: q.sortBy,
    },
    limit + 1,
  );
  const page = found.slice(0, limit);
  const trips = [];
  for (const t of page)
    trips.push(serializeTrip(t, q.includeLocations ? await commands.locationsOf(t) : undefined));
  return { trips, hasMore: found.length > limit };
}
