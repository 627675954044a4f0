/** Figures of in-process timings (milliseconds, one call at a time), for the suites' notes. */

/** The value at share `p` (0..1) of sorted values. */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

/** The median of unsorted values. */
export const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** "p50 … ms, p99 … ms, … queries/s" of one-at-a-time calls, with `digits` decimals. */
export function summary(ms: number[], digits = 3): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const total = ms.reduce((a, b) => a + b, 0);
  return (
    `p50 ${percentile(sorted, 0.5).toFixed(digits)} ms, p99 ${percentile(sorted, 0.99).toFixed(digits)} ms, ` +
    `${Math.round((ms.length * 1000) / total).toLocaleString("en")} queries/s`
  );
}
