import type { AuthKey } from "../../auth/keys";
import { serializeEvent } from "../serialize";
import { mayRead, sentEvent } from "../visible";
import { serializeTrip } from "./model";
import { storage } from "../../storage";
import { type Window, page, pageOfWholeInstants } from "../../storage/paging";
import * as commands from "./commands";
import type { TripAnswer, TripCaller } from "./access";
import * as legCommands from "./leg-commands";
import type { CreateTripInput, UpdateTripInput } from "./schema";
import type { z } from "zod";
import type { listTripsSchema } from "./schema";

/**
 * The trip routes' answers in wire form: {trip, events}, as the SDKs read them. To a publishable
 * key that does not name the trip user's device (the SDKs' trip calls send the userId alone),
 * nothing derived from the user's last fix: no ETA or delay, and events without their location
 * (server/tracking/visible.ts).
 */
function answered(caller: TripCaller, { trip, events, owned }: TripAnswer) {
  if (mayRead(caller.key, owned)) return { trip: serializeTrip(trip), events: events.map(serializeEvent) };
  const { eta: _eta, delay: _delay, ...wire } = serializeTrip(trip);
  return { trip: wire, events: events.map((e) => sentEvent(e, caller.claimed)) };
}

const caller = (key: AuthKey, claimed: TripCaller["claimed"] = {}): TripCaller => ({
  key,
  claimed,
});

export const createTrip = async (key: AuthKey, body: CreateTripInput) =>
  answered(caller(key, body), await commands.createTrip(caller(key, body), body));
export const updateTrip = async (key: AuthKey, ref: string, body: UpdateTripInput) =>
  answered(caller(key, body), await commands.updateTrip(caller(key, body), ref, body));
/** `{trip, leg, events}`: the SDKs' updateTripLeg reads the leg as it is now from `leg`. */
export async function updateLeg(
  key: AuthKey,
  ref: string,
  legId: string,
  status: Parameters<typeof legCommands.updateLeg>[3],
) {
  const answer = answered(caller(key), await legCommands.updateLeg(caller(key), ref, legId, status));
  return { trip: answer.trip, leg: answer.trip.legs?.find((l) => l._id === legId), events: answer.events };
}
export const reorderLegs = async (key: AuthKey, ref: string, legs: string[]) =>
  answered(caller(key), await legCommands.reorderLegs(caller(key), ref, legs));
export const { deleteTrip, getTrip } = commands;

/**
 * Newest first; `hasMore` when more match than `limit` (default 100, at most 1,000). Sorted by
 * createdAt (the default), a page never splits trips created at one instant.
 */
export async function listTrips(key: AuthKey, q: z.output<typeof listTripsSchema>) {
  const list = (w: Window, take?: number) =>
    storage().trips.list(
      {
        live: key.live,
        statuses: q.status,
        destinationGeofenceTag: q.destinationGeofenceTag,
        destinationGeofenceExternalId: q.destinationGeofenceExternalId,
        externalId: q.externalId,
        userId: q.userId,
        createdAfter: w.after,
        createdBefore: w.before,
        delayed: q.delayed,
        sortBy: q.sortBy,
      },
      take,
    );
  const window = { before: q.createdBefore, after: q.createdAfter };
  const limit = q.limit ?? 100;
  const { items: found, hasMore } =
    (q.sortBy ?? "createdAt") === "createdAt"
      ? await pageOfWholeInstants(list, window, limit, (t) => t.createdAt)
      : page(await list(window, limit + 1), limit);
  const trips = [];
  for (const t of found)
    trips.push(serializeTrip(t, q.includeLocations ? await commands.locationsOf(t) : undefined));
  return { trips, hasMore };
}
