import { beforeEach, describe, expect, it } from "vitest";
import { forgetProcessOnce } from "../process-once";
import type { TrackedGeofence } from "../storage/geofences";
import { decodedOnce } from "./decoded";

/** A stored geofence per seq, at a version; `reads` counts what the loader was asked for. */
function store() {
  const versions = new Map<number, number>();
  const reads: number[][] = [];
  const row = (seq: number): TrackedGeofence =>
    ({
      seq,
      description: `g${seq} v${versions.get(seq)}`,
      geometry: [[[0, 0]]],
      ring: [],
    }) as unknown as TrackedGeofence;
  return {
    versions,
    reads,
    at: (...seqs: number[]) => seqs.map((seq) => ({ seq, version: versions.get(seq)! })),
    load: async (seqs: number[]) => {
      reads.push(seqs);
      return seqs.filter((s) => versions.has(s)).map(row);
    },
  };
}

describe("geofences decoded once per version", () => {
  beforeEach(() => forgetProcessOnce("decoded-geofences"));

  it("reads a geofence again only when its version changed", async () => {
    const s = store();
    s.versions.set(1, 100).set(2, 100);
    const first = await decodedOnce(s.at(1, 2), s.load);
    expect(first.map((g) => g.description).sort()).toEqual(["g1 v100", "g2 v100"]);
    const again = await decodedOnce(s.at(1, 2), s.load);
    expect(again).toEqual(expect.arrayContaining(first));
    expect(s.reads).toEqual([[1, 2]]);

    s.versions.set(2, 101);
    const edited = await decodedOnce(s.at(1, 2), s.load);
    expect(edited.map((g) => g.description).sort()).toEqual(["g1 v100", "g2 v101"]);
    expect(s.reads).toEqual([[1, 2], [2]]);
  });

  it("leaves out a geofence deleted before it was read", async () => {
    const s = store();
    s.versions.set(1, 100).set(2, 100);
    const asked = s.at(1, 2);
    s.versions.delete(2);
    expect((await decodedOnce(asked, s.load)).map((g) => g.seq)).toEqual([1]);
  });
});
