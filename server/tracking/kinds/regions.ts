import { REGION_TYPES, type Regions, regionsAt } from "../../geodata/regions";
import { eventSubject } from "../../events/subject";
import type { Region } from "../../regions/embedded";
import { regionById, regionId } from "../../regions/ids";
import type { UserWrite } from "../../storage/tracking";
import type { StoredUser } from "../../storage/users";
import type { EventDraft, Kind } from "./kind";

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
 * The regions an anonymous device says it is in, by kind: the one at the fix (`here`) when it
 * names it, else one this thread answered.
 */
function regionsSent(ids: readonly string[], here: Regions): Regions {
  const named = new Set(ids);
  const found: Regions = {};
  for (const id of ids) {
    const r = regionById(id);
    if (r && (REGION_TYPES as readonly string[]).includes(r.type)) found[r.type as keyof typeof found] = r;
  }
  for (const type of REGION_TYPES) {
    const r = here[type];
    if (r && named.has(regionId(r))) found[type] = r;
  }
  return found;
}

/**
 * Country, state, postal code and DMA changes (docs/data.md), from the regions at the fix
 * (embedded and imported). At sea, or in the slivers between coarse shapes along coasts, the user
 * keeps the regions it was in, so a walk along a shore does not flip it out of and back into its
 * country. Exits (smallest first) before entries (largest first).
 */
export const regions: Kind<Regions> = {
  name: "regions",
  parts: [],
  load: async ({ fix }) => regionsAt(fix.longitude, fix.latitude),
  async sent({ fix }, input) {
    const here = regionsAt(fix.longitude, fix.latitude);
    // The regions it says it was in, judged against those at the fix.
    return { state: here, before: regionsSent(input.regionIds ?? [], here) as Partial<UserWrite> };
  },
  next(before: StoredUser | null, _fix, here): Partial<UserWrite> {
    const keep = !here.country;
    return Object.fromEntries(
      REGION_TYPES.map((t) => [t, keep ? regionOf(before?.[t]) : (here[t] ?? null)]),
    ) as Partial<UserWrite>;
  },
  detect({ before, after }) {
    const events: EventDraft[] = [];
    const event = (type: string, region: Region): EventDraft => ({
      type,
      about: { region: region as unknown as EventDraft["about"]["region"] },
      subject: eventSubject({ region }),
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
