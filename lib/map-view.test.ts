import { describe, expect, it } from "vitest";
import { boundsParam, busiestArea, formatView, parseView } from "./map-view";

describe("boundsParam", () => {
  it("pads the view and rounds it outward, so small pans ask the same question", () => {
    const a = boundsParam({ south: 40.703, west: -74.013, north: 40.797, east: -73.912 });
    const b = boundsParam({ south: 40.7034, west: -74.0126, north: 40.7974, east: -73.9116 });
    expect(a).toBe(b);
    expect(a).toBe("40.67,-74.04|40.83,-73.88");
    const [sw, ne] = a.split("|").map((c) => c.split(",").map(Number));
    expect(sw![0]).toBeLessThan(40.703 - 0.02);
    expect(ne![1]).toBeGreaterThan(-73.912 + 0.02);
  });

  it("keeps latitudes on the globe and turns a view wider than the world into the world", () => {
    expect(boundsParam({ south: -85, west: -400, north: 85, east: 400 })).toBe("-90,-180|90,180");
  });

  it("writes a view across 180° with west above east", () => {
    const [sw, ne] = boundsParam({ south: -20, west: 170, north: -10, east: 190 })
      .split("|")
      .map((c) => c.split(",").map(Number));
    expect(sw![1]).toBeGreaterThan(160);
    expect(ne![1]).toBeLessThan(-160);
  });
});

describe("view in the address", () => {
  it("reads back what it writes, and refuses what is not a view", () => {
    expect(parseView(formatView([-73.97, 40.78], 14))).toEqual({ center: [-73.97, 40.78], zoom: 14 });
    expect(parseView("91,0,3")).toBeUndefined();
    expect(parseView("a,b,c")).toBeUndefined();
    expect(parseView(null)).toBeUndefined();
  });
});

describe("busiestArea", () => {
  it("opens on the continent with more data, not on the whole world", () => {
    const newYork: [number, number][] = [
      [-73.97, 40.78],
      [-73.95, 40.76],
      [-74.0, 40.7],
    ];
    const paris: [number, number][] = [
      [2.35, 48.85],
      [2.3, 48.87],
    ];
    expect(busiestArea([...paris, ...newYork])).toEqual({
      south: 40.7,
      north: 40.78,
      west: -74.0,
      east: -73.95,
    });
  });

  it("has no area without data", () => {
    expect(busiestArea([])).toBeUndefined();
  });
});
