import { describe, expect, it } from "vitest";
import { bestOrder } from "./optimize";

/** Every order of the stops between the first and the last, by brute force. */
function bruteForce(seconds: number[][]) {
  const n = seconds.length;
  const stops = Array.from({ length: n - 2 }, (_, i) => i + 1);
  let best = { order: [] as number[], seconds: Infinity };
  const permute = (done: number[], left: number[]) => {
    if (!left.length) {
      const order = [0, ...done, n - 1];
      const t = order.slice(1).reduce((sum, j, i) => sum + seconds[order[i]!]![j]!, 0);
      if (t < best.seconds) best = { order, seconds: t };
      return;
    }
    left.forEach((s, i) => permute([...done, s], [...left.slice(0, i), ...left.slice(i + 1)]));
  };
  permute([], stops);
  return best;
}

describe("bestOrder", () => {
  it("finds the least total duration, as trying every order does, on random asymmetric matrices", () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 40; trial++) {
      const n = 3 + (trial % 8);
      const m = Array.from({ length: n }, (_, i) =>
        Array.from({ length: n }, (_, j) => (i === j ? 0 : Math.round(60 + next() * 3600))),
      );
      const dp = bestOrder(m)!;
      const brute = bruteForce(m);
      expect(dp.seconds).toBe(brute.seconds);
      expect(dp.order[0]).toBe(0);
      expect(dp.order.at(-1)).toBe(n - 1);
      expect([...dp.order].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
      expect(dp.order.slice(1).reduce((sum, j, i) => sum + m[dp.order[i]!]![j]!, 0)).toBe(dp.seconds);
    }
  });

  it("goes round a stop it cannot reach directly, and says when no order is possible", () => {
    const I = Infinity;
    // 0 → 2 has no route: 0 → 1 → 2 → 3 is the only way.
    expect(
      bestOrder([
        [0, 5, I, 9],
        [5, 0, 5, 9],
        [I, 5, 0, 5],
        [9, 9, 5, 0],
      ])!.order,
    ).toEqual([0, 1, 2, 3]);
    expect(
      bestOrder([
        [0, I, I],
        [I, 0, I],
        [I, I, 0],
      ]),
    ).toBeUndefined();
    expect(
      bestOrder([
        [0, 7],
        [7, 0],
      ]),
    ).toEqual({ order: [0, 1], seconds: 7 });
  });
});
