import { storage } from "./storage";

/**
 * Service-wide settings, changed by admins in the dashboard.
 *
 * publishableSearch: whether publishable keys may call geocoding, search (geofences, places,
 * autocomplete; never users) and routing. Off by default (the spec says secret); on, browser
 * SDKs work (spec/wire-contract.md).
 */
export interface Settings {
  publishableSearch: boolean;
}

export async function getSettings(): Promise<Settings> {
  return { publishableSearch: (await storage().settings.get("publishableSearch")) === "true" };
}

export async function updateSettings(change: Partial<Settings>): Promise<Settings> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(change)) if (value !== undefined) values[key] = String(value);
  await storage().settings.set(values, new Date());
  return getSettings();
}
