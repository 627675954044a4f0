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

export async function getSettings(): Promise<Settings> {
  const { settings } = storage();
  const [search, sync] = await Promise.all([
    settings.get("publishableSearch"),
    settings.get("publishableGeofenceSync"),
  ]);
  return { publishableSearch: search === "true", publishableGeofenceSync: sync !== "false" };
}

export async function updateSettings(change: Partial<Settings>): Promise<Settings> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(change)) if (value !== undefined) values[key] = String(value);
  await storage().settings.set(values, new Date());
  return getSettings();
}
