import type { Bench } from "./suite";

/**
 * A route's latency against the key-checked GET /v1/config's, one request at a time, the two
 * alternating (each timed to the microsecond: the load generator's histogram counts whole ms).
 */
export async function sequentialAgainstConfig(
  b: Bench,
  name: string,
  headers: Record<string, string>,
  path: () => string,
  requests = 3000,
): Promise<string> {
  const timed = async (p: string) => {
    const started = performance.now();
    const res = await fetch(`${b.server.url}${p}`, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${p}: ${res.status}`);
    return performance.now() - started;
  };
  const config: number[] = [];
  const route: number[] = [];
  for (let i = 0; i < 200; i++) await Promise.all([timed("/v1/config"), timed(path())]);
  for (let i = 0; i < requests; i++) {
    config.push(await timed("/v1/config"));
    route.push(await timed(path()));
  }
  const at = (xs: number[], q: number) => [...xs].sort((x, y) => x - y)[Math.floor(q * (xs.length - 1))]!;
  const ms = (x: number) => x.toFixed(2);
  return (
    `${name} one request at a time, alternating with GET /v1/config (${requests} each): ` +
    `p50 ${ms(at(route, 0.5))} ms against ${ms(at(config, 0.5))} ms (${(at(route, 0.5) / at(config, 0.5)).toFixed(1)}×), ` +
    `p99 ${ms(at(route, 0.99))} ms against ${ms(at(config, 0.99))} ms (${(at(route, 0.99) / at(config, 0.99)).toFixed(1)}×).`
  );
}
