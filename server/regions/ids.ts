import { createHash } from "node:crypto";
import { processOnce } from "../process-once";
import type { Region } from "./embedded";

/**
 * Regions' `_id`s, as Radar's SDKs read them (an anonymous device keeps the ids of the regions it
 * is in and sends them back as `regionIds`): 24 hex digits of a hash of the region's type and
 * code (or name), the same in every process and across restarts. A region's id is remembered by
 * the thread that answered it (at most MAX_KNOWN, the oldest forgotten first), so an anonymous
 * device's next update through it can name the region it left.
 */

const MAX_KNOWN = 100_000;

const known = processOnce("region-ids", () => ({
  byKey: new Map<string, string>(),
  byId: new Map<string, Region>(),
}));

export function regionId(r: Region): string {
  const key = `${r.type}:${r.code ?? r.name}`;
  let id = known.byKey.get(key);
  if (id === undefined) {
    id = createHash("sha1").update(key).digest("hex").slice(0, 24);
    if (known.byKey.size >= MAX_KNOWN) {
      const [oldest] = known.byKey;
      known.byKey.delete(oldest![0]);
      known.byId.delete(oldest![1]);
    }
    known.byKey.set(key, id);
    known.byId.set(id, { type: r.type, name: r.name, ...(r.code !== undefined && { code: r.code }) });
  }
  return id;
}

/** A region answered by this thread with that `_id`, if it still remembers it. */
export const regionById = (id: string): Region | undefined => known.byId.get(id);

/** A region object (as stored on users and events) in wire form, with its `_id`; anything else as it is. */
export function withRegionId<T>(r: T): T {
  if (!r || typeof r !== "object" || !("type" in r) || !("name" in r)) return r;
  return { _id: regionId(r as unknown as Region), ...r };
}
