import { describe, expect, it } from "vitest";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../../scripts/fresh-server";
import { api, expectError, keys, signIn } from "../support/api";

/**
 * GET /v1/config as Radar's SDKs call it at start, and the SDK settings admins set per
 * environment. One test: the settings of the test environment are shared by the suite.
 */

const as = (cookie: string) => ({ key: null, headers: { cookie } });

/** The query radar-sdk-android's getConfig sends. */
const CONFIG =
  "/v1/config?installId=3f1c&sessionId=1764000000&locationAuthorization=GRANTED_BACKGROUND&locationAccuracyAuthorization=FULL";

const settings = {
  sdkConfiguration: {
    logLevel: "debug",
    startTrackingOnInitialize: true,
    trackOnceOnAppOpen: false,
    offlineEventGenerationEnabled: true,
    bufferGeofenceEntries: false,
    defaultGeofenceDwellThreshold: 10,
    maxReplayBufferSize: 60,
    remoteTrackingOptions: [
      {
        type: "default",
        trackingOptions: { desiredMovingUpdateInterval: 150, desiredAccuracy: "medium", replay: "stops" },
      },
      {
        type: "onTrip",
        trackingOptions: { desiredMovingUpdateInterval: 30, sync: "all", syncGeofences: true },
        geofenceTags: ["store"],
      },
    ],
  },
  trackingOptions: {
    desiredStoppedUpdateInterval: 3600,
    desiredMovingUpdateInterval: 1200,
    desiredAccuracy: "medium",
    stopDuration: 140,
    stopDistance: 70,
    replay: "stops",
    sync: "all",
    useStoppedGeofence: false,
    syncGeofences: true,
    syncGeofencesLimit: 10,
    showBlueBar: false,
  },
};

/** A track answer, once the steering (or its absence) has reached the server: at most ~1 s. */
async function steeredInTrack(expected = true) {
  const deadline = Date.now() + 3000;
  for (;;) {
    const res = await api("POST", "/v1/track", {
      key: keys.publishable,
      json: { deviceId: "steered-device", latitude: 10.5, longitude: -40.5, accuracy: 10 },
    });
    expect(res.status).toBe(200);
    const meta = res.body.meta as Record<string, unknown>;
    if ("trackingOptions" in meta === expected || Date.now() > deadline)
      return res.body as { meta: Record<string, unknown> };
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("SDK configuration", () => {
  it("sends nothing it was not given, then what an admin set for that environment, checked as the SDKs parse it", async () => {
    const admin = await signIn(FRESH_ACCOUNTS.admin, FRESH_PASSWORD);
    // Untouched: the SDKs keep their own defaults (which differ between Android and iOS).
    const untouched = await api("GET", CONFIG, { key: keys.publishable });
    expect(untouched.status).toBe(200);
    expect(untouched.body).toEqual({ meta: { code: 200 } });

    const saved = await api("PUT", "/api/settings/sdk", { ...as(admin), json: settings });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const config = await api("GET", CONFIG, { key: keys.publishable });
    expect(config.body).toEqual({ meta: { code: 200, ...settings } });
    expect((await api("GET", "/api/settings/sdk", as(admin))).body).toMatchObject({ live: false, settings });
    // Track answers carry the steered options too (the SDKs read meta.trackingOptions there), in
    // every process within a second.
    expect((await steeredInTrack()).meta.trackingOptions).toEqual(settings.trackingOptions);

    // What the SDKs would choke on is refused, naming the field, and changes nothing.
    const refused: [unknown, RegExp][] = [
      [{ sdkConfiguration: { logLevel: "verbose" } }, /logLevel.*none, error, warning, info, debug/],
      [
        { sdkConfiguration: { startTrackingOnInitialize: "true" } },
        /startTrackingOnInitialize.*JSON boolean/,
      ],
      [{ sdkConfiguration: { maxReplayBufferSize: 121 } }, /maxReplayBufferSize.*1 to 120/],
      [{ sdkConfiguration: { logLvl: "debug" } }, /unknown field logLvl/],
      [{ sdkConfiguration: { remoteTrackingOptions: [{ type: "default" }] } }, /trackingOptions/],
      [
        {
          sdkConfiguration: {
            remoteTrackingOptions: [
              { type: "default", trackingOptions: {} },
              { type: "default", trackingOptions: {} },
            ],
          },
        },
        /at most once/,
      ],
      [{ sdkConfiguration: {}, trackingOptions: { desiredAccuracy: null } }, /desiredAccuracy/],
      [
        { sdkConfiguration: {}, trackingOptions: { desiredAccuracy: "best" } },
        /desiredAccuracy.*high, medium, low/,
      ],
      [
        { sdkConfiguration: {}, trackingOptions: { desiredSyncIntervall: 20 } },
        /unknown tracking option desiredSyncIntervall/,
      ],
    ];
    for (const [body, message] of refused) {
      const res = await api("PUT", "/api/settings/sdk", { ...as(admin), json: body });
      expectError(res, 400, undefined, message);
    }
    expect((await api("GET", CONFIG, { key: keys.publishable })).body).toEqual({
      meta: { code: 200, ...settings },
    });

    // The live environment has settings of its own.
    expect((await api("PATCH", "/api/session", { ...as(admin), json: { live: true } })).status).toBe(200);
    expect((await api("GET", "/api/settings/sdk", as(admin))).body).toMatchObject({
      live: true,
      settings: { sdkConfiguration: {} },
    });

    // Only admins set them.
    const analyst = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    expectError(await api("PUT", "/api/settings/sdk", { ...as(analyst), json: settings }), 403);

    // Clearing the steered tracking: the app's own options again.
    await api("PATCH", "/api/session", { ...as(admin), json: { live: false } });
    const cleared = await api("PUT", "/api/settings/sdk", {
      ...as(admin),
      json: { sdkConfiguration: {}, trackingOptions: null },
    });
    expect(cleared.status).toBe(200);
    expect((await api("GET", CONFIG, { key: keys.publishable })).body).toEqual({ meta: { code: 200 } });
    expect((await steeredInTrack(false)).meta).toEqual({ code: 200 });
  });
});
