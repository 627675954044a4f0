import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

/**
 * Builds the app if needed, then starts `next start` on a free port against a new database file
 * in a temporary folder, with keys made by the project's own code. Tests reach it over HTTP.
 */

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    keys: { secret: string; publishable: string; live: string; revoked: string };
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log()}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy:\n${log()}`);
}

let child: ChildProcess | undefined;
let dir: string | undefined;

export default async function setup(project: TestProject) {
  dir = mkdtempSync(path.join(tmpdir(), "location-api-test-"));
  const databaseUrl = `file:${path.join(dir, "test.db")}`;
  process.env.DATABASE_URL = databaseUrl;

  const { buildIfStale, nextBin, nextEnv, root } = await import("../../scripts/build");
  const { migrate } = await import("../../scripts/migrate");
  buildIfStale();
  migrate();

  const { createKey, revokeKey } = await import("../../server/auth/keys");
  const { prisma } = await import("../../server/db/client");
  const secret = await createKey({ kind: "secret", live: false });
  const publishable = await createKey({ kind: "publishable", live: false });
  const live = await createKey({ kind: "secret", live: true });
  const revoked = await createKey({ kind: "secret", live: false });
  await revokeKey(revoked.record.id);
  await prisma.$disconnect();

  const port = await freePort();
  let output = "";
  child = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...nextEnv, DATABASE_URL: databaseUrl, MAX_BODY_BYTES: String(256 * 1024) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baseUrl, child, () => output);

  project.provide("baseUrl", baseUrl);
  project.provide("databaseUrl", databaseUrl);
  project.provide("keys", {
    secret: secret.key,
    publishable: publishable.key,
    live: live.key,
    revoked: revoked.key,
  });

  return async () => {
    child?.kill("SIGTERM");
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (/unexpected error/.test(output)) {
      // A 500 anywhere in the run is a failure even if no assertion looked at it.
      throw new Error(`the server logged unexpected errors during the tests:\n${output}`);
    }
  };
}
