import type { EventStore } from "../../storage/events";
import { Prisma, prisma } from "../client";
import { dateWindow } from "../../storage/paging";
import { isRecordNotFound } from "../errors";
import type { WriteLock } from "./common";

export function eventStore(lock: WriteLock): Omit<EventStore, "verificationCounts" | "conversionsPerDay"> {
  return {
    list: (f, take) =>
      prisma.event.findMany({
        where: {
          live: f.live,
          createdAt: dateWindow(f.createdBefore, f.createdAfter),
          ...(f.verifications && { verification: { in: [...f.verifications] } }),
          ...((f.types || f.kind) && {
            type: {
              ...(f.types && { in: [...f.types] }),
              ...(f.kind === "location" && { startsWith: "user." }),
              ...(f.kind === "conversion" && { not: { startsWith: "user." } }),
            },
          }),
          // Trip events are not verdicts on places: the review queue ("location") leaves them out.
          ...(f.kind === "location" && { NOT: { type: { contains: "_trip" } } }),
          ...(f.confidences && { confidence: { in: [...f.confidences] } }),
          ...(f.userSeq !== undefined && { userSeq: f.userSeq }),
          ...(f.geofenceId !== undefined && { geofenceId: f.geofenceId }),
        },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take,
      }),
    byId: (live, id) => prisma.event.findFirst({ where: { id, live } }),
    verify: (seq, v) =>
      lock(async () => {
        try {
          const [updated] = await prisma.$transaction([
            prisma.event.update({
              where: { seq },
              data: {
                verification: v.verification,
                verifiedAt: v.at,
                ...(v.place && {
                  verifiedPlaceId: v.place.id,
                  verifiedPlace: v.place.wire as Prisma.InputJsonValue,
                }),
              },
            }),
            prisma.eventVerification.create({
              data: {
                eventSeq: seq,
                verification: v.verification,
                verifiedPlaceId: v.place?.id ?? null,
                keyId: v.keyId,
                createdAt: v.at,
              },
            }),
          ]);
          return updated;
        } catch (e) {
          // Deleted since it was read: there is nothing to verify.
          if (isRecordNotFound(e)) return null;
          throw e;
        }
      }),
    async delete(seq) {
      // The event first: its row lock makes a verification under way finish before (and its
      // record is then deleted too) or find no event; deleting the records first left a
      // verification committed in between without its event.
      const [removed] = await lock(() =>
        prisma.$transaction([
          prisma.event.deleteMany({ where: { seq } }),
          prisma.eventVerification.deleteMany({ where: { eventSeq: seq } }),
        ]),
      );
      // Concurrent deletes of one event: the row lock makes all but one find nothing to remove.
      return removed.count > 0;
    },
  };
}
