import { execFileSync } from "node:child_process";
import { startFreshServer } from "../scripts/fresh-server";

/**
 * `npm run bench -- startup`: what the first requests after a start cost. Each route is a
 * bundle Next.js loads on its first request; the baseline is that cost on /v1/config, which
 * needs no data. A route that pays much more than the baseline is loading data on the request.
 */
export async function startupSuite(): Promise<void> {
  const server = await startFreshServer();
  try {
    // Wait for instrumentation.ts to have loaded the embedded datasets.
    for (let i = 0; i < 100 && (server.output().match(/Loaded /g) ?? []).length < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const timed = async (method: string, path: string, key: string, body?: unknown) => {
      const started = performance.now();
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: key, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      await res.text();
      return Math.round(performance.now() - started);
    };
    const { secret, publishable } = server.keys;
    const track = { deviceId: "bench", latitude: 40.78, longitude: -73.97, accuracy: 5 };
    const routes: [string, string, string, string, unknown?][] = [
      ["GET /v1/config (baseline)", "GET", "/v1/config", secret],
      ["GET /v1/context", "GET", "/v1/context?coordinates=40.78,-73.97", publishable],
      ["GET /v1/geocode/reverse", "GET", "/v1/geocode/reverse?coordinates=48.85,2.35", secret],
      ["GET /v1/geocode/ip", "GET", "/v1/geocode/ip?ip=8.8.8.8", secret],
      ["POST /v1/track", "POST", "/v1/track", publishable, track],
    ];
    console.log(`\nstartup: ${server.url}\n`);
    console.log(
      server
        .output()
        .match(/^Loaded .*$/gm)
        ?.join("\n") ?? "(no datasets logged)",
    );
    console.log("\n| route | first request, ms | second request, ms |\n| --- | ---: | ---: |");
    for (const [name, method, path, key, body] of routes) {
      const first = await timed(method, path, key, body);
      const second = await timed(method, path, key, body);
      console.log(`| ${name} | ${first} | ${second} |`);
    }
    const rss = Number(
      execFileSync("ps", ["-o", "rss=", "-p", String(server.pid)])
        .toString()
        .trim(),
    );
    console.log(`\nserver resident memory after these requests: ${Math.round(rss / 1024)} MB`);
  } finally {
    await server.stop();
  }
}
