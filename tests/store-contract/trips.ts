import { describe, expect, it } from "vitest";
import type { Storage } from "../../server/storage/port";
import { type StoredTrip, TRIP_TRACKING } from "../../server/storage/trips";
import { partWrite } from "../../server/storage/tracking";
import { newId } from "../../server/storage/ids";
import { T0, at, unique } from "./engine";
import { track, userPlan, userWrite } from "./tracking";

/** A trip's columns: `status`, of a device without userId, to [lng, lat], made at `when`. */
function trip(
  deviceId: string,
  status: string,
  when: Date,
  more: Partial<StoredTrip> = {},
): Omit<StoredTrip, "seq"> {
  return {
    id: newId(when.getTime()),
    live: false,
    externalId: unique("trip"),
    userId: null,
    deviceId,
    status,
    mode: "car",
    metadata: null,
    destinationGeofenceTag: null,
    destinationGeofenceExternalId: null,
    destinationGeofenceId: null,
    destinationLatitude: 13,
    destinationLongitude: 103,
    arrivalRadius: 100,
    approachingThreshold: 5,
    scheduledArrivalAt: null,
    etaDistance: null,
    etaDuration: null,
    etaSource: null,
    delayMinutes: null,
    legs: null,
    startNotified: false,
    createdAt: when,
    updatedAt: when,
    startedAt: status === "pending" ? null : when,
    endedAt: null,
    expiresAt: at(3_600_000),
    ...more,
  };
}

/** Trips: written by tracking plans, read by reference, by owner and by list; expiry. */
export function tripsContract(store: () => Storage): void {
  describe("trips", () => {
    it("writes a plan's trips, and finds the trip a device is on", async () => {
      const device = unique("device");
      const made = trip(device, "started", T0, { delayMinutes: 12 });
      await track(store(), device, () =>
        userPlan(null, userWrite(device, 103, 13, T0), {
          writes: [partWrite(TRIP_TRACKING, [{ seq: null, trip: made }])],
        }),
      );
      const stored = await store().trips.byRef(false, { externalId: made.externalId });
      expect(stored).toMatchObject({ ...made, seq: expect.any(Number) });
      expect(await store().trips.byRef(false, { id: made.id })).toEqual(stored);
      expect(await store().trips.activeDestination(false, { deviceId: device })).toMatchObject({
        id: made.id,
        externalId: made.externalId,
        mode: "car",
        latitude: 13,
        longitude: 103,
      });
      // Tracking reads it in its transaction, and moves it on.
      await track(store(), device, async (user, read) => {
        const active = await read.part(TRIP_TRACKING).activeTrip(false, { deviceId: device });
        expect(active?.seq).toBe(stored!.seq);
        return userPlan(user, userWrite(device, 103, 13, at(1000)), {
          writes: [
            partWrite(TRIP_TRACKING, [
              {
                seq: active!.seq,
                trip: { ...made, status: "completed", endedAt: at(1000), updatedAt: at(1000) },
              },
            ]),
          ],
        });
      });
      expect(await store().trips.activeDestination(false, { deviceId: device })).toBeNull();
      expect((await store().trips.byRef(false, { id: made.id }))?.status).toBe("completed");
      expect(await store().trips.delete(false, { id: made.id })).toBe(true);
      expect(await store().trips.delete(false, { id: made.id })).toBe(false);
    });

    it("lists trips newest first by status, owner and delay, and expires those past their time", async () => {
      const device = unique("device");
      const trips = [
        trip(device, "pending", at(0), { expiresAt: at(500) }),
        trip(device, "completed", at(1000), { endedAt: at(1000), expiresAt: at(500) }),
        trip(device, "started", at(2000), { delayMinutes: 9 }),
      ];
      await track(store(), device, () =>
        userPlan(null, userWrite(device, 104, 14, T0), {
          writes: [
            partWrite(
              TRIP_TRACKING,
              trips.map((t) => ({ seq: null, trip: t })),
            ),
          ],
        }),
      );
      const mine = { userIds: [], deviceIds: [device] };
      const all = await store().trips.list({ live: false, owners: mine });
      expect(all.map((t) => t.id)).toEqual([trips[2]!.id, trips[1]!.id, trips[0]!.id]);
      expect(
        (await store().trips.list({ live: false, owners: mine, statuses: ["pending", "started"] })).map(
          (t) => t.id,
        ),
      ).toEqual([trips[2]!.id, trips[0]!.id]);
      expect(
        (await store().trips.list({ live: false, owners: mine, delayed: true })).map((t) => t.id),
      ).toEqual([trips[2]!.id]);
      expect(await store().trips.expire(at(1000), 100)).toBeGreaterThanOrEqual(1);
      const after = await store().trips.list({ live: false, owners: mine });
      expect(after.map((t) => t.status)).toEqual(["started", "completed", "expired"]);
    });
  });
}
