import { describe, expect, it } from "vitest";
import { api, expectError, keys, unique } from "../support/api";
import { metersFrom } from "../support/geo";

/**
 * POST /v1/track/replay: the updates a mobile SDK buffered offline, flushed at once.
 * A replay of 120 buffered updates across two geofences makes the events the same moves make
 * live, at the times they happened.
 */

type Event = {
  _id: string;
  type: string;
  geofence?: { externalId?: string };
  createdAt: string;
  actualCreatedAt: string;
  replayed?: boolean;
};

// In the South Atlantic: no region events, only the two geofences.
const base = { lat: -31 + Math.random() * 0.2, lng: -20 + Math.random() * 0.2 };
const { north } = metersFrom(base);

/** 120 fixes a minute apart: 40 in A, 40 between, 40 in B. */
const path = Array.from({ length: 120 }, (_, i) => (i < 40 ? 0 : i < 80 ? 1500 : 3000));

async function fences(tag: string) {
  for (const [externalId, meters] of [
    ["A", 0],
    ["B", 3000],
  ] as const) {
    const res = await api("POST", "/v1/geofences", {
      json: {
        description: externalId,
        tag,
        externalId,
        type: "circle",
        coordinates: [base.lng, north(meters)],
        radius: 200,
      },
    });
    expect(res.status).toBe(200);
  }
}

const summary = (events: Event[]) => events.map((e) => `${e.type} ${e.geofence?.externalId ?? ""}`);

describe("offline replay", () => {
  it("makes the events the same moves make live, in the order they happened, at their times", async () => {
    await fences(unique("replay"));
    // Live: the same moves one by one, a minute apart (sent at once: a server's secret key, as a
    // device's publishable key would be rate-limited past its burst).
    const live = unique("live");
    const t0 = Date.now() - 125 * 60_000;
    const liveEvents: Event[] = [];
    for (const [i, meters] of path.entries()) {
      const res = await api("POST", "/v1/track", {
        key: keys.secret,
        json: {
          deviceId: live,
          latitude: north(meters),
          longitude: base.lng,
          accuracy: 10,
          updatedAt: new Date(t0 + i * 60_000).toISOString(),
          stopped: false,
        },
      });
      liveEvents.push(...(res.body.events as Event[]));
    }
    // Replayed: as Android buffers them (each with updatedAtMsDiff, no updatedAt), in no order.
    const device = unique("offline");
    const replays = path
      .map((meters, i) => ({
        deviceId: device,
        latitude: north(meters),
        longitude: base.lng,
        accuracy: 10,
        stopped: false,
        foreground: false,
        replayed: true,
        deviceType: "Android",
        locationMs: 123456789 + i,
        updatedAtMsDiff: (120 - i) * 60_000,
      }))
      .reverse();
    const sent = Date.now();
    const res = await api("POST", "/v1/track/replay", { key: keys.publishable, json: { replays } });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const events = res.body.events as Event[];
    expect(summary(events)).toEqual(summary(liveEvents));
    expect(summary(events)).toEqual([
      "user.entered_geofence A",
      "user.dwelled_in_geofence A",
      "user.exited_geofence A",
      "user.entered_geofence B",
      "user.dwelled_in_geofence B",
    ]);
    // Each at the time it happened (createdAt, as Radar's SDKs read it): B was entered 40 minutes
    // before the flush; the service made them all at the flush (actualCreatedAt).
    const enteredB = Date.parse(events[3]!.createdAt);
    expect(Math.abs(enteredB - (sent - 40 * 60_000))).toBeLessThan(10_000);
    for (const e of events) expect(Math.abs(Date.parse(e.actualCreatedAt) - sent)).toBeLessThan(60_000);
    expect(res.body.user).toMatchObject({ deviceId: device, replayed: true });
    // Both SDKs read event.replayed: true on each replayed event, stored so; absent on live ones.
    expect(events.map((e) => e.replayed)).toEqual(events.map(() => true));
    expect(liveEvents.some((e) => "replayed" in e)).toBe(false);
    const stored = await api("GET", `/v1/events/${events[0]!._id}`);
    expect(stored.body.event).toMatchObject({ replayed: true });
  });

  it("refuses a bad replay by its index and applies none", async () => {
    const device = unique("bad");
    const good = {
      deviceId: device,
      latitude: base.lat,
      longitude: base.lng,
      accuracy: 10,
      updatedAtMsDiff: 1000,
    };
    expectError(
      await api("POST", "/v1/track/replay", {
        key: keys.publishable,
        json: { replays: [good, good, { ...good, latitude: 91 }] },
      }),
      400,
      "replays[2].latitude",
    );
    expectError(
      await api("POST", "/v1/track/replay", {
        key: keys.publishable,
        json: { replays: [{ ...good, updatedAtMsDiff: -5 }] },
      }),
      400,
      "replays[0].updatedAtMsDiff",
    );
    expectError(
      await api("POST", "/v1/track/replay", { key: keys.publishable, json: { replays: [] } }),
      400,
      "replays",
    );
    expectError(
      await api("POST", "/v1/track/replay", {
        key: keys.publishable,
        json: { replays: Array.from({ length: 121 }, () => good) },
      }),
      400,
      "replays",
    );
    // Nothing was applied: the device is unknown.
    const users = await api("GET", `/v1/users/${device}`);
    expect(users.status).toBe(404);
  });
});
