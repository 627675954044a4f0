import { describe, expect, it } from "vitest";
import { insideFraction } from "../geofences/inside";
import { bandOf, confidenceOf, estimatedPrecision } from "./confidence";

describe("confidence", () => {
  it("maps geometry to high, medium and low", () => {
    expect(confidenceOf(insideFraction(30, 20))).toBe(3);
    expect(confidenceOf(insideFraction(10, 20))).toBe(2);
    expect(confidenceOf(insideFraction(2, 20))).toBe(1);
    expect(bandOf(1)).toBe("core");
    expect(bandOf(0.8)).toBe("edge");
  });
  it("rises with acceptances and falls with rejections", () => {
    const p = 0.6;
    expect(estimatedPrecision(p, 0, 0)).toBe(p);
    expect(estimatedPrecision(p, 3, 0)).toBeGreaterThan(0.7);
    expect(estimatedPrecision(p, 0, 3)).toBeLessThan(p);
    expect(estimatedPrecision(p, 40, 0)).toBeGreaterThan(0.95);
  });
  it("lets rejections lower even a certain prior, and acceptances win it back", () => {
    // A fix wholly inside: geometry says 1, and staff say otherwise.
    expect(confidenceOf(estimatedPrecision(1, 0, 0))).toBe(3);
    expect(estimatedPrecision(1, 0, 1)).toBeCloseTo(0.8, 10);
    expect(confidenceOf(estimatedPrecision(1, 0, 1))).toBe(2);
    expect(confidenceOf(estimatedPrecision(1, 0, 2))).toBe(1);
    expect(estimatedPrecision(1, 0, 100)).toBeLessThan(0.04);
    // 19 of 20 verdicts right: 95.8%, high again.
    expect(confidenceOf(estimatedPrecision(1, 19, 1))).toBe(3);
  });
  it("is the mean of a Beta posterior: the prior counts as four verdicts", () => {
    expect(estimatedPrecision(0.5, 2, 0)).toBeCloseTo((2 + 2) / 6, 10);
    expect(estimatedPrecision(0.8, 1, 3)).toBeCloseTo((3.2 + 1) / 8, 10);
  });
});
