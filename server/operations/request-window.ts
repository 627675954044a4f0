import { metrics, metricsOff } from "../metrics/metrics.mjs";
import { processOnce } from "../process-once";

/**
 * This process's API traffic over the last minutes, read from the same histogram GET /metrics
 * serves (http_request_duration_seconds): requests to /v1 routes per second and their p99, over
 * the window from the reading kept about WINDOW_S ago (or from the process's start) to now.
 */

/** The window the figures cover, at most. */
const WINDOW_S = 300;
/** Readings closer together than this are not kept (a page polling every 15 s keeps ~20). */
const KEEP_EVERY_S = 10;

interface Reading {
  at: number;
  /** cumulative count of requests at or under each bucket's bound (seconds), in bound order */
  buckets: [number, number][];
  count: number;
}

const state = processOnce("request-window", () => ({
  readings: [{ at: Date.now() - process.uptime() * 1000, buckets: [], count: 0 }] as Reading[],
}));

async function read(): Promise<Reading> {
  const { values } = await metrics.httpDuration.get();
  const buckets = new Map<number, number>();
  let count = 0;
  for (const v of values) {
    const labels = v.labels as Record<string, string | number | undefined>;
    const route = String(labels.route ?? "");
    if (!route.startsWith("/v1/")) continue;
    const name = (v as { metricName?: string }).metricName ?? "";
    if (name.endsWith("_bucket")) {
      const le = labels.le === "+Inf" ? Infinity : Number(labels.le);
      buckets.set(le, (buckets.get(le) ?? 0) + v.value);
    } else if (name.endsWith("_count")) count += v.value;
  }
  return { at: Date.now(), buckets: [...buckets].sort((a, b) => a[0] - b[0]), count };
}

/**
 * The p-quantile of the requests between two readings, interpolated within its bucket as
 * Prometheus' histogram_quantile does; null when no request was made.
 */
export function quantile(p: number, from: Reading, to: Reading): number | null {
  const before = new Map(from.buckets);
  const deltas = to.buckets.map(([le, n]) => [le, n - (before.get(le) ?? 0)] as const);
  const total = to.count - from.count;
  if (total <= 0) return null;
  const rank = p * total;
  let lower = 0;
  let below = 0;
  for (const [le, n] of deltas) {
    if (n >= rank) {
      if (le === Infinity) return lower;
      return lower + ((le - lower) * (rank - below)) / Math.max(n - below, 1);
    }
    lower = le;
    below = n;
  }
  return lower;
}

export interface RequestWindow {
  /** seconds the figures cover */
  seconds: number;
  requests: number;
  perSecond: number;
  /** milliseconds; null when no request was made */
  p99Ms: number | null;
}

/** The window's figures; null with METRICS=off (nothing is measured). */
export async function requestWindow(): Promise<RequestWindow | null> {
  if (metricsOff) return null;
  const now = await read();
  const kept = state.readings;
  // The oldest reading still within the window (the process's start while it is younger).
  const from = kept.find((r) => now.at - r.at <= WINDOW_S * 1000) ?? kept[kept.length - 1]!;
  const last = kept[kept.length - 1]!;
  if (now.at - last.at >= KEEP_EVERY_S * 1000) kept.push(now);
  while (kept.length > 1 && now.at - kept[0]!.at > WINDOW_S * 1000 && now.at - kept[1]!.at >= WINDOW_S * 1000)
    kept.shift();
  const seconds = Math.max((now.at - from.at) / 1000, 0.001);
  const requests = now.count - from.count;
  const p99 = quantile(0.99, from, now);
  return {
    seconds: Math.round(seconds),
    requests,
    perSecond: requests / seconds,
    p99Ms: p99 === null ? null : p99 * 1000,
  };
}
