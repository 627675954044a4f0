import { describe, expect, it } from "vitest";
import { insideFraction } from "./inside";

describe("insideFraction", () => {
  it("is 1 when the accuracy circle is inside, 0 when outside, 1/2 on the line", () => {
    expect(insideFraction(50, 20)).toBe(1);
    expect(insideFraction(-50, 20)).toBe(0);
    expect(insideFraction(0, 20)).toBeCloseTo(0.5, 10);
  });
  it("is at most the geofence's share of a larger accuracy circle", () => {
    expect(insideFraction(5, 400, Math.PI * 200 * 200)).toBeCloseTo(0.25, 10);
    expect(insideFraction(50, 20, Math.PI * 200 * 200)).toBe(1);
  });
  it("grows with the distance inside", () => {
    const values = [-15, -5, 0, 5, 15].map((d) => insideFraction(d, 20));
    for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThan(values[i - 1]!);
  });
});
