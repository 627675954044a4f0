import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { copySuffix, renamedTown, writeSyntheticExtract } from "../../bench/synthetic-osm";
import { Bundle } from "../bundles/file";
import { features } from "../geodata/features";
import { haversine } from "../geo/distance";
import { searchText } from "../geocode/forward";
import { roadGraphOf } from "../routing/graph-bundle";
import type { RoadGraph } from "../routing/graph";
import { importOsm } from "./osm-import";

/**
 * A country-sized import in small (skipped, with a warning, when ../shared/data is absent): four
 * copies of the shared Liechtenstein extract side by side (1.18 M nodes: the import's node table
 * spans two of its chunks, and the road graph is built from four times the ways) import to
 * exactly four times Liechtenstein, with copy 0 as the original and the others' towns renamed,
 * and a road graph that is four disjoint copies of Liechtenstein's; and forward geocoding finds
 * an address in the copy whose town was typed, among four streets of each name.
 */

const source = path.resolve("../shared/data/osm/liechtenstein-2021.osm.pbf");

describe.runIf(existsSync(source))("an import of four copies of Liechtenstein (shared extract)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "country-"));
  let one: { summary: Awaited<ReturnType<typeof importOsm>>; graph: RoadGraph };
  let four: { summary: Awaited<ReturnType<typeof importOsm>>; graph: RoadGraph; file: Bundle };
  // The four copies alone in a folder, for geocoding.
  const geodata = mkdtempSync(path.join(tmpdir(), "country-geodata-"));
  beforeAll(async () => {
    const single = await importOsm(source, { dir, name: "one" });
    one = { summary: single, graph: roadGraphOf(new Bundle(single.file))! };
    const pbf = path.join(dir, "four.osm.pbf");
    await writeSyntheticExtract(source, 4, pbf);
    const summary = await importOsm(pbf, { dir: geodata, name: "four" });
    const file = new Bundle(summary.file);
    four = { summary, graph: roadGraphOf(file)!, file };
  }, 120_000);

  it("holds four times everything, copy 0 as it was and the others' towns renamed", () => {
    for (const k of ["nodes", "ways", "places", "addresses", "streets"] as const)
      expect(four.summary[k], k).toBe(4 * one.summary[k]);
    const addresses = features(four.file).streetAddresses();
    const cities = new Set(addresses.map((a) => a.city));
    // Each copy's postcodes are its own: four times as many as one Liechtenstein has.
    const codes = new Set(addresses.map((a) => a.postcode).filter(Boolean));
    const oneCodes = new Set(
      addresses
        .filter((a) => !/ville/.test(a.city ?? "ville"))
        .map((a) => a.postcode)
        .filter(Boolean),
    );
    expect(codes.size).toBe(4 * oneCodes.size);
    expect(cities.has("Vaduz")).toBe(true);
    for (const c of [1, 2, 3])
      expect(cities.has(renamedTown("Vaduz", copySuffix(c))), copySuffix(c)).toBe(true);
    expect(renamedTown("Balzers (FL)", copySuffix(1))).toBe("Balzerskeville (FL)");
  });

  it("finds an address in the copy of the town typed, exact or between its street's numbers", () => {
    process.env.GEODATA_DIR = geodata;
    const town = renamedTown("Vaduz", copySuffix(2));
    const streets = new Map<string, { number: number; lng: number; lat: number }[]>();
    for (const a of features(four.file).streetAddresses()) {
      if (a.city !== town || !/^\d+$/.test(a.number)) continue;
      const list = streets.get(a.street) ?? [];
      list.push({ number: Number(a.number), lng: a.lng, lat: a.lat });
      streets.set(a.street, list);
    }
    // A street of that town with a gap in its numbers: one typed exactly, one in the gap.
    const [street, known] = [...streets].find(([, l]) => {
      const n = new Set(l.map((x) => x.number));
      return l.some((x) => x.number > 1 && !n.has(x.number - 1) && n.has(x.number - 2));
    })!;
    const numbers = new Set(known.map((x) => x.number));
    const after = known.find((x) => x.number > 1 && !numbers.has(x.number - 1) && numbers.has(x.number - 2))!;
    const [exact] = searchText(`${street} ${after.number}, ${town}`, { limit: 5 });
    expect(exact).toMatchObject({ layer: "address", confidence: "exact", city: town });
    expect(haversine(exact!.longitude!, exact!.latitude!, after.lng, after.lat)).toBeLessThan(50);
    const [between] = searchText(`${street} ${after.number - 1}, ${town}`, { limit: 5 });
    expect(between).toMatchObject({ layer: "address", confidence: "interpolated", city: town });
    expect(haversine(between!.longitude!, between!.latitude!, after.lng, after.lat)).toBeLessThan(500);
  });

  it("completes a prefix with the street where it is typed, though the copies have more of it than are read", () => {
    process.env.GEODATA_DIR = geodata;
    // "S" begins more streets, places and towns in four copies than one search reads (in the
    // index's order, by name): the last of them in copy 3's Vaduz, asked for where it is.
    const town = renamedTown("Vaduz", copySuffix(3));
    const home = features(four.file)
      .streetAddresses()
      .filter((a) => a.city === town && a.street.startsWith("S"))
      .sort((a, b) => a.street.localeCompare(b.street))
      .at(-1)!;
    const answers = searchText("S", { limit: 5, prefix: true, near: [home.lng, home.lat] });
    const street = answers.find((a) => a.layer === "street" && a.street === home.street);
    expect(street?.distance, JSON.stringify(answers.map((a) => a.formattedAddress))).toBeLessThan(1000);
  });

  it("builds a road graph of four disjoint copies, with each mode's hierarchy", () => {
    const [g, g1] = [four.graph, one.graph];
    expect(g.lng.length).toBe(4 * g1.lng.length);
    expect(g.head.length).toBe(4 * g1.head.length);
    expect(g.pointLng.length).toBe(4 * g1.pointLng.length);
    const total = (x: Float64Array) => x.reduce((a, b) => a + b, 0);
    // The same roads, within 1% (the copies further north have the same degrees in fewer meters).
    expect(Math.abs(total(g.edgeLength) / (4 * total(g1.edgeLength)) - 1)).toBeLessThan(0.01);
    for (const mode of ["car", "bike", "foot"] as const) {
      expect(g.hierarchies?.[mode]?.rank.length, mode).toBe(4 * g1.hierarchies![mode]!.rank.length);
    }
  });
});

if (!existsSync(source)) {
  console.warn(`[country-import.test] ${source} is absent: the import of four copies did not run.`);
}
