import type { GeofenceFields } from "../../storage/geofence-records";
import type { UserStore } from "../../storage/users";
import { containsText, prisma } from "../client";
import { dateWindow } from "../../storage/paging";
import { tableOrder } from "./common";

const userWhere = (live: boolean, search?: string) => ({
  live,
  ...(search && {
    OR: [
      { userId: containsText(search) },
      { deviceId: containsText(search) },
      { description: containsText(search) },
    ],
  }),
});

/** User reads (tracking writes users through each adapter's own TrackingStore). */
export function userStore(): Pick<
  UserStore,
  "locations" | "seqById" | "list" | "matching" | "bySeqs" | "byOwners" | "geofencesOf" | "table"
> {
  return {
    list: (f, take) => {
      const b = f.bounds;
      return prisma.user.findMany({
        where: {
          live: f.live,
          updatedAt: dateWindow(f.updatedBefore, f.updatedAfter),
          ...(b && {
            latitude: { gte: b.south, lte: b.north },
            // West above east: the view crosses the antimeridian.
            longitude: b.west <= b.east ? { gte: b.west, lte: b.east } : undefined,
            ...(b.west > b.east && { OR: [{ longitude: { gte: b.west } }, { longitude: { lte: b.east } }] }),
          }),
        },
        orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
        take,
      });
    },
    matching: (live, ref) =>
      prisma.user.findMany({
        where: { live, OR: [{ id: ref }, { userId: ref }, { deviceId: ref }] },
        orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      }),
    bySeqs: (seqs) => prisma.user.findMany({ where: { seq: { in: [...seqs] } } }),
    byOwners: (live, userIds, deviceIds) =>
      prisma.user.findMany({
        where: {
          live,
          OR: [{ userId: { in: [...userIds] } }, { deviceId: { in: [...deviceIds] }, userId: null }],
        },
      }),
    async geofencesOf(userSeqs) {
      if (!userSeqs.length) return [];
      const memberships = await prisma.userGeofence.findMany({ where: { userSeq: { in: [...userSeqs] } } });
      const geofences = memberships.length
        ? await prisma.geofence.findMany({
            where: { seq: { in: [...new Set(memberships.map((m) => m.geofenceSeq))] }, enabled: true },
          })
        : [];
      const bySeq = new Map(geofences.map((g) => [g.seq, g as GeofenceFields]));
      return memberships.flatMap((m) => {
        const geofence = bySeq.get(m.geofenceSeq);
        return geofence ? [{ userSeq: m.userSeq, geofence }] : [];
      });
    },
    async table(live, q) {
      const where = userWhere(live, q.search);
      const [rows, total] = await Promise.all([
        prisma.user.findMany({
          where,
          orderBy: tableOrder(q.sort, q.dir, ["userId", "description"]),
          skip: q.skip,
          take: q.take,
        }),
        prisma.user.count({ where }),
      ]);
      return { rows, total };
    },
    seqById: async (live, id) =>
      (await prisma.user.findFirst({ where: { id, live }, select: { seq: true } }))?.seq ?? null,
    locations: (userSeq, limit, window) =>
      prisma.userLocation.findMany({
        where: { userSeq, ...(window && { recordedAt: { gte: window.from, lte: window.to } }) },
        orderBy: [{ recordedAt: "desc" }, { seq: "desc" }],
        take: limit,
        select: { latitude: true, longitude: true, accuracy: true, recordedAt: true },
      }),
  };
}
