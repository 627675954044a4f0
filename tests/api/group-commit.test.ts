import { describe, expect, it } from "vitest";
import { api, keys, unique } from "../support/api";

/**
 * Updates of many devices arriving at once are applied together (one transaction per batch on
 * either engine, docs/deployment.md#group-commit): each is still decided from what the ones before
 * it wrote, answered with its own events, each at the instant its update arrived.
 */

type Event = {
  _id: string;
  type: string;
  createdAt: string;
  user: { _id: string };
  geofence?: { _id: string };
};
type Tracked = { user: { _id: string; deviceId: string; updatedAt: string }; events: Event[] };

/** A spot of its own, far from other tests' (the Indian Ocean, this file only). */
const spot = () => ({ lat: -40 + Math.random() * 5, lng: 70 + Math.random() * 5 });

async function circle(at: { lat: number; lng: number }) {
  const res = await api("POST", "/v1/geofences", {
    json: {
      description: "batch",
      type: "circle",
      coordinates: [at.lng, at.lat],
      radius: 300,
      tag: unique("gc"),
      externalId: "z",
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.geofence as { _id: string };
}

async function track(body: Record<string, unknown>) {
  const res = await api("POST", "/v1/track", { json: body, key: keys.publishable });
  return { status: res.status, body: res.body as unknown as Tracked };
}

describe("updates of many devices at once", () => {
  it("answers each with its own entry, at the instant its update arrived", async () => {
    const at = spot();
    const g = await circle(at);
    const prefix = unique("burst");
    const answers = await Promise.all(
      Array.from({ length: 48 }, (_, i) =>
        track({ deviceId: `${prefix}-${i}`, latitude: at.lat, longitude: at.lng, accuracy: 10 }),
      ),
    );
    const events = answers.map((res, i) => {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.user.deviceId).toBe(`${prefix}-${i}`);
      const entered = res.body.events.filter((e) => e.type === "user.entered_geofence");
      expect(entered.map((e) => e.geofence?._id)).toEqual([g._id]);
      expect(entered[0]!.user._id).toBe(res.body.user._id);
      return entered[0]!;
    });
    // Each entry happened when its update arrived (no device time sent): its user's updatedAt.
    for (const [i, e] of events.entries()) expect(e.createdAt).toBe(answers[i]!.body.user.updatedAt);
    expect(new Set(answers.map((r) => r.body.user._id)).size).toBe(48);
    // Stored, not only answered.
    for (const e of events.slice(0, 5)) expect((await api("GET", `/v1/events/${e._id}`)).status).toBe(200);
  });

  it("makes one entry per user when two devices of one user move into a geofence in the same burst", async () => {
    // One device names the user by userId, the other is the user's deviceId: their updates hold
    // different device locks, yet may reach the same user row, and must then be decided one
    // after the other (if the first moves the user to its device, the second makes a user of
    // its own: that is the API's rule, and each user still enters once).
    for (let round = 0; round < 4; round++) {
      const at = spot();
      const g = await circle(at);
      const userId = unique("two-devices");
      const [a, b] = [unique("dev-a"), unique("dev-b")];
      const away = { latitude: at.lat + 1, longitude: at.lng, accuracy: 10 };
      expect((await track({ deviceId: b, userId, ...away })).status).toBe(200);
      const inside = { latitude: at.lat, longitude: at.lng, accuracy: 10 };
      // Other devices' updates around them, so the two are likely to share a batch.
      const filler = Array.from({ length: 20 }, (_, i) => track({ deviceId: `${a}-f${i}`, ...away }));
      const [first, second] = await Promise.all([
        track({ deviceId: a, userId, ...inside }),
        track({ deviceId: b, ...inside }),
        ...filler,
      ]);
      expect(first!.status, JSON.stringify(first!.body)).toBe(200);
      expect(second!.status, JSON.stringify(second!.body)).toBe(200);
      const stored = await api("GET", `/v1/events?types=user.entered_geofence&geofenceId=${g._id}&limit=10`);
      expect(stored.status).toBe(200);
      const users = [first!.body.user._id, second!.body.user._id];
      const entries = stored.body.events as Event[];
      for (const user of new Set(users)) {
        expect(
          entries.filter((e) => e.user._id === user),
          `round ${round}`,
        ).toHaveLength(1);
      }
      expect(entries).toHaveLength(new Set(users).size);
    }
  });
});
