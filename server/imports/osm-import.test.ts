import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { osmPbf, writeOsmPbf } from "../../tests/support/osm-pbf";
import { TESTLAND, testland } from "../../tests/support/osm-fixture";
import { Bundle } from "../bundles/file";
import { features } from "../geodata/features";
import { hasTextIndex, matchDocuments } from "../geocode/text-index";
import { roadGraphOf } from "../routing/graph-bundle";
import { importName } from "./import-file";
import { importOsm } from "./osm-import";
import { placeId } from "./osm-features";
import { ftsExpression } from "../geocode/text-query";
import { arcsOfEdges, edgeIndex, snap } from "../routing/snap";
import { dijkstra } from "../routing/search";

const ALL_LAYERS = ["address", "street", "place", "region"] as const;
const fresh = () => mkdtempSync(path.join(tmpdir(), "geodata-"));

async function importTestland(dir = fresh()) {
  const pbf = path.join(dir, "testland.osm.pbf");
  writeOsmPbf(pbf, testland());
  const progress: number[] = [];
  const summary = await importOsm(pbf, { dir, onProgress: (p) => progress.push(p.fraction) });
  return { dir, pbf, summary, progress, file: new Bundle(summary.file) };
}

describe("OSM import of a synthetic extract", () => {
  it("builds a text index of addresses, streets, places and regions, searched as people type", async () => {
    const { file, progress } = await importTestland();
    expect(hasTextIndex(file)).toBe(true);
    const find = (text: string, prefix = false) =>
      matchDocuments(file, ftsExpression(text, { prefix }), [...ALL_LAYERS], 50).map(
        (d) => `${d.layer}:${d.ref}`,
      );
    const layers = (text: string, prefix = false) =>
      [
        ...new Set(
          matchDocuments(file, ftsExpression(text, { prefix }), [...ALL_LAYERS], 50).map((d) => d.layer),
        ),
      ].sort();
    // "Main St": the street (its three ways in one document) and its two house numbers.
    expect(layers("Main St")).toEqual(["address", "street"]);
    expect(find("main street").filter((d) => d.startsWith("street"))).toHaveLength(1);
    expect(find("2 Main Street 10001").filter((d) => d.startsWith("address"))).toHaveLength(1);
    expect(layers("bean there")).toEqual(["place"]);
    // By name: the country, and the airport and park named after it...
    const named = (text: string) =>
      [
        ...new Set(
          matchDocuments(file, ftsExpression(text, { columns: "name" }), [...ALL_LAYERS], 50).map(
            (d) => d.layer,
          ),
        ),
      ].sort();
    expect(named("Testland")).toEqual(["place", "region"]);
    // ...and by the areas they lie in: an address without addr:city is found with its city's name.
    expect(find("2 Main Street Testville").filter((d) => d.startsWith("address"))).toHaveLength(1);
    // Village Road has no way: its seven addresses, and a street per village made from them.
    expect(find("Village Road Northern Testland")).toHaveLength(9);
    expect(find("Village Road Northern Testland").filter((d) => d.startsWith("street"))).toHaveLength(2);
    // A postcode mapped on addresses only finds them and their street.
    expect(layers("20002")).toEqual(["address", "street"]);
    expect(layers("10002")).toEqual(["region"]);
    // While typing: the last word as a prefix.
    expect(layers("Village R", true)).toEqual(["address", "street"]);
    expect(layers("Testl", true)).toEqual(["address", "place", "region", "street"]);
    expect(find("Testl")).toEqual([]);
    // The index is the import's last 10%.
    expect(progress.some((f) => f > 0.9 && f < 1)).toBe(true);
  });

  it("builds the road graph of the extract's ways, which routes can be found on", async () => {
    const { file } = await importTestland();
    const g = roadGraphOf(file)!;
    // Main Street (3 nodes: its middle is no junction), the unnamed street and Garden Path.
    expect(g.edgeLength.length).toBe(3);
    expect(g.lng.length).toBe(6);
    const index = edgeIndex(g);
    const arcs = arcsOfEdges(g);
    const from = snap(g, index, arcs, 0.0192, 0.0199, "car", 50)!;
    const to = snap(g, index, arcs, 0.0248, 0.0199, "car", 50)!;
    expect(dijkstra(g, "car", from, to)!.meters).toBeCloseTo(623, -1);
    // Garden Path is a footway: people walk it, cars are snapped elsewhere.
    expect(snap(g, index, arcs, 0.02, 0.017, "foot", 20)).toBeDefined();
    expect(snap(g, index, arcs, 0.02, 0.017, "car", 20)).toBeUndefined();
  });

  it("extracts boundaries, places, addresses and streets, and reports progress to 100%", async () => {
    const { summary, progress, file } = await importTestland();
    expect(summary).toMatchObject({ name: "testland", places: 6, addresses: 9, streets: 1, regions: 6 });
    // The boundary whose way is missing from the extract is left out, not guessed.
    expect(summary.skippedRelations).toBe(1);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(file.meta()).toMatchObject({ name: "testland", source: "testland.osm.pbf" });
    file.close();
  });

  it("joins open ways into rings, and finds regions by containment, holes included", async () => {
    const { file } = await importTestland();
    const at = (p: { lng: number; lat: number }) =>
      features(file)
        .regionsAt(p.lng, p.lat)
        .map((r) => `${r.type}:${r.code ?? r.name}`);
    expect(at(TESTLAND.north)).toEqual(["state:NO", "country:XT"]);
    expect(at(TESTLAND.postal)).toEqual(["postalCode:10001", "county:Lower County", "country:XT"]);
    expect(at(TESTLAND.hole)).toEqual([
      "postalCode:10002",
      "city:Testville",
      "county:Lower County",
      "country:XT",
    ]);
    expect(at({ lng: 0.2, lat: 0.2 })).toEqual([]);
    const [country] = features(file)
      .regionsAt(0.05, 0.01)
      .filter((r) => r.type === "country");
    expect(country).toMatchObject({ name: "Testland", code: "XT" });
    // 0.1° square at the equator: about 123 km².
    expect(country!.area / 1e6).toBeCloseTo(123.6, 0);
    file.close();
  });

  it("keeps named places with categories, chain and group, under stable ids", async () => {
    const { file } = await importTestland();
    const places = features(file).placesIn({ minLng: -1, minLat: -1, maxLng: 1, maxLat: 1 });
    const byName = Object.fromEntries(places.map((p) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual([
      "Bean There",
      "Central Mall",
      "FreshCo",
      "Shoe Hut",
      "Testland International",
      "Testland Park",
    ]);
    expect(byName["Bean There"]).toMatchObject({
      categories: ["coffee-shop", "food-beverage"],
      chain: { slug: "bean-there", name: "Bean There" },
    });
    expect(byName["Testland International"]!.group).toBe("airports");
    expect(byName["Central Mall"]).toMatchObject({
      categories: ["shopping-mall", "shopping-retail"],
      group: "malls",
    });
    expect(byName["Central Mall"]!.ring?.length).toBe(10);
    // The park is a multipolygon with a hole; its location is inside the outer ring.
    expect(byName["Testland Park"]!.lng).toBeGreaterThan(0.07);
    expect(byName["Bean There"]!.oid).toMatch(/^1[0-9a-f]{23}$/);
    expect(byName["Central Mall"]!.oid).toBe(placeId("way", 200));
    expect(placeId("way", 200)).toBe("2" + "c8".padStart(23, "0"));
    file.close();
  });

  it("replaces the import of the same name, and a failed import leaves the previous one", async () => {
    const { dir, pbf, file } = await importTestland();
    const ids = features(file)
      .placesIn({ minLng: -1, minLat: -1, maxLng: 1, maxLat: 1 })
      .map((p) => p.oid)
      .sort();
    file.close();
    const again = await importOsm(pbf, { dir });
    expect(again.places).toBe(6);
    // Place ids survive a re-import (verifications refer to them).
    const reopened = new Bundle(again.file);
    expect(
      features(reopened)
        .placesIn({ minLng: -1, minLat: -1, maxLng: 1, maxLat: 1 })
        .map((p) => p.oid)
        .sort(),
    ).toEqual(ids);
    reopened.close();
    expect(readdirSync(dir).filter((n) => n.endsWith(".sqlite"))).toEqual(["testland.sqlite"]);

    const truncated = path.join(dir, "testland-cut.osm.pbf");
    const bytes = osmPbf(testland());
    writeFileSync(truncated, bytes.subarray(0, bytes.length - 40));
    await expect(importOsm(truncated, { dir, name: "testland" })).rejects.toThrow();
    // No partial file left, and the previous import still answers.
    expect(readdirSync(dir).filter((n) => n.includes("partial"))).toEqual([]);
    const still = new Bundle(path.join(dir, "testland.sqlite"));
    expect(features(still).regionsAt(TESTLAND.north.lng, TESTLAND.north.lat)).toHaveLength(2);
    still.close();
  });

  it("names an import after its file and refuses names that are not file-safe", async () => {
    expect(importName("/x/liechtenstein-2021.osm.pbf")).toBe("liechtenstein-2021");
    await expect(
      importOsm(path.join(fresh(), "x.osm.pbf"), { dir: fresh(), name: "../evil" }),
    ).rejects.toThrow();
  });
});

const shared = path.resolve("../shared/data/osm");

describe.runIf(existsSync(shared))("OSM import of the shared real extracts", () => {
  it.each([
    ["liechtenstein-2021", { lng: 9.5215, lat: 47.1415 }, "LI"],
    ["monaco-2016", { lng: 7.4246, lat: 43.7384 }, undefined],
    ["andorra-2021", { lng: 1.5218, lat: 42.5063 }, "AD"],
    ["beatty-nevada", { lng: -116.759, lat: 36.9088 }, undefined],
  ])(
    "imports %s",
    async (name, point, country) => {
      const dir = fresh();
      const summary = await importOsm(path.join(shared, `${name}.osm.pbf`), { dir });
      expect(summary.nodes).toBeGreaterThan(1000);
      expect(summary.streets).toBeGreaterThan(10);
      const file = new Bundle(summary.file);
      if (country) {
        expect(
          features(file)
            .regionsAt(point.lng, point.lat)
            .find((r) => r.type === "country")?.code,
        ).toBe(country);
      }
      file.close();
    },
    60_000,
  );
});

if (!existsSync(shared))
  console.warn(`[osm-import.test] ${shared} is absent: the real-extract import tests did not run.`);
