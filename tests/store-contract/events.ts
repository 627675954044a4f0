import { describe, expect, it } from "vitest";
import type { Storage } from "../../server/storage/port";
import { T0, at, unique } from "./engine";
import { eventWrite, track, userPlan, userWrite } from "./tracking";

/** Events: lists newest first, verdicts and their counts, deletion. */
export function eventsContract(store: () => Storage): void {
  describe("events", () => {
    it("lists a user's events newest first, and pages on createdAt", async () => {
      const device = unique("device");
      const written = await track(store(), device, () =>
        userPlan(null, userWrite(device, 8, 48, at(3000)), {
          events: [0, 1, 2].map((k) => eventWrite(`user.contract_${k}`, 8, 48, at(k * 1000))),
        }),
      );
      const userSeq = written!.userSeq;
      const all = await store().events.list({ live: false, userSeq });
      expect(all.map((e) => e.type)).toEqual(["user.contract_2", "user.contract_1", "user.contract_0"]);
      const older = await store().events.list({ live: false, userSeq, createdBefore: at(2000) }, 1);
      expect(older.map((e) => e.type)).toEqual(["user.contract_1"]);
      const newer = await store().events.list({ live: false, userSeq, createdAfter: at(0) });
      expect(newer.map((e) => e.type)).toEqual(["user.contract_2", "user.contract_1"]);
      expect(await store().events.byId(false, all[0]!.id)).toEqual(all[0]);
      expect(await store().events.byId(true, all[0]!.id)).toBeNull();
    });

    it("records a verdict and counts it for its class; deleting takes the event and its verdicts", async () => {
      const device = unique("device");
      const subject = unique("subject");
      const written = await track(store(), device, () =>
        userPlan(null, userWrite(device, 9, 49, T0), {
          events: [0, 1].map((k) => eventWrite("user.entered_geofence", 9, 49, at(k), { subject })),
        }),
      );
      const [first, second] = written!.eventSeqs as [number, number];
      const verified = await store().events.verify(first, { verification: 1, at: at(10), keyId: "key" });
      expect(verified).toMatchObject({ seq: first, verification: 1, verifiedAt: at(10) });
      await store().events.verify(second, { verification: -1, at: at(11), keyId: "key" });
      expect(
        await store().events.verificationCounts(false, subject, "user.entered_geofence", "core"),
      ).toEqual({
        accepted: 1,
        rejected: 1,
      });
      const unverified = await store().events.list({
        live: false,
        userSeq: written!.userSeq,
        verifications: [1],
      });
      expect(unverified.map((e) => e.seq)).toEqual([first]);
      expect(await store().events.delete(first)).toBe(true);
      expect(await store().events.delete(first)).toBe(false);
      expect(await store().events.verify(first, { verification: 1, at: at(12), keyId: "key" })).toBeNull();
      expect(
        await store().events.verificationCounts(false, subject, "user.entered_geofence", "core"),
      ).toEqual({
        accepted: 0,
        rejected: 1,
      });
    });
  });
}
