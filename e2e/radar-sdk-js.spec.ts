import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { importOsm } from "../server/imports/osm-import";
import { geoland } from "../tests/support/geocode-fixture";
import { writeOsmPbf } from "../tests/support/osm-pbf";
import { api, consoleErrors, serverKeys, signIn, unique } from "./support";

/**
 * Radar's own web SDK (radar-sdk-js from npm, as a team's app ships it) pointed at this server
 * in a real browser: initialize (it asks GET /v1/config), trackOnce, logConversion,
 * validateAddress.
 */
const SDK = path.resolve("node_modules/radar-sdk-js/dist/radar.js");

test("radar-sdk-js initializes, tracks and logs a conversion against this server", async ({ page }) => {
  test.skip(!existsSync(SDK), "radar-sdk-js is not installed (npm install)");
  const errors = consoleErrors(page);
  const { url, publishable } = serverKeys();
  const tag = unique("web");
  await api("PUT", `/v1/geofences/${tag}/store`, {
    description: `Store ${tag}`,
    type: "circle",
    coordinates: [-40.5, -25.5],
    radius: 150,
  });
  await page.route(`${url}/radar-sdk.js`, (route) =>
    route.fulfill({ path: SDK, contentType: "text/javascript" }),
  );
  await page.goto(`${url}/login`);
  const config = page.waitForResponse((r) => new URL(r.url()).pathname === "/v1/config");
  const userId = unique("web-user");
  const result = await page.evaluate(
    async ({ publishable, host, userId }) => {
      const { default: Radar } = (await import(`${host}/radar-sdk.js`)) as {
        default: {
          initialize(key: string, options: Record<string, unknown>): void;
          trackOnce(p: Record<string, unknown>): Promise<Record<string, unknown>>;
          logConversion(p: Record<string, unknown>): Promise<Record<string, unknown>>;
        };
      };
      Radar.initialize(publishable, { host, logLevel: "none" });
      const track = await Radar.trackOnce({ latitude: -25.5, longitude: -40.5, accuracy: 12, userId });
      const conversion = await Radar.logConversion({
        name: "checkout",
        revenue: 19.5,
        metadata: { sku: "A1" },
      });
      return { track, conversion };
    },
    { publishable, host: url, userId },
  );
  expect((await config).status()).toBe(200);
  const track = result.track as {
    user: { userId: string; deviceType: string };
    events: { type: string; geofence?: { tag: string } }[];
    location: unknown;
  };
  expect(track.user).toMatchObject({ userId, deviceType: "Web" });
  expect(track.events.map((e) => [e.type, e.geofence?.tag])).toContainEqual(["user.entered_geofence", tag]);
  const conversion = result.conversion as { event: { type: string; metadata: Record<string, unknown> } };
  expect(conversion.event).toMatchObject({ type: "checkout", metadata: { sku: "A1", revenue: 19.5 } });
  expect(errors).toEqual([]);
});

test("radar-sdk-js validates an address against the imported ones", async ({ page }) => {
  test.skip(!existsSync(SDK), "radar-sdk-js is not installed (npm install)");
  const { url, publishable } = serverKeys();
  const pbf = path.join(mkdtempSync(path.join(tmpdir(), "geoland-")), "geoland.osm.pbf");
  writeOsmPbf(pbf, geoland());
  await importOsm(pbf, { dir: serverKeys().geodataDir });
  await expect
    .poll(async () => (await api("GET", "/v1/geocode/forward?query=Hauptstrasse%203%20Neustadt")).status)
    .toBe(200);
  // Browser SDKs call validation with the publishable key: an admin allows that.
  await signIn(page, "admin");
  const allow = (on: boolean) =>
    page.request.patch(`${url}/api/settings`, { data: { publishableSearch: on }, headers: { origin: url } });
  expect((await allow(true)).status()).toBe(200);
  try {
    await page.route(`${url}/radar-sdk.js`, (route) =>
      route.fulfill({ path: SDK, contentType: "text/javascript" }),
    );
    const result = await page.evaluate(
      async ({ publishable, host }) => {
        const { default: Radar } = (await import(`${host}/radar-sdk.js`)) as {
          default: {
            initialize(key: string, options: Record<string, unknown>): void;
            validateAddress(p: Record<string, unknown>): Promise<Record<string, unknown>>;
          };
        };
        Radar.initialize(publishable, { host, logLevel: "none" });
        return Radar.validateAddress({
          number: "3",
          street: "Hauptstrasse",
          city: "Neustadt",
          stateCode: "NP",
          postalCode: "4711",
          countryCode: "XG",
        });
      },
      { publishable, host: url },
    );
    expect(result).toMatchObject({
      address: { number: "3", street: "Hauptstraße", city: "Neustadt" },
      result: { verificationStatus: "verified" },
    });
  } finally {
    await allow(false);
  }
});

test("radar-sdk-js starts and tracks trips against this server; its trip updates by externalId alone are refused to a publishable key", async ({
  page,
}) => {
  test.skip(!existsSync(SDK), "radar-sdk-js is not installed (npm install)");
  // The SDK's trip updates are refused (404), as this test expects.
  const errors = consoleErrors(page, /status of 404/);
  const { url, publishable } = serverKeys();
  const tag = unique("dropoff");
  await api("PUT", `/v1/geofences/${tag}/door`, {
    description: `Door ${tag}`,
    type: "circle",
    coordinates: [-40.7, -25.7],
    radius: 100,
  });
  await page.route(`${url}/radar-sdk.js`, (route) =>
    route.fulfill({ path: SDK, contentType: "text/javascript" }),
  );
  await page.goto(`${url}/login`);
  const userId = unique("driver");
  const [first, second] = [unique("order"), unique("order")];
  const result = await page.evaluate(
    async ({ publishable, host, userId, tag, first, second }) => {
      type Call = (...args: unknown[]) => Promise<Record<string, unknown>>;
      const { default: Radar } = (await import(`${host}/radar-sdk.js`)) as {
        default: Record<"startTrip" | "updateTrip" | "completeTrip" | "cancelTrip" | "trackOnce", Call> & {
          initialize(key: string, options: Record<string, unknown>): void;
        };
      };
      Radar.initialize(publishable, { host, logLevel: "none" });
      const options = {
        userId,
        externalId: first,
        destinationGeofenceTag: tag,
        destinationGeofenceExternalId: "door",
        mode: "car",
        approachingThreshold: 3,
        scheduledArrivalAt: new Date(Date.now() + 20 * 60_000),
      };
      const refusal = (call: Promise<unknown>) =>
        call.then(
          () => "answered",
          (e: Error) => e.name,
        );
      const started = await Radar.startTrip(options);
      const away = await Radar.trackOnce({ latitude: -25.75, longitude: -40.7, accuracy: 10, userId });
      // The web SDK names the trip by externalId alone: with a publishable key, that reaches no
      // trip (anyone could end anyone's). A server updates it with the secret key instead.
      const updated = await refusal(Radar.updateTrip({ ...options, metadata: { note: "ring twice" } }));
      const there = await Radar.trackOnce({ latitude: -25.7, longitude: -40.7, accuracy: 10, userId });
      const completed = await refusal(Radar.completeTrip());
      await Radar.startTrip({ ...options, externalId: second });
      const canceled = await refusal(Radar.cancelTrip());
      return { started, away, updated, there, completed, canceled };
    },
    { publishable, host: url, userId, tag, first, second },
  );
  type Trip = {
    externalId: string;
    status: string;
    eta?: { source: string };
    metadata?: Record<string, unknown>;
  };
  type Answer = { trip: Trip; events: { type: string }[] };
  type Track = { user: { trip?: Trip }; events: { type: string }[] };
  const types = (a: { events: { type: string }[] }) => a.events.map((e) => e.type);
  expect((result.started as Answer).trip).toMatchObject({ externalId: first, status: "started" });
  const away = result.away as Track;
  expect(away.user.trip).toMatchObject({ externalId: first, eta: { source: "straight_line" } });
  expect(types(away)).toContain("user.started_trip");
  expect(types(result.there as Track)).toContain("user.arrived_at_trip_destination");
  expect([result.updated, result.completed, result.canceled]).toEqual([
    "RadarNotFoundError",
    "RadarNotFoundError",
    "RadarNotFoundError",
  ]);
  // The app's server completes the first with the secret key; the SDK's next update sees no trip.
  const done = await api("PATCH", `/v1/trips/${first}/update`, { status: "completed" });
  expect(done.body.trip).toMatchObject({ externalId: first, status: "completed" });
  const after = await page.evaluate(
    async ({ host, userId }) => {
      const { default: Radar } = (await import(`${host}/radar-sdk.js`)) as {
        default: { trackOnce(p: Record<string, unknown>): Promise<{ user: { trip?: unknown } }> };
      };
      return Radar.trackOnce({ latitude: -25.7, longitude: -40.7, accuracy: 10, userId });
    },
    { host: url, userId },
  );
  expect(after.user.trip).toMatchObject({ externalId: second });
  expect(errors).toEqual([]);
});
