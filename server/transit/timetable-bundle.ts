import type { Bundle, BundleLayer, BundleWriter } from "../bundles/file";
import { type Timetable } from "./timetable";
import { timetableFromParts, timetableParts } from "./timetable-parts";

/**
 * The timetable layer of a bundle: a GTFS feed's timetable (./timetable.ts), each of its parts
 * as one blob, by name. Written by the GTFS import, read once per file by the transit engine.
 */
export const TIMETABLE: BundleLayer = {
  name: "timetable",
  since: 6,
  schema: `CREATE TABLE transit (part TEXT PRIMARY KEY, data BLOB NOT NULL);`,
};

export function writeTimetable(w: BundleWriter, timetable: Timetable) {
  w.blobs("transit", timetableParts(timetable));
}

/** The GTFS timetable of a transit import, read once per file, or null (not a transit import). */
export function timetableOf(bundle: Bundle): Timetable | null {
  return bundle.once("timetable", () => {
    if (!bundle.has(TIMETABLE)) return null;
    const parts = bundle.blobs("transit");
    return parts.size ? timetableFromParts(parts) : null;
  });
}
