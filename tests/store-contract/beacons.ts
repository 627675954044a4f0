import { describe, expect, it } from "vitest";
import type { Storage } from "../../server/storage/port";
import { BEACON_TRACKING, type BeaconColumns } from "../../server/storage/beacons";
import { partWrite } from "../../server/storage/tracking";
import { T0, at, unique } from "./engine";
import { track, userPlan, userWrite } from "./tracking";

/** A beacon's columns at [lng, lat]. */
const beacon = (lng: number, lat: number, more: Partial<BeaconColumns> = {}): BeaconColumns => ({
  description: "beacon",
  tag: null,
  externalId: null,
  uuid: `f7826da6-4fa2-4e98-8024-${unique("u").slice(-10).padStart(12, "0")}`,
  major: "1",
  minor: "2",
  longitude: lng,
  latitude: lat,
  metadata: { floor: 1 },
  enabled: true,
  ...more,
});

/** Beacons: kept by tag and externalId, found by place and by UUID, and which a user is in. */
export function beaconsContract(store: () => Storage): void {
  describe("beacons", () => {
    it("keeps a tag and externalId to one beacon of a world, replaces it on put, and finds beacons by box and UUID", async () => {
      const tag = unique("tag");
      const made = (await store().beacons.create(false, beacon(20, 40, { tag, externalId: "a" })))!;
      expect(made).toMatchObject({ tag, externalId: "a", metadata: { floor: 1 }, live: false });
      expect(await store().beacons.create(false, beacon(20, 40, { tag, externalId: "a" }))).toBeNull();
      const other = (await store().beacons.create(false, beacon(20.001, 40, { tag, externalId: "b" })))!;
      expect(
        await store().beacons.update(false, { id: other.id }, beacon(20, 40, { tag, externalId: "a" })),
      ).toBe("taken");
      const put = await store().beacons.put(false, {
        ...beacon(20.0005, 40, { description: "moved" }),
        tag,
        externalId: "a",
      });
      expect(put).toMatchObject({
        created: false,
        beacon: { id: made.id, description: "moved", longitude: 20.0005 },
      });
      expect((await store().beacons.list({ live: false, tag })).map((b) => b.id)).toEqual([
        other.id,
        made.id,
      ]);
      const box = { minLng: 19.999, minLat: 39.999, maxLng: 20.0007, maxLat: 40.001 };
      expect((await store().beacons.inBox(false, box)).map((b) => b.id)).toEqual([made.id]);
      expect(await store().beacons.uuids(false)).toEqual(
        expect.arrayContaining([put.beacon.uuid, other.uuid]),
      );
      expect(await store().beacons.delete(false, { tag, externalId: "a" })).toBe(true);
      expect(await store().beacons.delete(false, { id: made.id })).toBe(false);
    });

    it("writes the beacons a user enters and exits with its update, and deleting a beacon or the user takes them", async () => {
      const device = unique("device");
      const [b1, b2] = [
        (await store().beacons.create(false, beacon(21, 41)))!,
        (await store().beacons.create(false, beacon(21, 41)))!,
      ];
      const w = await track(store(), device, async (_user, read) => {
        expect(await read.part(BEACON_TRACKING).beaconsRanged(false, [b1, b2])).toHaveLength(2);
        return userPlan(null, userWrite(device, 21, 41, T0), {
          writes: [
            partWrite(BEACON_TRACKING, {
              entered: [b1, b2].map((b) => ({ beaconSeq: b.seq, enteredAt: T0 })),
              exited: [],
            }),
          ],
        });
      });
      await track(store(), device, async (user, read) => {
        const inside = await read.part(BEACON_TRACKING).beaconsOf(user!.seq);
        expect(inside.map((m) => [m.beaconSeq, m.enteredAt, m.beacon?.id]).sort()).toEqual(
          [
            [b1.seq, T0, b1.id],
            [b2.seq, T0, b2.id],
          ].sort(),
        );
        return userPlan(user, userWrite(device, 21, 41, at(1000)), {
          writes: [partWrite(BEACON_TRACKING, { entered: [], exited: [b1.seq] })],
        });
      });
      expect((await store().beacons.ofUsers([w!.userSeq])).map((m) => m.beacon.id)).toEqual([b2.id]);
      expect(await store().beacons.delete(false, { id: b2.id })).toBe(true);
      expect(await store().beacons.ofUsers([w!.userSeq])).toEqual([]);
    });
  });
}
