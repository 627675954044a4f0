import { describe, expect, it } from "vitest";
import type { Position } from "./distance";
import {
  bandRing,
  distanceToRing,
  pointInBandedRing,
  pointInPackedRing,
  findSelfIntersection,
  pointInRing,
  ringAreaAndCentroid,
  segmentsIntersect,
} from "./polygon";

const square: Position[] = [
  [0, 0],
  [0.01, 0],
  [0.01, 0.01],
  [0, 0.01],
  [0, 0],
];

describe("pointInRing", () => {
  it("tells inside from outside", () => {
    expect(pointInRing(0.005, 0.005, square)).toBe(true);
    expect(pointInRing(0.015, 0.005, square)).toBe(false);
    expect(pointInRing(-0.001, -0.001, square)).toBe(false);
  });
  it("handles concave rings", () => {
    const u: Position[] = [
      [0, 0],
      [3, 0],
      [3, 3],
      [2, 3],
      [2, 1],
      [1, 1],
      [1, 3],
      [0, 3],
      [0, 0],
    ];
    expect(pointInRing(1.5, 2, u)).toBe(false);
    expect(pointInRing(0.5, 2, u)).toBe(true);
  });
});

describe("distanceToRing", () => {
  it("is zero inside and the edge distance outside", () => {
    expect(distanceToRing(0.005, 0.005, square)).toBe(0);
    // 0.001° of latitude south of the bottom edge: about 111 m.
    expect(distanceToRing(0.005, -0.001, square)).toBeCloseTo(111.2, 0);
    // Diagonal from a corner.
    expect(distanceToRing(-0.001, -0.001, square)).toBeCloseTo(Math.hypot(111.2, 111.2), 0);
  });
});

describe("ringAreaAndCentroid", () => {
  it("measures a square of about 1.11 km on a side at the equator", () => {
    const { area, centroid } = ringAreaAndCentroid(square);
    expect(area / 1e6).toBeCloseTo(1.236, 2);
    expect(centroid[0]).toBeCloseTo(0.005, 6);
    expect(centroid[1]).toBeCloseTo(0.005, 6);
  });
});

describe("segmentsIntersect", () => {
  it("sees crossings, touches and collinear overlaps", () => {
    expect(segmentsIntersect([0, 0], [2, 2], [0, 2], [2, 0])).toBe(true);
    expect(segmentsIntersect([0, 0], [2, 0], [1, 0], [1, 1])).toBe(true);
    expect(segmentsIntersect([0, 0], [2, 0], [1, 0], [3, 0])).toBe(true);
    expect(segmentsIntersect([0, 0], [1, 0], [2, 0], [3, 0])).toBe(false);
    expect(segmentsIntersect([0, 0], [1, 1], [0, 1], [0.4, 0.6])).toBe(false);
  });
});

describe("findSelfIntersection", () => {
  it("accepts simple rings", () => {
    expect(findSelfIntersection(square)).toBeNull();
    const star: Position[] = [];
    for (let i = 0; i < 2000; i++) {
      const a = (2 * Math.PI * i) / 2000;
      const r = i % 2 ? 1 : 0.5;
      star.push([r * Math.cos(a), r * Math.sin(a)]);
    }
    star.push(star[0]!);
    expect(findSelfIntersection(star)).toBeNull();
  });
  it("finds a bow tie", () => {
    expect(
      findSelfIntersection([
        [0, 0],
        [1, 1],
        [1, 0],
        [0, 1],
        [0, 0],
      ]),
    ).not.toBeNull();
  });
  it("finds a ring that touches itself at a vertex", () => {
    const figure8: Position[] = [
      [0, 0],
      [1, 0],
      [1, 1],
      [2, 1],
      [2, 2],
      [1, 2],
      [1, 1],
      [0, 1],
      [0, 0],
    ];
    expect(findSelfIntersection(figure8)).not.toBeNull();
  });
  it("finds a spike that folds back along its own edge", () => {
    expect(
      findSelfIntersection([
        [0, 0],
        [2, 0],
        [1, 0],
        [1, 1],
        [0, 0],
      ]),
    ).not.toBeNull();
  });
  it("finds a crossing between the first and last edges' neighbours", () => {
    const ring: Position[] = [
      [0, 0],
      [4, 0],
      [4, 4],
      [2, -1],
      [0, 4],
      [0, 0],
    ];
    expect(findSelfIntersection(ring)).not.toBeNull();
  });
});

describe("banded rings", () => {
  it("answer exactly as the plain even-odd test", () => {
    // A jagged ring of many vertices, like a coastline.
    const ring: number[] = [];
    for (let k = 0; k < 500; k++) {
      const angle = (2 * Math.PI * k) / 500;
      const r = 10 + 3 * Math.sin(17 * angle) + ((k * 7919) % 13) / 13;
      ring.push(r * Math.cos(angle), r * Math.sin(angle));
    }
    ring.push(ring[0]!, ring[1]!);
    const packed = Float64Array.from(ring);
    const banded = bandRing(packed);
    let inside = 0;
    for (let i = 0; i < 20000; i++) {
      const lng = -15 + Math.random() * 30;
      const lat = -15 + Math.random() * 30;
      const expected = pointInPackedRing(lng, lat, packed);
      expect(pointInBandedRing(lng, lat, banded)).toBe(expected);
      if (expected) inside++;
    }
    expect(inside).toBeGreaterThan(1000);
  });
});
