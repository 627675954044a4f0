import { prisma } from "./db/client";
import { settingValue } from "./db/sqlite/keys";
import { withWriteLock } from "./db/write-lock";

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

export function getSettings(): Settings {
  return { publishableSearch: settingValue("publishableSearch") === "true" };
}

export async function updateSettings(change: Partial<Settings>): Promise<Settings> {
  await withWriteLock(async () => {
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined) continue;
      const stored = { value: String(value), updatedAt: new Date() };
      await prisma.setting.upsert({ where: { key }, create: { key, ...stored }, update: stored });
    }
  });
  return getSettings();
}
