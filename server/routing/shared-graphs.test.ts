import { mkdtempSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { roadlandOsm } from "../../tests/support/road-fixture";
import { writeOsmPbf } from "../../tests/support/osm-pbf";
import { Bundle } from "../bundles/file";
import { forgetProcessOnce } from "../process-once";
import { importOsm } from "../imports/osm-import";
import type { RoadGraph } from "./graph";
import { graphKey, roadGraphOf, shareRoadGraphs } from "./graph-bundle";

/**
 * Road graphs in shared memory, as a routing worker sees them: the first thread
 * to load an import's graph loads it into SharedArrayBuffers and announces it; a thread that was
 * handed it adopts it instead of loading its own; a new import of the file is another graph.
 */

let file: string;
beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "shared-graphs-"));
  const pbf = path.join(dir, "roadland.osm.pbf");
  writeOsmPbf(pbf, roadlandOsm());
  file = (await importOsm(pbf, { dir })).file;
}, 60_000);
afterAll(() => forgetProcessOnce("shared-road-graphs"));

describe("shared road graphs", () => {
  it("loads a graph once into shared memory, announces it, and hands it to the other threads", async () => {
    const announced: [string, RoadGraph][] = [];
    shareRoadGraphs([], (key, graph) => announced.push([key, graph]));
    const first = roadGraphOf(new Bundle(file))!;
    expect(announced.map(([k]) => k)).toEqual([graphKey(file)]);
    expect(first.lng.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Object.values(first.hierarchies!).every((h) => h.rank.buffer instanceof SharedArrayBuffer)).toBe(
      true,
    );

    // Another thread (a module of its own), handed what was announced, adopts it: the same
    // memory, nothing loaded.
    forgetProcessOnce("shared-road-graphs");
    vi.resetModules();
    const other = await import("./graph-bundle");
    const again: string[] = [];
    other.shareRoadGraphs(announced, (key) => again.push(key));
    const second = other.roadGraphOf(new Bundle(file))!;
    expect(second).toBe(announced[0]![1]);
    expect(again).toEqual([]);
  });

  it("treats a new import of the same file as another graph, and forgets the old one", async () => {
    const {
      adoptRoadGraph: adopt,
      graphKey: keyOf,
      roadGraphOf: graphOf,
      shareRoadGraphs: share,
    } = await import("./graph-bundle");
    const announced: string[] = [];
    share([], (key) => announced.push(key));
    const oldKey = keyOf(file);
    const before = graphOf(new Bundle(file))!;
    const later = new Date(Date.now() + 5_000);
    utimesSync(file, later, later);
    const after = graphOf(new Bundle(file))!;
    expect(after).not.toBe(before);
    expect(announced.at(-1)).toBe(keyOf(file));
    expect(keyOf(file)).not.toBe(oldKey);
    // A late message with the old import's graph does not bring it back over the new one.
    adopt(oldKey, before);
    expect(graphOf(new Bundle(file))).toBe(after);
  });
});
