import { readFileSync } from "node:fs";
import { startFreshServer } from "../scripts/fresh-server";
import { cpuSeconds } from "./load";

/**
 * `npm run bench -- startup`: what a start costs and what the first requests after it cost, with
 * the embedded datasets loaded at start (PRELOAD_DATASETS=true, the default) and on first use
 * (false). Each route is a bundle Next.js loads on its first request; the baseline is that cost on
 * /v1/config, which needs no data. A route that pays much more than the baseline is loading data
 * on the request.
 */
export async function startupSuite(): Promise<void> {
  const rows: string[] = [];
  for (const preload of ["true", "false"]) rows.push(...(await startOnce(preload)));
  console.log(
    "\n| PRELOAD_DATASETS | measure | value |\n| --- | --- | ---: |\n" +
      rows.map((r) => `| ${r} |`).join("\n"),
  );
}

const residentMb = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024);

async function startOnce(preload: string): Promise<string[]> {
  const started = performance.now();
  const server = await startFreshServer({ env: { PRELOAD_DATASETS: preload } });
  try {
    while (!(await fetch(`${server.url}/readyz`)).ok) await new Promise((r) => setTimeout(r, 50));
    const ready = (performance.now() - started) / 1000;
    // Settled: what the threads started do at once (the tracking thread's datasets) is done.
    await new Promise((r) => setTimeout(r, 1500));
    const row = (what: string, value: string) => `${preload} | ${what} | ${value}`;
    const rows = [
      row("ready after (a fresh database copied, the server started)", `${ready.toFixed(1)} s`),
      row(
        "CPU of the server process to ready",
        `${cpuSeconds(server.pid)?.toFixed(2) ?? "unknown (no /proc)"} s`,
      ),
      row("resident memory at ready", `${residentMb(server.pid)} MB`),
    ];
    const timed = async (method: string, path: string, key: string, body?: unknown) => {
      const begun = performance.now();
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: key, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      await res.text();
      if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}`);
      return Math.round(performance.now() - begun);
    };
    const { secret, publishable } = server.keys;
    const track = { deviceId: "bench", latitude: 40.78, longitude: -73.97, accuracy: 5 };
    const routes: [string, string, string, string, unknown?][] = [
      ["GET /v1/config (baseline)", "GET", "/v1/config", secret],
      ["POST /v1/track", "POST", "/v1/track", publishable, track],
      ["GET /v1/context", "GET", "/v1/context?coordinates=40.78,-73.97", publishable],
      ["GET /v1/geocode/reverse", "GET", "/v1/geocode/reverse?coordinates=48.85,2.35", secret],
      ["GET /v1/geocode/ip", "GET", "/v1/geocode/ip?ip=8.8.8.8", secret],
      ["GET /v1/geocode/forward", "GET", "/v1/geocode/forward?query=20+Jay+St+Brooklyn+NY", secret],
    ];
    for (const [name, method, path, key, body] of routes) {
      const first = await timed(method, path, key, body);
      const second = await timed(method, path, key, body);
      rows.push(row(`${name}: first, second request`, `${first} ms, ${second} ms`));
    }
    rows.push(row("resident memory after these requests", `${residentMb(server.pid)} MB`));
    console.log(`\nstartup, PRELOAD_DATASETS=${preload}: ${server.url}`);
    console.log(
      server
        .output()
        .match(/"msg":"Loaded [^"]*"/g)
        ?.join("\n") ?? "(no datasets logged)",
    );
    return rows;
  } finally {
    await server.stop();
  }
}
