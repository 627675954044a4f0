import { describe, expect, it } from "vitest";
import { distanceOf, durationOf } from "./format";

describe("route distances and durations on the wire", () => {
  it("writes metric distances in meters, then kilometres", () => {
    expect(distanceOf(849.6, "metric")).toEqual({ value: 849.6, text: "850 m" });
    expect(distanceOf(3212, "metric")).toEqual({ value: 3212, text: "3.2 km" });
  });

  it("writes imperial distances in feet, then miles, with the value in feet", () => {
    expect(distanceOf(100, "imperial")).toEqual({ value: 328.1, text: "330 ft" });
    expect(distanceOf(3218.7, "imperial")).toEqual({ value: 10560, text: "2.0 mi" });
  });

  it("writes durations in minutes, then hours and minutes", () => {
    expect(durationOf(540)).toEqual({ value: 9, text: "9 min" });
    expect(durationOf(10)).toEqual({ value: 0.2, text: "1 min" });
    expect(durationOf(98 * 60)).toEqual({ value: 98, text: "1 hr 38 min" });
    expect(durationOf(120 * 60)).toEqual({ value: 120, text: "2 hr" });
  });
});
