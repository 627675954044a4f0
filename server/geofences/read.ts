import type { AuthKey } from "../auth/keys";
import { containsText, prisma } from "../db/client";
import { dateWindow, page } from "../db/paging";
import { withWriteLock } from "../db/write-lock";
import { notFound } from "../http/errors";
import type { z } from "zod";
import type { listQuerySchema } from "./schema";
import { type TableQuery, orderOf, pageOf } from "../http/table";

export type GeofenceRef = { id: string } | { tag: string; externalId: string };

const whereRef = (key: AuthKey, ref: GeofenceRef) =>
  "id" in ref ? { id: ref.id, live: key.live } : { live: key.live, tag: ref.tag, externalId: ref.externalId };

const describe = (ref: GeofenceRef) =>
  "id" in ref ? `geofence ${ref.id}` : `geofence with tag "${ref.tag}" and externalId "${ref.externalId}"`;

export async function getGeofence(key: AuthKey, ref: GeofenceRef) {
  const found = await prisma.geofence.findFirst({ where: whereRef(key, ref) });
  if (!found) throw notFound(describe(ref));
  return found;
}

export function findGeofenceById(key: AuthKey, id: string) {
  return prisma.geofence.findFirst({ where: { id, live: key.live } });
}

export async function deleteGeofence(key: AuthKey, ref: GeofenceRef) {
  // A trigger takes the geofence's users out of it in the same statement.
  const { count } = await withWriteLock(() => prisma.geofence.deleteMany({ where: whereRef(key, ref) }));
  if (count === 0) throw notFound(describe(ref));
}

/** Geofences whose description, tag or external ID contains the text, ignoring case. */
const wordsMatch = (text: string) => ({
  OR: [{ description: containsText(text) }, { tag: containsText(text) }, { externalId: containsText(text) }],
});

/** Newest first; ties on createdAt cannot happen (monotonicNow) but _id orders them anyway. */
export async function listGeofences(key: AuthKey, q: z.output<typeof listQuerySchema>) {
  const b = q.bounds;
  // A box meets the view when it overlaps in latitude and in longitude (both sides of the
  // antimeridian when the view crosses it).
  const longitude = (west: number, east: number) => ({ minLng: { lte: east }, maxLng: { gte: west } });
  const rows = await prisma.geofence.findMany({
    where: {
      live: key.live,
      ...(q.tag !== undefined && { tag: q.tag }),
      createdAt: dateWindow(q.createdBefore, q.createdAfter),
      AND: [
        b
          ? {
              minLat: { lte: b.north },
              maxLat: { gte: b.south },
              ...(b.west <= b.east
                ? longitude(b.west, b.east)
                : { OR: [longitude(b.west, 180), longitude(-180, b.east)] }),
            }
          : {},
        q.search ? wordsMatch(q.search) : {},
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
  });
  const { items, hasMore } = page(rows, q.limit);
  return { geofences: items, hasMore };
}

export const GEOFENCE_SORTS = [
  "createdAt",
  "updatedAt",
  "description",
  "tag",
  "externalId",
  "type",
  "enabled",
] as const;

/** The geofences table: searched (description, tag, external ID), sorted and paged by the database. */
export async function geofenceTable(key: AuthKey, q: TableQuery<(typeof GEOFENCE_SORTS)[number]>) {
  const where = {
    live: key.live,
    ...(q.search && wordsMatch(q.search)),
  };
  const [rows, total] = await Promise.all([
    prisma.geofence.findMany({
      where,
      orderBy: [orderOf(q, ["tag", "externalId"]), { seq: q.dir }],
      ...pageOf(q),
    }),
    prisma.geofence.count({ where }),
  ]);
  return { rows, total };
}
