import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { importGeojsonRegions } from "../../server/imports/geojson-import";
import { api, keys } from "../support/api";

/**
 * DMA regions: no redistributable data has them, so an operator imports a GeoJSON of their own
 * (docs/data.md#regions-from-geojson). Imported into the running server's geodata folder, they
 * must show in context and turn into region events without a restart.
 */

const geodata = inject("geodataDir");
// A square in Kansas that no other test uses.
const inside = { latitude: 38.7, longitude: -96.2 };
const outside = { latitude: 38.7, longitude: -95.8 };

const context = async (p: { latitude: number; longitude: number }) => {
  const res = await api("GET", `/v1/context?coordinates=${p.latitude},${p.longitude}`, {
    key: keys.publishable,
  });
  expect(res.status).toBe(200);
  return res.body.context as Record<string, unknown>;
};

beforeAll(async () => {
  mkdirSync(geodata, { recursive: true });
  const input = path.join(mkdtempSync(path.join(tmpdir(), "dma-")), "test-dma.geojson");
  const ring = [
    [-96.5, 38.5],
    [-96, 38.5],
    [-96, 39],
    [-96.5, 39],
    [-96.5, 38.5],
  ];
  writeFileSync(
    input,
    JSON.stringify({
      type: "FeatureCollection",
      features: [
        {
          type: "Feature",
          properties: { dma_name: "Flint Hills", dma_code: "999" },
          geometry: { type: "Polygon", coordinates: [ring] },
        },
      ],
    }),
  );
  await importGeojsonRegions(input, {
    dir: geodata,
    type: "dma",
    nameField: "dma_name",
    codeField: "dma_code",
  });
  const deadline = Date.now() + 5000;
  while (!(await context(inside)).dma) {
    if (Date.now() > deadline) throw new Error("the running server did not pick up the DMA import");
    await new Promise((r) => setTimeout(r, 200));
  }
});

afterAll(() => rmSync(path.join(geodata, "test-dma.sqlite"), { force: true }));

describe("DMA regions imported from GeoJSON", () => {
  it("are answered by context, beside the embedded country and state", async () => {
    const c = await context(inside);
    expect(c.dma).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: "dma",
      name: "Flint Hills",
      code: "999",
    });
    expect(c.state).toMatchObject({ code: "KS" });
    expect(await context(outside)).not.toHaveProperty("dma");
  });

  it("turn into entered and exited region events for tracked users", async () => {
    type Ev = { type: string; region?: { type: string; code?: string } };
    const deviceId = `dma-${Math.random()}`;
    const track = async (p: { latitude: number; longitude: number }) => {
      const res = await api("POST", "/v1/track", {
        key: keys.publishable,
        json: { deviceId, accuracy: 20, ...p },
      });
      expect(res.status).toBe(200);
      const body = res.body as unknown as { user: Record<string, unknown>; events: Ev[] };
      return { user: body.user, dma: body.events.filter((e) => e.region?.type === "dma").map((e) => e.type) };
    };
    const entered = await track(inside);
    expect(entered.dma).toEqual(["user.entered_region_dma"]);
    expect(entered.user.dma).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: "dma",
      name: "Flint Hills",
      code: "999",
    });
    const left = await track(outside);
    expect(left.dma).toEqual(["user.exited_region_dma"]);
    expect(left.user).not.toHaveProperty("dma");
  });
});
