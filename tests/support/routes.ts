import { readdirSync } from "node:fs";
import path from "node:path";

const appDir = path.resolve(import.meta.dirname, "../../app");

/**
 * Every route handler file's folder under app/ ("v1/geofences/[id]"), so tests that must cover
 * every route find a new one without being told.
 */
export function routeFiles(dir = appDir, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return routeFiles(path.join(dir, entry.name), rel);
    return entry.name === "route.ts" ? [prefix] : [];
  });
}
