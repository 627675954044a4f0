import type { z } from "zod";
import type { AuthKey } from "../auth/keys";
import { type Event, prisma } from "../db/client";
import { dateWindow, page } from "../db/paging";
import { withWriteLock } from "../db/write-lock";
import { ApiError, notFound } from "../http/errors";
import { type WirePlace, placeById, serializePlace } from "../geodata/places";
import { CONFIDENCES, VERIFICATIONS, type listEventsSchema, type verifySchema } from "./schema";

export async function listEvents(key: AuthKey, q: z.output<typeof listEventsSchema>) {
  // A user named by its _id: an unknown one has no events (not an error: it may be deleted).
  let userSeq: number | undefined;
  if (q.userId !== undefined) {
    const user = await prisma.user.findFirst({
      where: { id: q.userId, live: key.live },
      select: { seq: true },
    });
    if (!user) return { events: [], hasMore: false };
    userSeq = user.seq;
  }
  const rows = await prisma.event.findMany({
    where: {
      live: key.live,
      createdAt: dateWindow(q.createdBefore, q.createdAfter),
      ...(q.verification && { verification: { in: q.verification.map((v) => VERIFICATIONS[v]) } }),
      ...(q.types && { type: { in: [...q.types] } }),
      ...(q.confidence && { confidence: { in: q.confidence.map((c) => CONFIDENCES[c]) } }),
      ...(userSeq !== undefined && { userSeq }),
      ...(q.geofenceId !== undefined && { geofenceId: q.geofenceId }),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
  });
  const { items, hasMore } = page(rows, q.limit);
  return { events: items, hasMore };
}

export async function getEvent(key: AuthKey, id: string): Promise<Event> {
  const event = await prisma.event.findFirst({ where: { id, live: key.live } });
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
  const now = new Date();
  const [updated] = await withWriteLock(() =>
    prisma.$transaction([
      prisma.event.update({
        where: { seq: event.seq },
        data: {
          verification: input.verification,
          verifiedAt: now,
          ...(verifiedPlace !== undefined && { verifiedPlaceId: input.verifiedPlaceId, verifiedPlace }),
        },
      }),
      prisma.eventVerification.create({
        data: {
          eventSeq: event.seq,
          verification: input.verification,
          verifiedPlaceId: input.verifiedPlaceId ?? null,
          keyId: key.id,
          createdAt: now,
        },
      }),
    ]),
  );
  return updated;
}

export async function deleteEvent(key: AuthKey, id: string): Promise<void> {
  const event = await getEvent(key, id);
  await withWriteLock(() =>
    prisma.$transaction([
      prisma.eventVerification.deleteMany({ where: { eventSeq: event.seq } }),
      prisma.event.delete({ where: { seq: event.seq } }),
    ]),
  );
}
