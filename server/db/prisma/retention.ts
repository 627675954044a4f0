import type { RetentionStore } from "../../storage/retention";
import { prisma } from "../client";
import type { WriteLock } from "./common";

/**
 * Pruning in small batches, each its own short change. Trail points are read oldest first by
 * seq (the primary key: no index on the time is needed, the old ones are a prefix since seq
 * follows arrival) and the prefix received before the bound goes; log lines have an index on
 * their arrival.
 */
export function retentionStore(lock: WriteLock): RetentionStore {
  return {
    async pruneTrails(before, batch) {
      const oldest = await prisma.userLocation.findMany({
        orderBy: { seq: "asc" },
        take: batch,
        select: { seq: true, receivedAt: true },
      });
      const old = oldest.filter((r) => r.receivedAt < before);
      if (!old.length) return 0;
      const last = old[old.length - 1]!.seq;
      const { count } = await lock(() =>
        prisma.userLocation.deleteMany({ where: { seq: { lte: last }, receivedAt: { lt: before } } }),
      );
      return count;
    },
    async pruneLogs(before, batch) {
      const old = await prisma.deviceLog.findMany({
        where: { receivedAt: { lt: before } },
        // In the index's order: ordered by seq (Prisma's default with take), SQLite walked every
        // line to find none old.
        orderBy: { receivedAt: "asc" },
        take: batch,
        select: { seq: true },
      });
      if (!old.length) return 0;
      const { count } = await lock(() =>
        prisma.deviceLog.deleteMany({ where: { seq: { in: old.map((r) => r.seq) } } }),
      );
      return count;
    },
  };
}
