import type { DeviceLogStore } from "../../storage/logs";
import { prisma } from "../client";
import type { WriteLock } from "./common";

export function deviceLogStore(lock: WriteLock): DeviceLogStore {
  return {
    async append({ live, deviceId, installId }, lines, receivedAt, { keep, before }) {
      await lock(() =>
        prisma.$transaction(async (tx) => {
          await tx.deviceLog.createMany({
            data: lines.map((l) => ({ live, deviceId, installId, ...l, receivedAt })),
          });
          // The device's oldest beyond `keep`, and everything older than the bound.
          const cut = await tx.deviceLog.findFirst({
            where: { live, deviceId },
            orderBy: { seq: "desc" },
            skip: keep,
            select: { seq: true },
          });
          if (cut) await tx.deviceLog.deleteMany({ where: { live, deviceId, seq: { lte: cut.seq } } });
          await tx.deviceLog.deleteMany({ where: { receivedAt: { lt: before } } });
        }),
      );
    },
    list: (live, deviceId, take) =>
      prisma.deviceLog.findMany({
        where: { live, deviceId },
        orderBy: { seq: "desc" },
        take,
        select: { level: true, message: true, type: true, createdAt: true, receivedAt: true },
      }),
  };
}
