import { describe, expect, it } from "vitest";
import { z } from "zod";
import { booleanish, intIn, optionalInt, parseCoordinate } from "./fields";

describe("parseCoordinate", () => {
  it("reads latitude first", () => {
    expect(parseCoordinate("40.78, -73.97")).toEqual({ latitude: 40.78, longitude: -73.97 });
  });
  it.each([
    ["40.78", /latitude>,<longitude/],
    ["40.78,", /longitude is missing/],
    [",-73.97", /latitude is missing/],
    ["x,1", /latitude is not a number/],
    ["1,y", /longitude is not a number/],
    ["-90.1,0", /latitude must be between/],
    ["0,180.5", /longitude must be between/],
    ["1,2,3", /latitude>,<longitude/],
  ])("explains what is wrong with %j", (text, message) => {
    expect(parseCoordinate(text)).toMatch(message);
  });
});

describe("number and boolean fields", () => {
  it("take text and typed values alike", () => {
    const schema = z.object({ limit: intIn(1, 10, 5), on: booleanish.optional(), n: optionalInt(1, 3) });
    expect(schema.parse({})).toEqual({ limit: 5, on: undefined, n: undefined });
    expect(schema.parse({ limit: "7", on: "false", n: "" })).toEqual({ limit: 7, on: false, n: undefined });
    expect(schema.parse({ limit: 3, on: true, n: 2 })).toEqual({ limit: 3, on: true, n: 2 });
    expect(schema.safeParse({ limit: "11" }).success).toBe(false);
    expect(schema.safeParse({ n: 4 }).success).toBe(false);
    expect(schema.safeParse({ on: "yes" }).success).toBe(false);
  });
});
