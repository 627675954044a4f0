import { describe, expect, it } from "vitest";
import { GeofenceIndex, type IndexedGeofence } from "./geofence-index";

const box = (seq: number, lng: number, extra: Partial<IndexedGeofence> = {}): IndexedGeofence => ({
  seq,
  version: 1,
  live: false,
  tag: null,
  enabled: true,
  minLng: lng,
  minLat: 0,
  maxLng: lng + 0.001,
  maxLat: 0.001,
  ...extra,
});
const around = (lng: number) => ({
  minLng: lng - 0.0005,
  minLat: -0.0005,
  maxLng: lng + 0.0015,
  maxLat: 0.0015,
});

describe("the index of geofences, for searches", () => {
  it("answers one world's boxes, of some tags only and enabled ones only, as of the changes applied", () => {
    const index = new GeofenceIndex();
    index.load(3, [
      box(1, 0, { tag: "store" }),
      box(2, 0, { tag: "depot" }),
      box(3, 0, { tag: "store", enabled: false }),
      box(4, 0, { live: true, tag: "store" }),
      box(5, 1, { tag: "store" }),
    ]);
    const seqs = (found: IndexedGeofence[]) => found.map((g) => g.seq).sort();
    expect(seqs(index.inBox(false, around(0)))).toEqual([1, 2, 3]);
    expect(seqs(index.inBox(false, around(0), { enabledOnly: true }))).toEqual([1, 2]);
    expect(seqs(index.inBox(false, around(0), { tags: ["store"], enabledOnly: true }))).toEqual([1]);
    expect(seqs(index.inBox(true, around(0), { tags: ["store"] }))).toEqual([4]);
    expect(index.inBox(false, around(0)).find((g) => g.seq === 2)).toMatchObject({ tag: "depot", minLng: 0 });

    // Moved away, retagged, enabled and deleted since the tree was built.
    index.apply([
      { n: 4, seq: 1, now: box(1, 1, { tag: "store", version: 2 }) },
      { n: 5, seq: 2, now: box(2, 0, { tag: "store", version: 2 }) },
      { n: 6, seq: 3, now: box(3, 0, { tag: "store", version: 2 }) },
      { n: 7, seq: 5, now: null },
    ]);
    expect(seqs(index.inBox(false, around(0), { tags: ["store"], enabledOnly: true }))).toEqual([2, 3]);
    expect(seqs(index.inBox(false, around(1)))).toEqual([1]);
    expect(index.inBox(false, around(1))[0]).toMatchObject({ version: 2, minLng: 1 });
  });
});
