import { spawnSync } from "node:child_process";
import path from "node:path";

/**
 * `npm run bench -- observability`: what the metrics and the access log cost per request, in
 * process, next to an empty call measured the same way: the histogram observation and counter a
 * request makes (scripts/serve.mjs), one access line written by pino (to /dev/null, as JSON), and
 * a scrape of GET /metrics once 100 route templates have been seen. Each in a process of its own,
 * with the settings it runs with in the server.
 */

const N = 200_000;
const root = path.resolve(import.meta.dirname, "..");

function timed(script: string, env: Record<string, string> = {}): number {
  // Standard output (where the log goes) to /dev/null; the figure comes on standard error.
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    env: { ...process.env, LOG_FORMAT: "json", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return Number(run.stderr.trim().split("\n").at(-1));
}

/** Runs `body` N times after N warm-up runs; prints µs per run on stderr. */
const loop = (setup: string, body: string) => `
  ${setup}
  const run = (i) => { ${body} };
  for (let i = 0; i < ${N}; i++) run(i);
  const t = process.hrtime.bigint();
  for (let i = 0; i < ${N}; i++) run(i);
  process.stderr.write(String(Number(process.hrtime.bigint() - t) / 1000 / ${N}) + "\\n");
`;

export function observabilitySuite(): void {
  const metrics = `const { metrics, metricsText } = await import("./server/metrics/metrics.mjs");`;
  const logger = `const { log } = await import("./server/log/logger.mjs");`;
  const rows: [string, number][] = [
    ["an empty call (baseline)", timed(loop("let x = 0;", "x += i;"))],
    [
      "metrics of one request (duration histogram by route, method, status)",
      timed(
        loop(
          metrics,
          `metrics.httpDuration.observe({ route: "/v1/track", method: "POST", status: "200" }, 0.004);`,
        ),
      ),
    ],
    [
      "metrics of one tracking update (update and batch counted, an event by type)",
      timed(
        loop(
          metrics,
          `metrics.trackingUpdates.inc(); metrics.trackingBatchSize.observe(8); metrics.events.inc({ type: "user.entered_geofence" });`,
        ),
      ),
    ],
    [
      "one access line (pino, JSON, to /dev/null)",
      timed(
        loop(
          logger,
          `log.info({ reqId: "69671c25-d8ca-4902-9f43-8d96dc504c58", method: "POST", route: "/v1/track", status: 200, ms: 3.2, keyId: "6b0b82407dc3061cde85bf3a" }, "request");`,
        ),
      ),
    ],
  ];
  const scrape = timed(`
    ${metrics}
    for (let r = 0; r < 100; r++) for (const s of ["200", "400", "404"]) metrics.httpDuration.observe({ route: "/r/" + r, method: "GET", status: s }, 0.01);
    await metricsText();
    const t = process.hrtime.bigint();
    for (let i = 0; i < 100; i++) await metricsText();
    process.stderr.write(String(Number(process.hrtime.bigint() - t) / 1000 / 100) + "\\n");
  `);
  console.log("\n| per request | µs |\n|---|---:|");
  for (const [what, us] of rows) console.log(`| ${what} | ${us.toFixed(2)} |`);
  console.log(`| a scrape of GET /metrics with 300 duration series (one thread) | ${scrape.toFixed(0)} |`);
}
