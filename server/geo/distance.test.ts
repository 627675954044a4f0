import { describe, expect, it } from "vitest";
import { circleRing } from "./circle";
import { bboxAround, destination, haversine } from "./distance";

describe("haversine", () => {
  it("matches known distances", () => {
    // Paris to London, about 343.5 km.
    expect(haversine(2.3522, 48.8566, -0.1276, 51.5072) / 1000).toBeCloseTo(343.5, 0);
    expect(haversine(10, 10, 10, 10)).toBe(0);
  });
});

describe("destination", () => {
  it("goes the asked distance in the asked direction", () => {
    const [lng, lat] = destination(-73.97, 40.78, 1000, 90);
    expect(haversine(-73.97, 40.78, lng, lat)).toBeCloseTo(1000, 3);
    expect(lat).toBeCloseTo(40.78, 3);
    expect(lng).toBeGreaterThan(-73.97);
  });
});

describe("bboxAround", () => {
  it("contains the whole circle", () => {
    const box = bboxAround(-73.97, 40.78, 5000);
    for (let b = 0; b < 360; b += 15) {
      const [lng, lat] = destination(-73.97, 40.78, 5000, b);
      expect(lng).toBeGreaterThanOrEqual(box.minLng);
      expect(lng).toBeLessThanOrEqual(box.maxLng);
      expect(lat).toBeGreaterThanOrEqual(box.minLat);
      expect(lat).toBeLessThanOrEqual(box.maxLat);
    }
  });
  it("widens to every longitude across the antimeridian", () => {
    const box = bboxAround(179.99, 0, 5000);
    expect(box.minLng).toBe(-180);
    expect(box.maxLng).toBe(180);
  });
});

describe("circleRing", () => {
  it("is closed and every vertex lies on the circle", () => {
    const ring = circleRing([-73.97, 40.78], 250);
    expect(ring).toHaveLength(65);
    expect(ring[0]).toEqual(ring[64]);
    for (const [lng, lat] of ring) expect(haversine(-73.97, 40.78, lng, lat)).toBeCloseTo(250, 0);
  });
});
