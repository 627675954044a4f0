import { performance } from "node:perf_hooks";
import { MAX_BANDS, embeddedRegionsAt, reloadEmbeddedRegions } from "../server/regions/embedded";

/**
 * npm run bench:regions — the embedded country/state lookup (context, tracking) in-process:
 * load time and memory, and lookups in the New York area (long US and state rings) and at
 * random points on Earth; and the country borders it asks (country-coder) alone. The baseline in the same run is the lookup with every ring in one
 * band, i.e. the plain even-odd test over all of a ring's edges.
 */

const N = 20_000;
const rng = (() => {
  let a = 7;
  return () => ((a = (a * 16807) % 2147483647) - 1) / 2147483646;
})();
const nyc = Array.from({ length: N }, () => [-74.2 + rng() * 0.5, 40.5 + rng() * 0.5] as const);
const world = Array.from({ length: N }, () => [-180 + rng() * 360, -60 + rng() * 135] as const);

function measure(
  points: readonly (readonly [number, number])[],
  lookup: (lng: number, lat: number) => unknown = embeddedRegionsAt,
) {
  const times: number[] = [];
  for (const [lng, lat] of points) {
    const t = performance.now();
    lookup(lng, lat);
    times.push((performance.now() - t) * 1000);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((s, t) => s + t, 0) / times.length;
  return `mean ${mean.toFixed(1)} µs, p50 ${times[N / 2]!.toFixed(1)} µs, p99 ${times[N * 0.99]!.toFixed(1)} µs`;
}

// The borders that decide which country (server/regions/embedded.ts: countryAt), alone: its 0.7 MB
// of borders load with the module.
const { iso1A2Code } = await import("@rapideditor/country-coder");
console.log("\ncountry-coder alone:");
const coder = (lng: number, lat: number) => iso1A2Code([lng, lat], { level: "territory" });
console.log(`  New York area: ${measure(nyc, coder)}`);
console.log(`  anywhere:      ${measure(world, coder)}`);

for (const [label, maxBands] of [
  ["banded (as served)", MAX_BANDS],
  ["baseline: one band per ring", 1],
] as const) {
  const before = process.memoryUsage();
  const t = performance.now();
  reloadEmbeddedRegions(maxBands);
  const load = performance.now() - t;
  const after = process.memoryUsage();
  const mb = (k: "heapUsed" | "arrayBuffers") => ((after[k] - before[k]) / 1e6).toFixed(0);
  console.log(
    `\n${label}: load ${load.toFixed(0)} ms, heap +${mb("heapUsed")} MB, array buffers +${mb("arrayBuffers")} MB`,
  );
  console.log(`  New York area: ${measure(nyc)}`);
  console.log(`  anywhere:      ${measure(world)}`);
}
