import { z } from "zod";
import { processOnce } from "../process-once";
import { storage } from "../storage";

/**
 * What GET /v1/config answers Radar's SDKs (docs/api.md#config): `meta.sdkConfiguration`, the
 * SDK's own settings (log level, what to do on start, offline event generation, the offline
 * tracking presets…), and `meta.trackingOptions` when the server steers the devices' live
 * tracking. Set by admins per environment (test, live) on the Settings page; an untouched server
 * sends no field it was not given, since the SDKs' defaults differ between platforms.
 *
 * Every value is checked as the SDKs parse it: a log level Android's enum knows (else it throws),
 * JSON booleans and integers, no nulls in tracking options (iOS crashes on them), and no unknown
 * field (a typo would be silently ignored by the SDK).
 */

const bool = z.boolean({ error: "must be true or false (a JSON boolean)" });
const int = (min: number, max: number) =>
  z
    .number({ error: `must be an integer from ${min} to ${max}` })
    .int(`must be an integer from ${min} to ${max}`)
    .min(min, `must be an integer from ${min} to ${max}`)
    .max(max, `must be an integer from ${min} to ${max}`);
const oneOf = <T extends string>(values: readonly [T, ...T[]]) =>
  z.enum(values, { error: `must be one of ${values.join(", ")}` });
/** epoch milliseconds (Android) or an ISO 8601 time (iOS), as the SDKs write and read times */
export const instant = z.union([z.number().int().nonnegative(), z.iso.datetime({ offset: true })], {
  error: "must be epoch milliseconds or an ISO 8601 time",
});

const DAY_S = 86_400;

/** The SDKs' log levels (Android's RadarLogLevel, in lower case). */
export const LOG_LEVELS = ["none", "error", "warning", "info", "debug"] as const;

/** The SDKs' tracking options (RadarTrackingOptions on Android and iOS), every field optional. */
export const trackingOptionsSchema = z
  .strictObject(
    {
      desiredStoppedUpdateInterval: int(0, DAY_S),
      fastestStoppedUpdateInterval: int(0, DAY_S),
      desiredMovingUpdateInterval: int(0, DAY_S),
      fastestMovingUpdateInterval: int(0, DAY_S),
      desiredSyncInterval: int(0, DAY_S),
      desiredAccuracy: oneOf(["high", "medium", "low", "none"]),
      stopDuration: int(0, DAY_S),
      stopDistance: int(0, 100_000),
      startTrackingAfter: instant,
      stopTrackingAfter: instant,
      replay: oneOf(["stops", "none", "all"]),
      sync: oneOf(["all", "stopsAndExits", "none", "events"]),
      useStoppedGeofence: bool,
      stoppedGeofenceRadius: int(0, 10_000),
      useMovingGeofence: bool,
      movingGeofenceRadius: int(0, 10_000),
      syncGeofences: bool,
      syncGeofencesLimit: int(0, 100),
      foregroundServiceEnabled: bool,
      beacons: bool,
      // iOS only
      showBlueBar: bool,
      useVisits: bool,
      useSignificantLocationChanges: bool,
      useIndoorScan: bool,
      useMotion: bool,
      usePressure: bool,
    },
    {
      error: (i) =>
        i.code === "unrecognized_keys" ? `unknown tracking option ${i.keys.join(", ")}` : undefined,
    },
  )
  .partial();

/** The presets the SDKs switch between offline (RadarRemoteTrackingOptions). */
const PRESETS = ["default", "onTrip", "inGeofence"] as const;

const remotePresetSchema = z.strictObject({
  type: oneOf(PRESETS),
  // Android reads it without a null check: required.
  trackingOptions: trackingOptionsSchema,
  geofenceTags: z.array(z.string().min(1).max(256)).max(100).optional(),
});

/** meta.sdkConfiguration (RadarSdkConfiguration on Android and iOS), every field optional. */
export const sdkConfigurationSchema = z
  .strictObject(
    {
      logLevel: oneOf(LOG_LEVELS),
      startTrackingOnInitialize: bool,
      trackOnceOnAppOpen: bool,
      useSyncRegion: bool,
      offlineEventGenerationEnabled: bool,
      bufferGeofenceEntries: bool,
      bufferGeofenceExits: bool,
      /** minutes */
      defaultGeofenceDwellThreshold: int(0, 1440),
      maxReplayBufferSize: int(1, 120),
      usePersistence: bool,
      extendFlushReplays: bool,
      useLogPersistence: bool,
      useOpenedAppConversion: bool,
      syncAfterSetUser: bool,
      stopDetection: bool,
      startUpdatesWhileInUse: bool,
      useOfflineRTOUpdates: bool,
      useForegroundLocationUpdatedAtMsDiff: bool,
      /** milliseconds */
      locationManagerTimeout: int(0, 600_000),
      remoteTrackingOptions: z
        .array(remotePresetSchema)
        .max(PRESETS.length)
        .refine((list) => new Set(list.map((p) => p.type)).size === list.length, {
          error: "names each preset (default, onTrip, inGeofence) at most once",
        }),
    },
    { error: (i) => (i.code === "unrecognized_keys" ? `unknown field ${i.keys.join(", ")}` : undefined) },
  )
  .partial();

export const sdkSettingsSchema = z.strictObject({
  sdkConfiguration: sdkConfigurationSchema,
  /** live tracking steered by the server; null or absent: the app's own */
  trackingOptions: trackingOptionsSchema.nullable().optional(),
});

export type SdkSettings = z.output<typeof sdkSettingsSchema>;

const keyOf = (live: boolean) => `sdk:${live ? "live" : "test"}`;

/** An environment's SDK settings (nothing set: an empty configuration). */
export async function getSdkSettings(live: boolean): Promise<SdkSettings> {
  const text = await storage().settings.get(keyOf(live));
  if (!text) return { sdkConfiguration: {} };
  return JSON.parse(text) as SdkSettings;
}

export async function setSdkSettings(live: boolean, settings: SdkSettings): Promise<SdkSettings> {
  const stored: SdkSettings = {
    sdkConfiguration: settings.sdkConfiguration,
    ...(settings.trackingOptions && { trackingOptions: settings.trackingOptions }),
  };
  await storage().settings.set({ [keyOf(live)]: JSON.stringify(stored) }, new Date());
  served().delete(live);
  return stored;
}

/** The meta fields of GET /v1/config: only what was set. */
export async function configMeta(live: boolean): Promise<Record<string, unknown>> {
  const s = await servedSdkSettings(live);
  return {
    ...(Object.keys(s.sdkConfiguration).length > 0 && { sdkConfiguration: s.sdkConfiguration }),
    ...(s.trackingOptions && { trackingOptions: s.trackingOptions }),
  };
}

/**
 * Each environment's SDK settings as devices are answered with them (GET /v1/config, the track
 * answers' steering), read at most once a second per process and shared by its routes: the SDKs
 * ask at every app start, and on PostgreSQL each read was a round trip. A change on the Settings
 * page reaches the process that saved it at once and every other within a second.
 */
const served = () =>
  processOnce("servedSdkSettings", () => new Map<boolean, { at: number; settings: Promise<SdkSettings> }>());

function servedSdkSettings(live: boolean): Promise<SdkSettings> {
  const now = Date.now();
  const cache = served();
  const cached = cache.get(live);
  if (cached && now - cached.at < 1000) return cached.settings;
  const settings = getSdkSettings(live);
  const entry = { at: now, settings };
  cache.set(live, entry);
  // A failed read is not kept: the next request asks again.
  settings.catch(() => cache.get(live) === entry && cache.delete(live));
  return settings;
}

/**
 * The tracking options the server steers the devices' live tracking with (`meta.trackingOptions`
 * of every track answer, as the SDKs read it there too), or undefined.
 */
export async function steeredTrackingOptions(live: boolean) {
  return (await servedSdkSettings(live)).trackingOptions ?? undefined;
}
