import type { BeaconColumns, BeaconRef, BeaconStore, StoredBeacon } from "../../storage/beacons";
import { dateWindow } from "../../storage/paging";
import { monotonicNow, newId } from "../../storage/ids";
import { type Beacon, Prisma, prisma } from "../client";
import type { WriteLock } from "./common";
import { isUniqueViolation } from "../errors";

const whereRef = (live: boolean, ref: BeaconRef) =>
  "id" in ref ? { id: ref.id, live } : { live, tag: ref.tag, externalId: ref.externalId };

const fromPrisma = (b: Beacon): StoredBeacon => ({
  seq: b.seq,
  id: b.id,
  live: b.live,
  description: b.description,
  tag: b.tag,
  externalId: b.externalId,
  uuid: b.uuid,
  major: b.major,
  minor: b.minor,
  longitude: b.longitude,
  latitude: b.latitude,
  metadata: b.metadata as StoredBeacon["metadata"],
  enabled: b.enabled,
  createdAt: b.createdAt,
  updatedAt: b.updatedAt,
});

/** Columns as Prisma stores them (no metadata: SQL NULL). */
const data = <C extends Partial<BeaconColumns>>(c: C) => ({
  ...c,
  ...(c.metadata !== undefined && { metadata: c.metadata ?? Prisma.DbNull }),
});

/** The beacons' writes (under the engine's write lock). */
function beaconWrites(lock: WriteLock): Pick<BeaconStore, "create" | "put" | "update" | "delete"> {
  return {
    async create(live, columns) {
      const now = monotonicNow();
      try {
        const made = await lock(() =>
          prisma.beacon.create({
            data: { id: newId(now.getTime()), live, ...data(columns), createdAt: now, updatedAt: now },
          }),
        );
        return fromPrisma(made);
      } catch (e) {
        if (isUniqueViolation(e)) return null;
        throw e;
      }
    },
    async put(live, columns) {
      const now = monotonicNow();
      const made = await lock(() =>
        prisma.beacon.upsert({
          where: { live_tag_externalId: { live, tag: columns.tag, externalId: columns.externalId } },
          create: { id: newId(now.getTime()), live, ...data(columns), createdAt: now, updatedAt: now },
          update: { ...data(columns), updatedAt: now },
        }),
      );
      // Made now when its createdAt is this write's instant (each is unique).
      return { beacon: fromPrisma(made), created: made.createdAt.getTime() === now.getTime() };
    },
    async update(live, ref, columns) {
      const found = await prisma.beacon.findFirst({ where: whereRef(live, ref) });
      if (!found) return null;
      let changed: { count: number };
      try {
        changed = await lock(() =>
          prisma.beacon.updateMany({
            where: { seq: found.seq },
            data: { ...data(columns), updatedAt: monotonicNow() },
          }),
        );
      } catch (e) {
        if (isUniqueViolation(e)) return "taken";
        throw e;
      }
      if (!changed.count) return null;
      const now = await prisma.beacon.findUnique({ where: { seq: found.seq } });
      return now ? fromPrisma(now) : null;
    },
    async delete(live, ref) {
      const deleted = await lock(() => prisma.beacon.deleteMany({ where: whereRef(live, ref) }));
      return deleted.count > 0;
    },
  };
}

/** The beacons' reads. */
function beaconReads(): Omit<BeaconStore, "create" | "put" | "update" | "delete"> {
  return {
    async byRef(live, ref) {
      const b = await prisma.beacon.findFirst({ where: whereRef(live, ref) });
      return b ? fromPrisma(b) : null;
    },
    async list(filter, take) {
      const found = await prisma.beacon.findMany({
        where: {
          live: filter.live,
          ...(filter.tag !== undefined && { tag: filter.tag }),
          createdAt: dateWindow(filter.createdBefore, filter.createdAfter),
        },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take,
      });
      return found.map(fromPrisma);
    },
    async inBox(live, box) {
      const found = await prisma.beacon.findMany({
        where: {
          live,
          enabled: true,
          latitude: { gte: box.minLat, lte: box.maxLat },
          longitude: { gte: box.minLng, lte: box.maxLng },
        },
      });
      return found.map(fromPrisma);
    },
    async uuids(live) {
      const found = await prisma.beacon.findMany({
        where: { live, enabled: true },
        distinct: ["uuid"],
        select: { uuid: true },
        orderBy: { uuid: "asc" },
      });
      return found.map((b) => b.uuid);
    },
    async ofUsers(userSeqs) {
      if (!userSeqs.length) return [];
      const members = await prisma.userBeacon.findMany({ where: { userSeq: { in: [...userSeqs] } } });
      const beacons = await prisma.beacon.findMany({
        where: { seq: { in: [...new Set(members.map((m) => m.beaconSeq))] } },
      });
      const bySeq = new Map(beacons.map((b) => [b.seq, fromPrisma(b)]));
      return members.flatMap((m) => {
        const beacon = bySeq.get(m.beaconSeq);
        return beacon ? [{ userSeq: m.userSeq, beacon }] : [];
      });
    },
  };
}

/** The beacons' store, alike on both engines (Prisma). */
export const beaconStore = (lock: WriteLock): BeaconStore => ({ ...beaconWrites(lock), ...beaconReads() });
