import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";

export const root = path.resolve(import.meta.dirname, "..");
export const nextBin = path.join(root, "node_modules/next/dist/bin/next");
/** The server in front of Next.js (scripts/serve.mjs): `node serveScript start|dev -p PORT -H HOST`. */
export const serveScript = path.join(root, "scripts/serve.mjs");
export const nextEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

/**
 * V8 flags of the server process: semispaces of 64 MB (16 by default), so that the short-lived
 * objects of each request (a tracking body, its answer, the geofences near it) die young in
 * fewer, cheaper collections: tracking with the SDK's body 15-20% faster on 2 cores, for up to
 * about 150 MB more memory under load (docs/performance.md, docs/deployment.md). A
 * `--max-semi-space-size` in NODE_OPTIONS wins.
 */
export const serverNodeArgs = /--max-semi-space-size/.test(process.env.NODE_OPTIONS ?? "")
  ? []
  : ["--max-semi-space-size=64"];

/** Everything the production build is made from. */
const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "server",
  "public",
  "prisma/schema.prisma",
  "next.config.js",
  "instrumentation.ts",
  "proxy.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "package-lock.json",
];

function fingerprint(): string {
  const hash = createHash("sha256");
  const visit = (rel: string) => {
    const abs = path.join(root, rel);
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs).sort()) if (!name.startsWith(".")) visit(path.join(rel, name));
    } else if (!rel.endsWith(".test.ts")) {
      hash.update(rel).update(readFileSync(abs));
    }
  };
  BUILD_INPUTS.forEach(visit);
  return hash.digest("hex");
}

/**
 * Runs `next build` when no build exists or its sources changed since the last one, so that
 * `npm start` after `git pull` never serves stale code and a restart does not rebuild.
 */
export async function buildIfStale(force = false): Promise<void> {
  const stamp = path.join(root, ".next/source-fingerprint");
  const current = fingerprint();
  const built =
    existsSync(path.join(root, ".next/BUILD_ID")) && existsSync(stamp) ? readFileSync(stamp, "utf8") : "";
  if (built === current && !force) return;
  console.log("Building the web app (first start or changed sources; about a minute)…");
  const result = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    env: nextEnv,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("next build failed");
  await bundleWorkers();
  writeFileSync(stamp, current);
}

/**
 * Where the production server's worker threads are built (scripts/serve.mjs, plain JavaScript,
 * names the same folder to them as WORKER_BUNDLES; server/workers/thread-memory.ts):
 * `server/tracking/worker.ts` becomes `.next/workers/server/tracking/worker.mjs`.
 */
const workerBundles = path.join(root, ".next/workers");

/**
 * Each worker thread's entry (a file of server/ named `worker.ts` or `…-worker.ts`) bundled into one
 * JavaScript module: run from the sources, a worker loaded every module through tsx, with a
 * loader thread of its own (about 1.3 core-seconds a worker, three at each start). Packages stay
 * imports from node_modules, and so do the plain JavaScript modules of server/ (the logger, the
 * metrics): the worker's boot (server/workers/worker-boot.mjs) imports them too, and one copy of
 * each per thread keeps one metrics registry.
 */
async function bundleWorkers(): Promise<void> {
  const entries = readdirSync(path.join(root, "server"), { recursive: true, encoding: "utf8" })
    .filter((f) => /(^|[/-])worker\.ts$/.test(f))
    .map((f) => path.join(root, "server", f));
  rmSync(workerBundles, { recursive: true, force: true });
  for (const entry of entries) await bundleWorker(entry, workerBundles);
}

/** Bundles one worker entry (a file of the project) into `bundles`, where startWorker looks for it. */
export async function bundleWorker(entry: string, bundles: string): Promise<void> {
  const outfile = path.join(bundles, path.relative(root, entry).replace(/\.ts$/, ".mjs"));
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    logLevel: "warning",
    plugins: [
      {
        name: "server-javascript-stays-shared",
        setup(build) {
          build.onResolve({ filter: /^\.\.?\/.*\.mjs$/ }, ({ path: spec, resolveDir }) => ({
            path: path.relative(path.dirname(outfile), path.resolve(resolveDir, spec)),
            external: true,
          }));
        },
      },
    ],
  });
}

// `npm run build`: always builds, and stamps the build with its sources so that `npm start` then
// serves it instead of building again (a plain `next build` leaves no stamp).
if (import.meta.filename === process.argv[1]) await buildIfStale(true);
