import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

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
export function buildIfStale(force = false): void {
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
  writeFileSync(stamp, current);
}

// `npm run build`: always builds, and stamps the build with its sources so that `npm start` then
// serves it instead of building again (a plain `next build` leaves no stamp).
if (import.meta.filename === process.argv[1]) buildIfStale(true);
