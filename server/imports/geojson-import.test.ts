import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Bundle } from "../bundles/file";
import { features as featuresOf } from "../geodata/features";
import { GeojsonImportError, importGeojsonRegions } from "./geojson-import";

const square = (lng: number, lat: number, size: number) => [
  [
    [lng, lat],
    [lng + size, lat],
    [lng + size, lat + size],
    [lng, lat + size],
    [lng, lat],
  ],
];

function writeGeojson(features: unknown[], file = "dma.geojson") {
  const dir = mkdtempSync(path.join(tmpdir(), "geojson-"));
  const input = path.join(dir, file);
  writeFileSync(input, JSON.stringify({ type: "FeatureCollection", features }));
  return { dir: path.join(dir, "geodata"), input };
}

const plains = {
  type: "Feature",
  properties: { name: "Plains", code: "700" },
  geometry: { type: "Polygon", coordinates: square(-96.5, 38.5, 0.5) },
};
const islands = {
  type: "Feature",
  id: 701,
  properties: { NAME: "Islands" },
  geometry: { type: "MultiPolygon", coordinates: [square(-90, 30, 0.1), square(-89, 30, 0.1)] },
};

describe("GeoJSON region import", () => {
  it("makes a region of each polygon feature, with its name and code, and leaves out the rest", async () => {
    const point = {
      type: "Feature",
      properties: { name: "A point" },
      geometry: { type: "Point", coordinates: [0, 0] },
    };
    const { dir, input } = writeGeojson([plains, islands, point]);
    const summary = await importGeojsonRegions(input, { dir, type: "dma" });
    expect(summary).toMatchObject({ name: "dma", regions: 2, skippedFeatures: 1 });
    const file = new Bundle(summary.file);
    expect(featuresOf(file).regionsAt(-96.2, 38.7)).toMatchObject([
      { type: "dma", name: "Plains", code: "700" },
    ]);
    // A MultiPolygon is one region; its code falls back to the feature's id.
    expect(featuresOf(file).regionsAt(-88.95, 30.05)).toMatchObject([
      { type: "dma", name: "Islands", code: "701" },
    ]);
    expect(featuresOf(file).regionsAt(-89.5, 30.05)).toEqual([]);
    // 0.5° × 0.5° at 38.5–39°N: 55.6 km × 43.4 km, about 2,411 km².
    expect(featuresOf(file).regionsAt(-96.2, 38.7)[0]!.area / 1e6).toBeCloseTo(2411, -1);
    expect(JSON.parse(file.meta().counts!)).toMatchObject({ regions: 2, skippedFeatures: 1 });
    // The extent of every region, for the dashboard's "Show" button.
    expect(JSON.parse(file.meta().bbox!)).toEqual([-96.5, 30, -88.9, 39]);
    file.close();
  });

  it("reads the name and code from the properties it is told", async () => {
    const feature = {
      type: "Feature",
      properties: { dma_name: "Plains", dma_code: 700, name: "not this" },
      geometry: plains.geometry,
    };
    const { dir, input } = writeGeojson([feature]);
    const summary = await importGeojsonRegions(input, {
      dir,
      type: "dma",
      name: "nielsen",
      nameField: "dma_name",
      codeField: "dma_code",
    });
    const file = new Bundle(summary.file);
    expect(featuresOf(file).regionsAt(-96.2, 38.7)).toMatchObject([{ name: "Plains", code: "700" }]);
    expect(path.basename(summary.file)).toBe("nielsen.sqlite");
    file.close();
  });

  it.each([
    [
      "a feature without a name",
      [plains, { ...islands, properties: {} }],
      /feature 2: no "name" or "NAME" or "Name" property.*--name-field/,
    ],
    [
      "a position that is not [lng, lat]",
      [
        {
          ...plains,
          geometry: {
            type: "Polygon",
            coordinates: [
              [
                [-96, 38],
                [-96, 95],
                [-95, 38],
                [-96, 38],
              ],
            ],
          },
        },
      ],
      /feature 1, polygon 1, ring 1: \[-96,95\] is not a \[longitude, latitude\] position/,
    ],
    [
      "a ring of two positions",
      [
        {
          ...plains,
          geometry: {
            type: "Polygon",
            coordinates: [
              [
                [-96, 38],
                [-95, 38],
              ],
            ],
          },
        },
      ],
      /ring 1: a ring needs 4 positions/,
    ],
    [
      "no polygons at all",
      [{ type: "Feature", properties: { name: "x" }, geometry: null }],
      /no Polygon or MultiPolygon/,
    ],
  ])("refuses %s, and the previous import keeps serving", async (_what, features, message) => {
    const { dir, input } = writeGeojson([plains]);
    await importGeojsonRegions(input, { dir, type: "dma" });
    writeFileSync(input, JSON.stringify({ type: "FeatureCollection", features }));
    await expect(importGeojsonRegions(input, { dir, type: "dma" })).rejects.toThrow(message);
    await expect(importGeojsonRegions(input, { dir, type: "dma" })).rejects.toBeInstanceOf(
      GeojsonImportError,
    );
    expect(readdirSync(dir)).toEqual(["dma.sqlite"]);
    const file = new Bundle(path.join(dir, "dma.sqlite"));
    expect(featuresOf(file).regionsAt(-96.2, 38.7)).toMatchObject([{ name: "Plains" }]);
    file.close();
  });

  it("refuses what is not GeoJSON, and unknown region types", async () => {
    const { dir, input } = writeGeojson([plains]);
    writeFileSync(input, "{ not json");
    await expect(importGeojsonRegions(input, { dir, type: "dma" })).rejects.toThrow(/not JSON/);
    writeFileSync(input, JSON.stringify({ type: "Topology", objects: {} }));
    await expect(importGeojsonRegions(input, { dir, type: "dma" })).rejects.toThrow(
      /not a GeoJSON FeatureCollection/,
    );
    await expect(importGeojsonRegions(input, { dir, type: "zone" as "dma" })).rejects.toThrow(
      /type must be one of/,
    );
  });
});
