import { type TripStore, UNENDED_STATUSES } from "../../storage/trips";
import { prisma } from "../client";
import { dateWindow } from "../../storage/paging";
import type { WriteLock } from "./common";

export function tripStore(lock: WriteLock): Omit<TripStore, "activeDestination"> {
  return {
    list: (f, take) => {
      const sortBy = f.sortBy ?? "createdAt";
      return prisma.trip.findMany({
        where: {
          live: f.live,
          createdAt: dateWindow(f.createdBefore, f.createdAfter),
          ...(f.statuses && { status: { in: [...f.statuses] } }),
          ...(f.destinationGeofenceTag !== undefined && { destinationGeofenceTag: f.destinationGeofenceTag }),
          ...(f.destinationGeofenceExternalId !== undefined && {
            destinationGeofenceExternalId: f.destinationGeofenceExternalId,
          }),
          ...(f.externalId !== undefined && { externalId: f.externalId }),
          ...(f.userId !== undefined && { userId: f.userId }),
          ...(f.owners && {
            OR: [
              { userId: { in: [...f.owners.userIds] } },
              { deviceId: { in: [...f.owners.deviceIds] }, userId: null },
            ],
          }),
          ...(f.delayed !== undefined &&
            (f.delayed ? { delayMinutes: { gt: 0 } } : { NOT: { delayMinutes: { gt: 0 } } })),
        },
        orderBy: [
          sortBy === "scheduledArrivalAt"
            ? { scheduledArrivalAt: { sort: "desc", nulls: "last" } }
            : { [sortBy]: "desc" },
          { id: "desc" },
        ],
        take,
      });
    },
    byRef: (live, ref) => prisma.trip.findFirst({ where: { live, ...ref } }),
    async delete(live, ref) {
      const { count } = await lock(() => prisma.trip.deleteMany({ where: { live, ...ref } }));
      return count > 0;
    },
    async expire(now, take) {
      const due = await prisma.trip.findMany({
        where: { status: { in: [...UNENDED_STATUSES] }, expiresAt: { lt: now } },
        select: { seq: true },
        take,
      });
      if (!due.length) return 0;
      const { count } = await lock(() =>
        prisma.trip.updateMany({
          where: {
            seq: { in: due.map((t) => t.seq) },
            status: { in: [...UNENDED_STATUSES] },
            expiresAt: { lt: now },
          },
          data: { status: "expired", endedAt: now, updatedAt: now },
        }),
      );
      return count;
    },
  };
}
