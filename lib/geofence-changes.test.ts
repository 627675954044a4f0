import { describe, expect, it } from "vitest";
import { changesBetween } from "./geofence-changes";
import type { Geofence } from "./types";

const base: Geofence = {
  _id: "g",
  description: "Gate A",
  tag: "gates",
  externalId: "a",
  type: "circle",
  geometryCenter: { type: "Point", coordinates: [1, 2] },
  geometryRadius: 50,
  enabled: true,
  createdAt: "2026-11-01T00:00:00.000Z",
  updatedAt: "2026-11-01T00:00:00.000Z",
};

describe("changesBetween", () => {
  it("names each field another edit changed, in words", () => {
    expect(changesBetween(base, { ...base, updatedAt: "2026-11-02T00:00:00.000Z" })).toEqual([]);
    expect(
      changesBetween(base, {
        ...base,
        description: "Gate B",
        externalId: undefined,
        geometryRadius: 80,
        metadata: { floor: 2 },
        enabled: false,
        dwellThreshold: 10,
      }),
    ).toEqual([
      "the description (now “Gate B”)",
      "the external ID (now empty)",
      "the shape",
      "the metadata",
      "disabled it",
      "the dwell threshold (now 10 min)",
    ]);
  });
});
