import { describe, expect, it } from "vitest";
import { api, expectError, keys, unique } from "../support/api";

/**
 * Conversions (POST /v1/events, the SDKs' logConversion): the web SDK names the
 * conversion `name`, the mobile SDKs `type`; revenue comes as metadata.revenue.
 */

type Event = Record<string, unknown> & {
  _id: string;
  type: string;
  metadata?: Record<string, unknown>;
  location: { coordinates: number[] };
};

const spot = { lat: 52.37 + Math.random() * 0.01, lng: 4.89 + Math.random() * 0.01 };

async function trackedDevice(extra: Record<string, unknown> = {}) {
  const deviceId = unique("buyer");
  const res = await api("POST", "/v1/track", {
    key: keys.publishable,
    json: { deviceId, latitude: spot.lat, longitude: spot.lng, accuracy: 8, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { deviceId, user: res.body.user as { _id: string } };
}

const log = (body: Record<string, unknown>, key = keys.publishable) =>
  api("POST", "/v1/events", { key, json: body });

describe("conversions", () => {
  it("logs the web SDK's conversion at the user's last location, with its revenue, and lists it", async () => {
    const userId = unique("web-user");
    const { deviceId, user } = await trackedDevice({ userId });
    const createdAt = new Date(Date.now() - 60_000).toISOString();
    // What radar-sdk-js's ConversionsAPI.logConversion sends.
    const res = await log({
      name: "in_store_purchase",
      userId,
      deviceId,
      installId: `install-${deviceId}`,
      metadata: { sku: "A-17", revenue: 42.5 },
      createdAt,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const event = res.body.event as Event;
    expect(event).toMatchObject({
      type: "in_store_purchase",
      metadata: { sku: "A-17", revenue: 42.5 },
      user: { _id: user._id, userId, deviceId },
      createdAt,
      verification: 0,
      live: false,
    });
    // when it happened as given; when the service made it, now
    expect(Math.abs(Date.parse(event.actualCreatedAt as string) - Date.now())).toBeLessThan(60_000);
    expect(event._id).toMatch(/^[0-9a-f]{24}$/);
    expect(event.location.coordinates[0]).toBeCloseTo(spot.lng, 6);
    expect(event.location.coordinates[1]).toBeCloseTo(spot.lat, 6);

    // Listed and filtered like the other events, and read back as answered.
    const byType = await api("GET", `/v1/events?types=in_store_purchase&userId=${user._id}`);
    expect((byType.body.events as Event[]).map((e) => e._id)).toEqual([event._id]);
    const located = await api("GET", `/v1/events?types=user.entered_region_country&userId=${user._id}`);
    expect((located.body.events as Event[]).map((e) => e.type)).toEqual(["user.entered_region_country"]);
    expect((await api("GET", `/v1/events/${event._id}`)).body.event).toEqual(event);
    // kind: conversions only, or location events only (the review queue's view).
    const conversions = await api("GET", `/v1/events?kind=conversion&userId=${user._id}`);
    expect((conversions.body.events as Event[]).map((e) => e.type)).toEqual(["in_store_purchase"]);
    const decided = await api("GET", `/v1/events?kind=location&userId=${user._id}`);
    expect((decided.body.events as Event[]).every((e) => e.type.startsWith("user."))).toBe(true);
    expect(decided.body.events).not.toHaveLength(0);
    expectError(await api("GET", "/v1/events?kind=purchases"), 400, "kind");
  });

  it("finds the user by the SDK's installId when the body names no user or device", async () => {
    const installId = unique("install");
    const { user } = await trackedDevice({ installId, userId: unique("by-install") });
    const res = await log({ installId, type: "opened_app" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body.event as Event).user).toMatchObject({ _id: user._id });
  });

  it("logs the mobile SDKs' conversion (type, no createdAt) by deviceId, and leaves the user as it was", async () => {
    const { deviceId, user } = await trackedDevice();
    const before = (await api("GET", `/v1/users/${user._id}`)).body.user;
    const res = await log({
      installId: `i-${deviceId}`,
      deviceId,
      type: "opened_app",
      metadata: { revenue: 0 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const event = res.body.event as Event;
    expect(event).toMatchObject({ type: "opened_app", metadata: { revenue: 0 } });
    expect(Math.abs(Date.parse(event.createdAt as string) - Date.now())).toBeLessThan(60_000);
    // Neither the user nor its location history changes.
    expect((await api("GET", `/v1/users/${user._id}`)).body.user).toEqual(before);
  });

  it("refuses what is not a conversion, naming the field, and writes nothing", async () => {
    const { deviceId, user } = await trackedDevice();
    expectError(await log({ deviceId }), 400, "type");
    expectError(await log({ deviceId, type: "user.entered_geofence" }), 400, "type");
    expectError(await log({ deviceId, name: "two words" }), 400, "name");
    expectError(await log({ type: "purchase" }), 400, "deviceId");
    expectError(
      await log({ deviceId, type: "purchase", metadata: { revenue: "12" } }),
      400,
      "metadata",
      /revenue/,
    );
    expectError(
      await log({ deviceId, type: "purchase", createdAt: new Date(Date.now() + 3_600_000).toISOString() }),
      400,
      "createdAt",
    );
    expectError(await log({ deviceId: unique("never-tracked"), type: "purchase" }), 404, "deviceId");
    expectError(await log({ userId: unique("nobody"), type: "purchase" }), 404, "userId");
    expectError(await log({ installId: unique("no-install"), type: "purchase" }), 404, "installId");
    const events = await api("GET", `/v1/events?userId=${user._id}&limit=100`);
    expect((events.body.events as Event[]).filter((e) => !e.type.startsWith("user."))).toEqual([]);
  });

  it("is not verified: a conversion is not a location decision", async () => {
    const { deviceId } = await trackedDevice();
    const event = (await log({ deviceId, type: "signed_up" })).body.event as Event;
    expectError(
      await api("PUT", `/v1/events/${event._id}/verification`, { json: { verification: 1 } }),
      400,
      "verification",
    );
  });
});
