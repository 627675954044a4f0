import type { GeofenceRef, GeofenceStore } from "../../storage/geofences";
import type { GeofenceColumns, StoredGeofence } from "../../storage/geofence-records";
import { Prisma, containsText, prisma } from "../client";
import { dateWindow } from "../../storage/paging";
import { isRefusedByTrigger, isUniqueViolation } from "../errors";
import { newGeofenceStamp, nextVersion } from "../geofence-batch";
import { databaseEngine } from "../../config/database-url";
import { type MetadataFilter, storedForms } from "../../storage/metadata-filter";
import { type WriteLock, tableOrder } from "./common";

const whereRef = (live: boolean, ref: GeofenceRef) =>
  "id" in ref ? { id: ref.id, live } : { live, tag: ref.tag, externalId: ref.externalId };
/** Geofences whose description, tag or external ID contains the text, ignoring case. */
const wordsMatch = (text: string) => ({
  OR: [{ description: containsText(text) }, { tag: containsText(text) }, { externalId: containsText(text) }],
});
// A box meets the view when it overlaps in latitude and in longitude (both sides of the
// antimeridian when the view crosses it).
const longitude = (west: number, east: number) => ({ minLng: { lte: east }, maxLng: { gte: west } });

/** A geofence write's columns as Prisma stores them (no metadata or userIds: SQL NULL). */
const geofenceData = (c: GeofenceColumns) => ({
  ...c,
  metadata: c.metadata ?? Prisma.DbNull,
  userIds: c.userIds ?? Prisma.DbNull,
  isochrone: c.isochrone ? { ...c.isochrone } : Prisma.DbNull,
});
/** A new geofence's row. */
const newGeofence = (live: boolean, c: GeofenceColumns) => ({
  ...newGeofenceStamp(live),
  ...geofenceData(c),
});
type Identified = GeofenceColumns & { tag: string; externalId: string };
const identity = (live: boolean, c: Identified) => ({
  live_tag_externalId: { live, tag: c.tag, externalId: c.externalId },
});
/**
 * Replaces the geofence with the columns' tag and externalId or creates it, in one statement,
 * given the version stored now (null: none). It was created when its createdAt is the time
 * given to the new row (each is unique).
 */
const putGeofence = async (
  db: Pick<typeof prisma, "geofence">,
  live: boolean,
  c: Identified,
  stored: Date | null,
) => {
  const create = newGeofence(live, c);
  const geofence = await db.geofence.upsert({
    where: identity(live, c),
    create,
    update: { ...geofenceData(c), updatedAt: stored ? nextVersion(stored) : create.createdAt },
  });
  return { geofence, replaced: geofence.createdAt.getTime() !== create.createdAt.getTime() };
};
/**
 * Runs a replacement again, from the versions stored then, when the version trigger refused it:
 * another write to one of its geofences landed between reading the version and writing. An
 * attempt fails only when another write landed, so n replacements sent at once all land within
 * n attempts each; the bound only stops one starving under a stream of writes.
 */
const PUT_ATTEMPTS = 32;
const retryRefused = async <T>(write: () => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      if (!isRefusedByTrigger(e) || attempt >= PUT_ATTEMPTS) throw e;
    }
  }
};

/** Geofence writes: each under the write lock, conditional on the version it was made from. */
export function geofenceWrites(lock: WriteLock): Pick<GeofenceStore, "create" | "put" | "update" | "delete"> {
  return {
    async create(live, c) {
      try {
        return await lock(() => prisma.geofence.create({ data: newGeofence(live, c) }));
      } catch (e) {
        if (isUniqueViolation(e)) return null;
        throw e;
      }
    },
    put: (live, c) =>
      lock(() =>
        retryRefused(async () => {
          const stored = await prisma.geofence.findUnique({
            where: identity(live, c),
            select: { updatedAt: true },
          });
          return putGeofence(prisma, live, c, stored?.updatedAt ?? null);
        }),
      ),
    update: (seq, version, c) =>
      lock(async () => {
        let count: number;
        try {
          // Only the version the change was made from is changed: another app process may
          // have changed it since.
          ({ count } = await prisma.geofence.updateMany({
            where: { seq, updatedAt: version },
            data: { ...geofenceData(c), updatedAt: nextVersion(version) },
          }));
        } catch (e) {
          if (isUniqueViolation(e)) return { status: "taken" as const };
          throw e;
        }
        const geofence = await prisma.geofence.findUnique({ where: { seq } });
        if (!geofence) return { status: "gone" as const };
        return { status: count ? ("updated" as const) : ("changed" as const), geofence };
      }),
    async delete(live, ref) {
      // A trigger takes the geofence's users out of it in the same statement.
      const { count } = await lock(() => prisma.geofence.deleteMany({ where: whereRef(live, ref) }));
      return count > 0;
    },
  };
}

/** Geofence reads: by reference, in pages, and the dashboard's table. */
/** The isochrone geofences, in pages by seq (server/planner/isochrone-geofences.ts draws them again). */
export const isochrones: GeofenceStore["isochrones"] = (after, take) =>
  prisma.geofence.findMany({
    where: { type: "isochrone", seq: { gt: after } },
    orderBy: { seq: "asc" },
    take,
  });

/**
 * Geofences whose deleteAfter or disableAfter has come (the expiry sweep, server/geofences/expiry.ts).
 */
async function dueGeofences(now: Date, take: number) {
  // Each condition read from its own index, in that index's order. One query with both
  // (OR) ordered by seq made SQLite walk the whole table in seq order, every second, on every
  // app process, however few geofences have a schedule.
  const select = { id: true, live: true, deleteAfter: true } as const;
  const [deleting, disabling] = await Promise.all([
    prisma.geofence.findMany({
      where: { deleteAfter: { lte: now } },
      select,
      orderBy: { deleteAfter: "asc" },
      take,
    }),
    prisma.geofence.findMany({
      where: { enabled: true, disableAfter: { lte: now } },
      select,
      orderBy: { disableAfter: "asc" },
      take,
    }),
  ]);
  const seen = new Set(deleting.map((g) => g.id));
  return [...deleting, ...disabling.filter((g) => !seen.has(g.id))].slice(0, take).map((g) => ({
    id: g.id,
    live: g.live,
    deleteDue: !!g.deleteAfter && g.deleteAfter <= now,
  }));
}

export function geofenceReads(): Pick<
  GeofenceStore,
  "byRefs" | "pageAfter" | "byRef" | "list" | "table" | "due"
> {
  return {
    due: dueGeofences,
    async byRefs(live, refs) {
      const found: StoredGeofence[] = [];
      // At most 401 parameters per statement: Prisma holds SQLite to 999.
      for (let i = 0; i < refs.length; i += 200) {
        const part = refs.slice(i, i + 200);
        const ids = part.flatMap((r) => ("id" in r ? [r.id] : []));
        const pairs = part.flatMap((r) => ("id" in r ? [] : [{ tag: r.tag, externalId: r.externalId }]));
        found.push(
          ...(await prisma.geofence.findMany({
            where: { live, OR: [...(ids.length ? [{ id: { in: ids } }] : []), ...pairs] },
          })),
        );
      }
      return found;
    },
    pageAfter: (live, after, take, tag) =>
      prisma.geofence.findMany({
        where: { live, seq: { gt: after }, ...(tag !== undefined && { tag }) },
        orderBy: { seq: "asc" },
        take,
      }),
    byRef: (live, ref) => prisma.geofence.findFirst({ where: whereRef(live, ref) }),
    list: (f, take) => {
      const b = f.bounds;
      return prisma.geofence.findMany({
        where: {
          live: f.live,
          ...(f.tag !== undefined && { tag: f.tag }),
          ...(f.externalId !== undefined && { externalId: f.externalId }),
          createdAt: dateWindow(f.createdBefore, f.createdAfter),
          ...((f.updatedBefore || f.updatedAfter) && {
            updatedAt: dateWindow(f.updatedBefore, f.updatedAfter),
          }),
          AND: [
            ...metadataWhere(f.metadata),
            b
              ? {
                  minLat: { lte: b.north },
                  maxLat: { gte: b.south },
                  ...(b.west <= b.east
                    ? longitude(b.west, b.east)
                    : { OR: [longitude(b.west, 180), longitude(-180, b.east)] }),
                }
              : {},
            f.search ? wordsMatch(f.search) : {},
          ],
        },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take,
      });
    },
    async table(live, q) {
      const where = { live, ...(q.search && wordsMatch(q.search)) };
      const [rows, total] = await Promise.all([
        prisma.geofence.findMany({
          where,
          orderBy: tableOrder(q.sort, q.dir, ["tag", "externalId"]),
          skip: q.skip,
          take: q.take,
        }),
        prisma.geofence.count({ where }),
      ]);
      return { rows, total };
    },
  };
}

/**
 * Radar's metadata[key]=value filters as Prisma JSON filters: each key's value stored as the text
 * or the number or boolean it reads as (../storage/metadata-filter.ts). Prisma names a JSON path
 * as a list of keys on PostgreSQL and as a path expression on SQLite.
 */
function metadataWhere(filter: MetadataFilter | undefined) {
  if (!filter) return [];
  const path = (key: string) => (databaseEngine() === "postgresql" ? [key] : `$."${key}"`);
  return Object.entries(filter).map(([key, text]) => ({
    OR: storedForms(text).map((value) => ({ metadata: { path: path(key), equals: value } }) as never),
  }));
}
