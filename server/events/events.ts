import { isConversionType } from "../../lib/types";
import type { z } from "zod";
import type { AuthKey } from "../auth/keys";
import { pageOfWholeInstants } from "../storage/paging";
import type { StoredEvent as Event } from "../storage/events";
import { storage } from "../storage";
import { ApiError, notFound } from "../errors";
import { type WirePlace, placeById, serializePlace } from "../geodata/places";
import { CONFIDENCES, VERIFICATIONS, type listEventsSchema, type verifySchema } from "./schema";

export async function listEvents(key: AuthKey, q: z.output<typeof listEventsSchema>) {
  // A user named by its _id: an unknown one has no events (not an error: it may be deleted).
  let userSeq: number | undefined;
  if (q.userId !== undefined) {
    const seq = await storage().users.seqById(key.live, q.userId);
    if (seq === null) return { events: [], hasMore: false };
    userSeq = seq;
  }
  const { items, hasMore } = await pageOfWholeInstants(
    (w, take) =>
      storage().events.list(
        {
          live: key.live,
          createdBefore: w.before,
          createdAfter: w.after,
          verifications: q.verification?.map((v) => VERIFICATIONS[v]),
          types: q.types,
          kind: q.kind,
          confidences: q.confidence?.map((c) => CONFIDENCES[c]),
          userSeq,
          geofenceId: q.geofenceId,
        },
        take,
      ),
    { before: q.createdBefore, after: q.createdAfter },
    q.limit,
    (e) => e.createdAt,
  );
  return { events: items, hasMore };
}

export async function getEvent(key: AuthKey, id: string): Promise<Event> {
  const event = await storage().events.byId(key.live, id);
  if (!event) throw notFound(`event ${id}`);
  return event;
}

/**
 * Sets an event's verification (any of 1, -1, 0 from any other) and records who did it when.
 * The confidence model reads current verifications, so a change of mind is counted once.
 */
export async function verifyEvent(
  key: AuthKey,
  id: string,
  input: z.output<typeof verifySchema>,
): Promise<Event> {
  const event = await getEvent(key, id);
  if (isConversionType(event.type)) {
    throw new ApiError(
      "invalid_input",
      `${event.type} is a conversion: conversions are logged by the app, not decided from locations, and are not verified`,
      "verification",
    );
  }
  if (input.verifiedPlaceId !== undefined && event.type !== "user.entered_place") {
    throw new ApiError(
      "invalid_input",
      `verifiedPlaceId: only user.entered_place events take a verified place; this event is ${event.type}`,
      "verifiedPlaceId",
    );
  }
  let verifiedPlace: WirePlace | undefined;
  if (input.verifiedPlaceId !== undefined) {
    const place = placeById(input.verifiedPlaceId);
    if (!place) {
      throw new ApiError(
        "invalid_input",
        `verifiedPlaceId: no imported place has the id ${input.verifiedPlaceId} (see GET /v1/search/places)`,
        "verifiedPlaceId",
      );
    }
    verifiedPlace = serializePlace(place);
  }
  const verified = await storage().events.verify(event.seq, {
    verification: input.verification,
    at: new Date(),
    keyId: key.id,
    ...(verifiedPlace !== undefined && { place: { id: input.verifiedPlaceId!, wire: verifiedPlace } }),
  });
  // Deleted meanwhile (another request, a user's erasure).
  if (!verified) throw notFound(`event ${id}`);
  return verified;
}

export async function deleteEvent(key: AuthKey, id: string): Promise<void> {
  const event = await getEvent(key, id);
  if (!(await storage().events.delete(event.seq))) throw notFound(`event ${id}`);
}
