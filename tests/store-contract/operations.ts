import { describe, expect, it } from "vitest";
import type { Storage } from "../../server/storage/port";
import { T0, at, unique } from "./engine";
import { eventWrite, track, userPlan, userWrite } from "./tracking";

/**
 * What operators and upkeep read and prune: SDK logs, trails, the migrations applied and the
 * overview's figures. The overview's run in the live world, which the other contract files leave
 * empty, so its counts are exact.
 */
export function operationsContract(store: () => Storage): void {
  describe("operations", () => {
    it("keeps a device's log lines newest first within their bounds, and prunes old ones", async () => {
      const device = { live: false, deviceId: unique("device"), installId: null };
      const line = (k: number) => ({ level: "info", message: `line ${k}`, type: null, createdAt: at(k) });
      await store().logs.append(device, [line(0), line(1), line(2)], at(10), { keep: 2, before: T0 });
      const kept = await store().logs.list(false, device.deviceId, 10);
      expect(kept.map((l) => l.message)).toEqual(["line 2", "line 1"]);
      expect(kept[0]!.receivedAt).toEqual(at(10));
      expect(await store().retention.pruneLogs(at(11), 100)).toBeGreaterThanOrEqual(2);
      expect(await store().logs.list(false, device.deviceId, 10)).toEqual([]);
    });

    it("prunes trail points received before a time, oldest first", async () => {
      const device = unique("device");
      let seq = 0;
      for (const k of [0, 1])
        seq = (await track(store(), device, (user) =>
          userPlan(user, userWrite(device, 105, 15, new Date(Date.UTC(2000, 0, 1, 0, 0, k)))),
        ))!.userSeq;
      expect(
        await store().retention.pruneTrails(new Date(Date.UTC(2000, 0, 1, 0, 0, 1)), 1_000_000),
      ).toBeGreaterThanOrEqual(1);
      expect((await store().users.locations(seq, 10)).map((l) => l.recordedAt)).toEqual([
        new Date(Date.UTC(2000, 0, 1, 0, 0, 1)),
      ]);
    });

    it("says which migrations are applied", async () => {
      const applied = await store().system.appliedMigrations();
      expect(applied.length).toBeGreaterThan(10);
      expect([...applied].sort()).toEqual(applied);
    });

    it("counts the live world's tracked users, events per hour, review queue and trips", async () => {
      const hour = new Date(Date.UTC(2026, 10, 25, 12));
      for (const k of [0, 1, 2]) {
        const device = unique("device");
        const when = new Date(hour.getTime() + k * 20 * 60_000);
        await track(
          store(),
          device,
          () => {
            const plan = userPlan(null, userWrite(device, 106, 16, when), {
              events: [
                eventWrite(k === 2 ? "user.exited_geofence" : "user.entered_geofence", 106, 16, when, {
                  live: true,
                }),
              ],
            });
            return { ...plan, user: { ...plan.user!, live: true } };
          },
          true,
        );
      }
      expect(
        await store().overview.trackedUsers(true, [new Date(hour.getTime() + 30 * 60_000), hour]),
      ).toEqual([1, 3]);
      const perHour = await store().overview.eventsPerHour(true, hour);
      expect(perHour.map((h) => [h.hour, h.type, h.count]).sort()).toEqual(
        [
          [hour, "user.entered_geofence", 2],
          [hour, "user.exited_geofence", 1],
        ].sort(),
      );
      expect(await store().overview.reviewQueue(true, 2)).toMatchObject({ count: 2, oldest: hour });
      expect(await store().overview.reviewQueue(true, 10)).toEqual({ count: 3, oldest: hour });
      expect(await store().overview.trips(true, ["started"])).toEqual({ active: 0, delayed: 0 });
    });
  });
}
