import { describe, expect, it } from "vitest";
import { quantile } from "./request-window";

const reading = (count: number, buckets: [number, number][]) => ({ at: 0, count, buckets });

describe("the overview's request p99", () => {
  it("interpolates within the bucket that holds the rank, between two readings", () => {
    const before = reading(100, [
      [0.01, 100],
      [0.1, 100],
      [Infinity, 100],
    ]);
    // 100 more requests: 90 under 10 ms, 10 between 10 and 100 ms.
    const after = reading(200, [
      [0.01, 190],
      [0.1, 200],
      [Infinity, 200],
    ]);
    // Rank 99 of 100 lies 9/10 of the way through the 10–100 ms bucket.
    expect(quantile(0.99, before, after)).toBeCloseTo(0.01 + 0.09 * 0.9, 6);
    expect(quantile(0.5, before, after)).toBeCloseTo(0.01 * (50 / 90), 6);
  });

  it("has none without requests, and the last finite bound past it", () => {
    const same = reading(5, [
      [0.01, 5],
      [Infinity, 5],
    ]);
    expect(quantile(0.99, same, same)).toBeNull();
    const slow = reading(1, [
      [0.01, 0],
      [Infinity, 1],
    ]);
    expect(quantile(0.99, reading(0, []), slow)).toBe(0.01);
  });
});
