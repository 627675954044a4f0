import { describe, expect, it } from "vitest";
import { WALK_KMH, barrierBlocks, ferryKmh, maxspeedKmh, wayProfile } from "./profiles";

const p = (tags: Record<string, string>) => wayProfile(tags);
const both = (speed: number) => ({ forward: speed, backward: speed });
const none = { forward: 0, backward: 0 };

describe("car", () => {
  it("drives roads by class, both ways unless one-way", () => {
    expect(p({ highway: "residential" })!.car).toEqual(both(30));
    expect(p({ highway: "primary" })!.car).toEqual(both(70));
    expect(p({ highway: "residential", oneway: "yes" })!.car).toEqual({ forward: 30, backward: 0 });
    expect(p({ highway: "residential", oneway: "-1" })!.car).toEqual({ forward: 0, backward: 30 });
    // Implied: roundabouts and motorways; oneway=no undoes it.
    expect(p({ highway: "primary", junction: "roundabout" })!.car.backward).toBe(0);
    expect(p({ highway: "motorway" })!.car).toEqual({ forward: 110, backward: 0 });
    expect(p({ highway: "motorway", oneway: "no" })!.car).toEqual(both(110));
  });

  it("keeps off footways, paths, tracks and what access tags close", () => {
    for (const highway of ["footway", "path", "steps", "cycleway", "pedestrian", "track", "bridleway"]) {
      expect(p({ highway })?.car ?? none, highway).toEqual(none);
    }
    expect(p({ highway: "residential", access: "no" })).toBeNull(); // no mode at all
    expect(p({ highway: "residential", motor_vehicle: "no" })!.car).toEqual(none);
    expect(p({ highway: "residential", access: "no", motorcar: "yes" })!.car).toEqual(both(30));
    expect(p({ highway: "service", access: "private", foot: "yes" })!.car).toEqual(none);
    expect(p({ highway: "residential", motor_vehicle: "destination" })!.car).toEqual(both(30));
  });

  it("drives below the speed limit", () => {
    expect(p({ highway: "primary", maxspeed: "50" })!.car.forward).toBe(45);
    expect(p({ highway: "residential", maxspeed: "20 mph" })!.car.forward).toBeCloseTo(28.97, 1);
    expect(maxspeedKmh("50;30")).toBe(30);
    expect(maxspeedKmh("CH:urban")).toBe(0);
    expect(maxspeedKmh(undefined)).toBe(0);
  });
});

describe("bike", () => {
  it("rides cycleways and streets, and not motorways unless allowed", () => {
    expect(p({ highway: "cycleway" })!.bike).toEqual(both(18));
    expect(p({ highway: "residential" })!.bike).toEqual(both(16));
    expect(p({ highway: "motorway" })!.bike).toEqual(none);
    expect(p({ highway: "trunk" })!.bike).toEqual(none);
    expect(p({ highway: "trunk", bicycle: "yes" })!.bike).toEqual(both(18));
    expect(p({ highway: "residential", bicycle: "no" })!.bike).toEqual(none);
  });

  it("pushes on steps and footways, and rides footways where bikes are allowed", () => {
    expect(p({ highway: "steps" })!.bike).toEqual(both(WALK_KMH));
    expect(p({ highway: "footway" })!.bike).toEqual(both(WALK_KMH));
    expect(p({ highway: "footway", bicycle: "yes" })!.bike).toEqual(both(12));
    expect(p({ highway: "cycleway", bicycle: "dismount" })!.bike).toEqual(both(WALK_KMH));
  });

  it("rides against a one-way street only where contraflow is allowed, else pushes", () => {
    expect(p({ highway: "residential", oneway: "yes" })!.bike).toEqual({ forward: 16, backward: WALK_KMH });
    expect(p({ highway: "residential", oneway: "yes", "oneway:bicycle": "no" })!.bike).toEqual(both(16));
    expect(p({ highway: "residential", oneway: "yes", cycleway: "opposite_lane" })!.bike).toEqual(both(16));
    expect(p({ highway: "residential", oneway: "-1", "cycleway:left": "opposite" })!.bike).toEqual(both(16));
  });
});

describe("foot", () => {
  it("walks footways, paths, steps, pedestrian areas and streets", () => {
    for (const highway of ["footway", "path", "steps", "pedestrian", "residential", "track", "primary"]) {
      expect(p({ highway })!.foot, highway).toEqual(both(WALK_KMH));
    }
    expect(p({ highway: "pedestrian", area: "yes" })!.foot).toEqual(both(WALK_KMH));
  });

  it("respects foot=no on any highway, and never walks motorways or motorroads", () => {
    expect(p({ highway: "residential", foot: "no" })!.foot).toEqual(none);
    expect(p({ highway: "footway", foot: "no" })?.foot ?? none).toEqual(none);
    expect(p({ highway: "motorway", foot: "yes" })!.foot).toEqual(none);
    expect(p({ highway: "trunk", motorroad: "yes" })!.foot).toEqual(none);
    expect(p({ highway: "cycleway" })!.foot).toEqual(none);
    expect(p({ highway: "cycleway", foot: "designated" })!.foot).toEqual(both(WALK_KMH));
  });

  it("ignores one-way streets", () => {
    expect(p({ highway: "residential", oneway: "yes" })!.foot).toEqual(both(WALK_KMH));
  });
});

describe("ferries, flags and barriers", () => {
  it("takes ferries at their scheduled speed, flagged for avoid", () => {
    const ferry = wayProfile({ route: "ferry", duration: "0:30" }, 10_000)!;
    expect(ferry.car).toEqual(both(20));
    expect(ferry.ferry).toBe(true);
    expect(ferryKmh({ route: "ferry" }, 5000)).toBe(10);
    expect(ferryKmh({ duration: "PT1H" }, 30_000)).toBe(30);
    expect(wayProfile({ route: "ferry", motor_vehicle: "no" }, 1000)!.car).toEqual(none);
  });

  it("flags tolls and motorways and trunk roads", () => {
    expect(p({ highway: "motorway", toll: "yes" })).toMatchObject({ toll: true, highway: true });
    expect(p({ highway: "trunk_link" })!.highway).toBe(true);
    expect(p({ highway: "primary" })).toMatchObject({ toll: false, highway: false });
  });

  it("leaves out what no mode uses", () => {
    expect(p({ building: "yes" })).toBeNull();
    expect(p({ highway: "proposed" })).toBeNull();
    expect(p({ highway: "motorway", access: "no" })).toBeNull();
  });

  it("stops cars at bollards and locked gates, people at walls", () => {
    expect(barrierBlocks({ barrier: "bollard" }, "car")).toBe(true);
    expect(barrierBlocks({ barrier: "bollard" }, "bike")).toBe(false);
    expect(barrierBlocks({ barrier: "bollard" }, "foot")).toBe(false);
    expect(barrierBlocks({ barrier: "gate" }, "car")).toBe(false);
    expect(barrierBlocks({ barrier: "gate", access: "private" }, "car")).toBe(true);
    expect(barrierBlocks({ barrier: "lift_gate" }, "car")).toBe(false);
    expect(barrierBlocks({ barrier: "stile" }, "bike")).toBe(true);
    expect(barrierBlocks({ barrier: "bollard", motor_vehicle: "yes" }, "car")).toBe(false);
    expect(barrierBlocks({}, "car")).toBe(false);
  });
});
