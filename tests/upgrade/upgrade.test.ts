import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/fresh-server";
import { oldDatabase, upgradeFixture } from "../support/upgrade";

/**
 * `npm start` on a database an earlier release made (tests/fixtures/upgrade/, ten migrations and
 * more behind on each engine): it applies the migrations, and every record answers as the old
 * release answered it, with its own keys and accounts. The conformance suites then run on such a
 * database (the upgrade project of vitest.config.ts).
 */

const root = path.resolve(import.meta.dirname, "../..");
const fixture = upgradeFixture();
const dir = mkdtempSync(path.join(tmpdir(), "location-upgrade-"));
let database: { url: string; drop(): Promise<void> };
let started: ChildProcess;
let url: string;
let output = "";

beforeAll(async () => {
  database = await oldDatabase(dir);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  started = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "start.ts")], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: "127.0.0.1",
      GEODATA_DIR: path.join(dir, "geodata"),
      LOG_FORMAT: "json",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  started.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  for (let i = 0; ; i++) {
    if (started.exitCode !== null) throw new Error(`npm start exited:\n${output}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (i > 600) throw new Error(`npm start did not become ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 180_000);

afterAll(async () => {
  if (started && started.exitCode === null) {
    const exited = new Promise((r) => started.once("exit", r));
    started.kill("SIGTERM");
    await exited;
  }
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const get = (route: string, key: string) =>
  fetch(`${url}${route}`, { headers: { authorization: key } }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as Record<string, { _id: string }[]>,
  }));

/** Every field the old release answered, with the value it had (newer fields may be added). */
function expectKept(kind: string, old: { _id: string }[], now: { _id: string }[]) {
  expect(now.map((r) => r._id).sort(), kind).toEqual(old.map((r) => r._id).sort());
  const byId = new Map(now.map((r) => [r._id, r]));
  for (const record of old) expect(byId.get(record._id), `${kind} ${record._id}`).toMatchObject(record);
}

describe(`npm start on a database of release ${fixture.commit}`, () => {
  it("applies the migrations made since, and says so", () => {
    const migrated = output
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { migrations?: number; applied?: number })
      .find((l) => l.migrations !== undefined);
    expect(migrated?.applied).toBeGreaterThanOrEqual(10);
    // No first-run setup: the database had its accounts and keys.
    expect(output).not.toMatch(/First run/);
  });

  it("keeps the old keys working (and the revoked one revoked), and the accounts' passwords", async () => {
    expect((await get("/v1/geofences", fixture.keys.secret)).status).toBe(200);
    expect((await get("/v1/config", fixture.keys.publishable)).status).toBe(200);
    expect((await get("/v1/geofences", fixture.keys.live)).status).toBe(200);
    expect((await get("/v1/geofences", fixture.keys.revoked)).status).toBe(401);
    const signIn = await fetch(`${url}/api/session`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url },
      body: JSON.stringify({ email: fixture.accounts.admin, password: fixture.password }),
    });
    expect(signIn.status).toBe(200);
  });

  it("answers every geofence, user and event as the old release did", async () => {
    const { secret, live } = fixture.keys;
    expectKept(
      "geofence",
      fixture.answered.geofences,
      (await get("/v1/geofences?limit=100", secret)).body.geofences!,
    );
    expectKept(
      "live geofence",
      fixture.answered.liveGeofences,
      (await get("/v1/geofences?limit=100", live)).body.geofences!,
    );
    expectKept("user", fixture.answered.users, (await get("/v1/users?limit=100", secret)).body.users!);
    expectKept("event", fixture.answered.events, (await get("/v1/events?limit=100", secret)).body.events!);
  });

  it("goes on from the old state: a user the old release tracked leaves the geofence it was in", async () => {
    const alice = fixture.answered.users.find((u) => u.userId === "alice") as unknown as {
      geofences: { _id: string }[];
    };
    expect(alice.geofences.length).toBeGreaterThan(0);
    const res = await fetch(`${url}/v1/track`, {
      method: "POST",
      headers: { authorization: fixture.keys.publishable, "content-type": "application/json" },
      body: JSON.stringify({
        deviceId: "device-alice",
        userId: "alice",
        latitude: 40.7,
        longitude: -74.0,
        accuracy: 5,
      }),
    });
    expect(res.status).toBe(200);
    const { events } = (await res.json()) as { events: { type: string; geofence?: { _id: string } }[] };
    expect(events.filter((e) => e.type === "user.exited_geofence").map((e) => e.geofence!._id)).toEqual(
      alice.geofences.map((g) => g._id),
    );
  });
});

describe("npm start's exit", () => {
  it("is the server's: killed by a signal (kill -9, the OOM killer), npm start ends with 137, not 0", async () => {
    // The server (scripts/serve.mjs) is the process that logged that it listens.
    const ready = output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { pid: number; msg?: string })
      .find((line) => line.msg?.startsWith("Ready on"));
    expect(ready?.pid, output).toBeGreaterThan(0);
    expect(ready!.pid).not.toBe(started.pid);
    const exited = new Promise<number | null>((r) => started.once("exit", (code) => r(code)));
    process.kill(ready!.pid, "SIGKILL");
    expect(await exited).toBe(137);
  });
});
