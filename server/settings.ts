import { processOnce } from "./process-once";
import { storage } from "./storage";

/**
 * Service-wide settings, changed by admins in the dashboard.
 *
 * publishableSearch: whether publishable keys may call geocoding, search (geofences, places,
 * autocomplete; never users) and routing. Off by default (the spec says secret); on, browser
 * SDKs work (spec/wire-contract.md).
 *
 * publishableGeofenceSync: whether publishable keys are told the geofences around a device
 * (`POST /v1/sync/region`, a track's `nearbyGeofences`), which the SDKs need to make events
 * offline and to register geofences with the phone. On by default; off, every geofence near a
 * point stays unknown to whoever holds the publishable key (docs/security.md).
 */
export interface Settings {
  publishableSearch: boolean;
  publishableGeofenceSync: boolean;
}

/** Each setting's value when none is stored. */
const DEFAULTS: Settings = { publishableSearch: false, publishableGeofenceSync: true };

/**
 * How long a setting read is kept: publishable requests ask at every update. A change made here
 * applies at once; one made by another app process within this time.
 */
const KEPT_MS = 1000;
const kept = () =>
  processOnce("settings-read", () => new Map<keyof Settings, { value: boolean; at: number }>());

/** One setting (a request asks only the one it needs: one read, at most once a second). */
export async function setting(name: keyof Settings): Promise<boolean> {
  const now = Date.now();
  const known = kept().get(name);
  if (known && now - known.at < KEPT_MS) return known.value;
  const stored = await storage().settings.get(name);
  const value = stored === null ? DEFAULTS[name] : stored === "true";
  kept().set(name, { value, at: now });
  return value;
}

export async function getSettings(): Promise<Settings> {
  const [publishableSearch, publishableGeofenceSync] = await Promise.all([
    setting("publishableSearch"),
    setting("publishableGeofenceSync"),
  ]);
  return { publishableSearch, publishableGeofenceSync };
}

export async function updateSettings(change: Partial<Settings>): Promise<Settings> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(change)) if (value !== undefined) values[key] = String(value);
  await storage().settings.set(values, new Date());
  kept().clear();
  return getSettings();
}
