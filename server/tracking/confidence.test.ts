import { describe, expect, it } from "vitest";
import { bandOf, confidenceOf, estimatedPrecision, insideFraction } from "./confidence";

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
