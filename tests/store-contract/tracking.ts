import { describe, expect, it } from "vitest";
import type { Storage } from "../../server/storage/port";
import type { StoredUser } from "../../server/storage/users";
import {
  type EventWrite,
  type TrackingPlan,
  type TrackingReader,
  type UserWrite,
  partWrite,
  trackingPart,
} from "../../server/storage/tracking";
import { GEOFENCE_TRACKING, type MembershipChanges } from "../../server/storage/memberships";
import { newId } from "../../server/storage/ids";
import { T0, at, unique } from "./engine";
import { circle } from "./geofences";

/** The user columns of an update of `deviceId` at [lng, lat] at `when`. */
export function userWrite(
  deviceId: string,
  lng: number,
  lat: number,
  when: Date,
  more: Partial<UserWrite> = {},
): UserWrite {
  return {
    deviceId,
    userId: null,
    description: null,
    metadata: null,
    deviceType: "iOS",
    device: { sdkVersion: "3.0.0" },
    foreground: true,
    stopped: false,
    latitude: lat,
    longitude: lng,
    accuracy: 10,
    country: null,
    state: null,
    postalCode: null,
    dma: null,
    place: null,
    placeEnteredAt: null,
    actualUpdatedAt: when,
    updatedAt: when,
    ...more,
  };
}

/** An unverified event of `type` at [lng, lat] at `when`. */
export function eventWrite(
  type: string,
  lng: number,
  lat: number,
  when: Date,
  more: Partial<EventWrite> = {},
): EventWrite {
  return {
    id: newId(when.getTime()),
    live: false,
    type,
    user: { deviceId: "contract" },
    geofenceId: null,
    geofence: null,
    subject: null,
    region: null,
    place: null,
    placeId: null,
    alternatePlaces: null,
    latitude: lat,
    longitude: lng,
    accuracy: 10,
    confidence: 3,
    probability: 1,
    band: "core",
    duration: null,
    metadata: null,
    trip: null,
    createdAt: when,
    actualCreatedAt: when,
    replayed: false,
    kindFields: null,
    ...more,
  };
}

/** A plan that writes the device's user as `write` (new when `before` is null), and nothing else. */
export function userPlan(
  before: StoredUser | null,
  write: UserWrite,
  more: Partial<TrackingPlan> = {},
): TrackingPlan {
  return {
    user: {
      seq: before?.seq ?? null,
      id: before?.id ?? newId(write.updatedAt.getTime()),
      live: false,
      createdAt: before?.createdAt ?? write.updatedAt,
      updatedBefore: before?.updatedAt ?? null,
      write,
    },
    location: {
      latitude: write.latitude,
      longitude: write.longitude,
      accuracy: write.accuracy,
      recordedAt: write.updatedAt,
      receivedAt: write.updatedAt,
    },
    events: [],
    outbox: null,
    writes: [],
    ...more,
  };
}

/** A plan's writes of memberships: those entered, exited and dwelled in. */
export const memberships = (changes: Partial<MembershipChanges>) =>
  partWrite(GEOFENCE_TRACKING, { entered: [], exited: [], dwelled: [], ...changes });

/** Applies one update of a device of the test world (`live` for the other): `plan` is made from what the reader says of its user. */
export function track(
  store: Storage,
  deviceId: string,
  plan: (user: StoredUser | null, read: TrackingReader) => Promise<TrackingPlan | null> | TrackingPlan | null,
  live = false,
) {
  return store.tracking.apply({ live, deviceId, userId: null }, async (read) => {
    const user = await read.userByDeviceId(live, deviceId, false);
    return { plan: await plan(user, read), answer: (written) => written };
  });
}

/** Tracking: a plan is written whole, read back by the next update, and one device's updates never interleave. */
export function trackingContract(store: () => Storage): void {
  describe("tracking", () => {
    it("writes a plan's user, memberships and events, and the next update reads them", async () => {
      const device = unique("device");
      const g = (await store().geofences.create(false, circle(5, 45)))!;
      const written = await track(store(), device, (user) => {
        expect(user).toBeNull();
        return userPlan(null, userWrite(device, 5, 45, T0), {
          writes: [memberships({ entered: [{ geofenceSeq: g.seq, enteredAt: T0 }] })],
          events: [eventWrite("user.entered_geofence", 5, 45, T0, { geofenceId: g.id })],
        });
      });
      expect(written?.eventSeqs).toHaveLength(1);
      const second = await track(store(), device, async (user, read) => {
        expect(user).toMatchObject({
          seq: written!.userSeq,
          deviceId: device,
          latitude: 45,
          longitude: 5,
          updatedAt: T0,
        });
        expect(await read.part(GEOFENCE_TRACKING).memberships(user!.seq)).toEqual([
          { geofenceSeq: g.seq, enteredAt: T0, dwelled: false },
        ]);
        return userPlan(user, userWrite(device, 5.1, 45, at(1000)), {
          writes: [memberships({ exited: [g.seq] })],
          events: [
            eventWrite("user.exited_geofence", 5.1, 45, at(1000), {
              geofenceId: g.id,
              // What a kind without columns of its own says of the event's subject.
              kindFields: { sample: { _id: "s1", tag: "door" } },
            }),
          ],
        });
      });
      expect(second?.userSeq).toBe(written!.userSeq);
      await track(store(), device, async (user, read) => {
        expect(user).toMatchObject({ longitude: 5.1, updatedAt: at(1000), createdAt: T0 });
        expect(await read.part(GEOFENCE_TRACKING).memberships(user!.seq)).toEqual([]);
        return null;
      });
      const events = await store().events.list({ live: false, userSeq: written!.userSeq });
      expect(events.map((e) => e.type)).toEqual(["user.exited_geofence", "user.entered_geofence"]);
      expect(events[0]!.kindFields).toEqual({ sample: { _id: "s1", tag: "door" } });
      expect(events[1]).toMatchObject({
        geofenceId: g.id,
        kindFields: null,
        createdAt: T0,
        verification: 0,
        userSeq: written!.userSeq,
      });
    });

    it("writes nothing of an update whose decision fails, and the others of a batch go on", async () => {
      const device = unique("device");
      const failing = track(store(), device, () => {
        throw new Error("decided wrong");
      });
      const fine = unique("device");
      const going = track(store(), fine, () => userPlan(null, userWrite(fine, 6, 46, T0)));
      await expect(failing).rejects.toThrow("decided wrong");
      expect(await going).toMatchObject({ userSeq: expect.any(Number) });
      expect(await store().users.matching(false, device)).toEqual([]);
      expect(await store().users.matching(false, fine)).toHaveLength(1);
    });

    it("decides one device's updates one after the other, each seeing the last one's write", async () => {
      const device = unique("device");
      const updates = Array.from({ length: 12 }, (_, k) =>
        track(store(), device, (user) => {
          const n = ((user?.metadata as { n?: number } | null)?.n ?? 0) + 1;
          return userPlan(user, userWrite(device, 7, 47, at(k), { metadata: { n } }));
        }),
      );
      const written = await Promise.all(updates);
      expect(new Set(written.map((w) => w?.userSeq)).size).toBe(1);
      const [user] = await store().users.matching(false, device);
      expect(user?.metadata).toEqual({ n: 12 });
    });

    it("answers every kind's part of storage, and refuses a part it does not know", async () => {
      const device = unique("device");
      // Imported here: the kinds reach the configuration, which the engine's test sets first.
      const { KINDS } = await import("../../server/tracking/kinds");
      await track(store(), device, (_user, read) => {
        for (const kind of KINDS) for (const part of kind.parts) expect(read.part(part)).toBeTruthy();
        expect(() => read.part(trackingPart("no-such-kind"))).toThrow(/no-such-kind/);
        return null;
      });
    });
  });
}
