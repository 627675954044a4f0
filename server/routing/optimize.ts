/**
 * The order of stops that minimizes the total duration (GET /v1/route/optimize): the first
 * location is where the trip starts and the last where it ends, the ones between are visited
 * in the best order. Exact: Held and Karp's dynamic programme over the subsets of the stops
 * between (at most 8 of them: 2^8 × 8 states), on the matrix of durations the routing engine
 * computed. Pure.
 */

/** The most locations an optimization takes (Radar's limit): origin, 8 stops, destination. */
export const MAX_OPTIMIZE_LOCATIONS = 10;

/**
 * The visiting order (indexes into the matrix, starting with 0 and ending with n - 1) of least
 * total duration, and that duration; undefined when no order is possible (a leg with no route).
 * `seconds[i][j]`: from i to j, Infinity where there is no route.
 */
export function bestOrder(seconds: number[][]): { order: number[]; seconds: number } | undefined {
  const n = seconds.length;
  if (n <= 2) {
    const total = n === 2 ? seconds[0]![1]! : 0;
    return Number.isFinite(total) ? { order: n === 2 ? [0, 1] : [0], seconds: total } : undefined;
  }
  const stops = n - 2;
  const full = (1 << stops) - 1;
  // best[mask][k]: the least duration from the origin through the stops in `mask`, ending at stop k.
  const best = Array.from({ length: full + 1 }, () => new Float64Array(stops).fill(Infinity));
  const from = Array.from({ length: full + 1 }, () => new Int8Array(stops).fill(-1));
  for (let k = 0; k < stops; k++) best[1 << k]![k] = seconds[0]![k + 1]!;
  for (let mask = 1; mask <= full; mask++) {
    for (let k = 0; k < stops; k++) {
      const here = best[mask]![k]!;
      if (!(mask & (1 << k)) || here === Infinity) continue;
      for (let next = 0; next < stops; next++) {
        if (mask & (1 << next)) continue;
        const to = mask | (1 << next);
        const t = here + seconds[k + 1]![next + 1]!;
        if (t < best[to]![next]!) {
          best[to]![next] = t;
          from[to]![next] = k;
        }
      }
    }
  }
  let last = -1;
  let total = Infinity;
  for (let k = 0; k < stops; k++) {
    const t = best[full]![k]! + seconds[k + 1]![n - 1]!;
    if (t < total) [total, last] = [t, k];
  }
  if (last < 0) return undefined;
  const order: number[] = [n - 1];
  for (let mask = full, k = last; k >= 0;) {
    order.push(k + 1);
    const prev = from[mask]![k]!;
    mask &= ~(1 << k);
    k = prev;
  }
  order.push(0);
  return { order: order.reverse(), seconds: total };
}
