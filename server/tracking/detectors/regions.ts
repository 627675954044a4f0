import { REGION_TYPES } from "../../geodata/regions";
import type { Region } from "../../regions/embedded";
import type { StoredUser } from "../../storage/users";
import type { UserWrite } from "../../storage/tracking";
import type { Detector, EventDraft } from "./types";

/** Postal areas are small next to a fix's accuracy, and the embedded US ones approximate. */
const POSTAL_CODE_PROBABILITY = 0.8;

type RegionKind = (typeof REGION_TYPES)[number];
const EVENT_NAME = { country: "country", state: "state", postalCode: "postal_code", dma: "dma" } as const;

const regionOf = (v: unknown): Region | null => (v && typeof v === "object" ? (v as Region) : null);
const sameRegion = (a: Region | null, b: Region | null) =>
  !!a && !!b && a.type === b.type && (a.code ?? a.name) === (b.code ?? b.name);

/** The event types of a region kind's entries and exits. */
export const regionEventType = (kind: RegionKind, change: "entered" | "exited") =>
  `user.${change}_region_${EVENT_NAME[kind]}`;

/**
 * Country, state, postal code and DMA changes (docs/data.md). At sea, or in the slivers between
 * coarse shapes along coasts, the user keeps the regions it was in, so a walk along a shore does
 * not flip it out of and back into its country. Exits (smallest first) before entries (largest
 * first).
 */
export const regions: Detector = {
  next(before: StoredUser | null, _fix, snapshot): Partial<UserWrite> {
    const keep = !snapshot.regions.country;
    return Object.fromEntries(
      REGION_TYPES.map((t) => [t, keep ? regionOf(before?.[t]) : (snapshot.regions[t] ?? null)]),
    ) as Partial<UserWrite>;
  },
  detect({ before, after }) {
    const events: EventDraft[] = [];
    const event = (type: string, region: Region): EventDraft => ({
      type,
      region,
      // Country and state shapes are coarse next to a device's accuracy; postal areas are not,
      // and the embedded ones are approximate: see docs/confidence.md.
      probability: region.type === "postalCode" ? POSTAL_CODE_PROBABILITY : 1,
      band: "core",
      duration: null,
    });
    for (const kind of [...REGION_TYPES].reverse()) {
      const old = regionOf(before?.[kind]);
      if (old && !sameRegion(old, regionOf(after[kind])))
        events.push(event(regionEventType(kind, "exited"), old));
    }
    for (const kind of REGION_TYPES) {
      const now = regionOf(after[kind]);
      if (now && !sameRegion(now, regionOf(before?.[kind])))
        events.push(event(regionEventType(kind, "entered"), now));
    }
    return { events };
  },
};
