import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  FRESH_ACCOUNTS,
  FRESH_PASSWORD,
  type FreshServer,
  type RunningServer,
  createPostgresDatabase,
  serve,
  startFreshServer,
} from "../../scripts/fresh-server";
import { runScript } from "../support/cli";
import { writeShoreLine } from "../support/transit-fixture";

/**
 * `npm run backup` of a running service under tracking load, `npm run restore` into another
 * database and geodata folder, and the restored service answering as the first did: every update
 * acknowledged before the backup began, keys, accounts, geofences, users, events, trips, webhooks
 * and imports. On the engine the API tests run on (TEST_ENGINE).
 */

const work = mkdtempSync(path.join(tmpdir(), "location-backup-test-"));
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
  rmSync(work, { recursive: true, force: true });
});

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one of the project's scripts as `npm run` would, on this database and geodata folder. */
function cli(script: string, args: string[], databaseUrl: string, geodataDir: string): Promise<CliResult> {
  return runScript(
    script,
    args,
    { DATABASE_URL: databaseUrl, GEODATA_DIR: geodataDir, LOG_FORMAT: "json" },
    120_000,
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: CliResult) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

async function call(
  url: string,
  method: string,
  route: string,
  auth: Record<string, string>,
  json?: unknown,
) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { ...auth, ...(json !== undefined && { "content-type": "application/json" }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

/** The fields of the answers this test reads. */
interface Answer {
  geofences?: { _id: string }[];
  trip?: { status: string };
  webhooks?: { url: string }[];
  imports?: { name: string }[];
  user?: { updatedAt: string };
  events?: { _id: string }[];
}

async function signIn(url: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ email: FRESH_ACCOUNTS.admin, password: FRESH_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return { cookie: res.headers.get("set-cookie")!.split(";")[0]!, origin: url };
}

/** What a service answers about everything a backup must keep, to compare before and after. */
async function state(url: string, secret: string, deviceIds: string[]) {
  const key = { authorization: secret };
  const session = await signIn(url);
  const users = await Promise.all(deviceIds.map((d) => call(url, "GET", `/v1/users/${d}`, key)));
  return {
    geofences: (await call(url, "GET", "/v1/geofences", key)).body.geofences!.map((g) => g._id),
    trip: (await call(url, "GET", "/v1/trips/backup-trip", key)).body.trip?.status,
    webhooks: (await call(url, "GET", "/api/webhooks", session)).body.webhooks!.map((w) => w.url),
    imports: (await call(url, "GET", "/api/geodata", session)).body.imports!.map((i) => i.name),
    users: users.map((u) => u.body.user?.updatedAt),
  };
}

describe("backup and restore", () => {
  it("backs up a service while it tracks, and the restored service answers as it did", async () => {
    // Devices as fast as they can: a load generator, not a device (RATE_LIMITS=off).
    const source: FreshServer = await startFreshServer({
      env: { WEBHOOKS_ALLOW_PRIVATE: "true", RATE_LIMITS: "off" },
    });
    cleanup.push(() => source.stop());
    const secret = { authorization: source.keys.secret };
    expect(
      (
        await call(source.url, "POST", "/v1/geofences", secret, {
          description: "backed up",
          type: "circle",
          coordinates: [-20, -30],
          radius: 500,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(source.url, "POST", "/v1/trips", secret, {
          externalId: "backup-trip",
          userId: "backup-user",
        })
      ).status,
    ).toBe(200);
    const session = await signIn(source.url);
    expect(
      (await call(source.url, "POST", "/api/webhooks", session, { url: "http://127.0.0.1:9/backup-hook" }))
        .status,
    ).toBe(201);
    const feed = writeShoreLine(path.join(work, "shore-line"));
    expect((await cli("import.ts", [feed], source.databaseUrl, source.geodataDir)).code).toBe(0);

    // Devices crossing the geofence's edge, every update acknowledged with the time it was.
    const devices = Array.from({ length: 6 }, (_, i) => `backup-device-${i}`);
    const acked: { deviceId: string; updatedAt: string; at: number; events: string[] }[] = [];
    const refused: number[] = [];
    let tracking = true;
    const t0 = Date.now() - 3_600_000;
    const load = Promise.all(
      devices.map(async (deviceId) => {
        for (let n = 0; tracking; n++) {
          const updatedAt = new Date(t0 + n * 1000).toISOString();
          const res = await call(
            source.url,
            "POST",
            "/v1/track",
            { authorization: source.keys.publishable },
            {
              deviceId,
              latitude: n % 2 ? -30.1 : -30,
              longitude: -20,
              accuracy: 5,
              updatedAt,
            },
          );
          if (res.status !== 200) {
            refused.push(res.status);
            break;
          }
          acked.push({
            deviceId,
            updatedAt,
            at: Date.now(),
            events: res.body.events!.map((e) => e._id),
          });
        }
      }),
    );
    const archive = path.join(work, "service.tar.gz");
    let began = 0;
    let ended = 0;
    let backup: CliResult;
    try {
      while (acked.length < 60 && !refused.length) await new Promise((r) => setTimeout(r, 20));
      began = Date.now();
      backup = await cli("backup.ts", [archive], source.databaseUrl, source.geodataDir);
      ended = Date.now();
    } finally {
      tracking = false;
      await load;
    }
    expect(refused).toEqual([]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/Backed up in .* s: .*service\.tar\.gz/);
    const during = acked.filter((a) => a.at > began && a.at < ended).length;
    // It ran while the service tracked.
    expect(during).toBeGreaterThan(0);
    const before = acked.filter((a) => a.at < began);
    const expected = await state(source.url, source.keys.secret, devices);

    // Elsewhere: an empty database and geodata folder.
    const target = source.databaseUrl.startsWith("file:")
      ? { url: `file:${path.join(work, "restored.db")}`, drop: async () => undefined }
      : await createPostgresDatabase(process.env.TEST_POSTGRES_URL!);
    cleanup.push(() => target.drop());
    const targetGeodata = path.join(work, "restored-geodata");
    const restore = await cli("restore.ts", [archive], target.url, targetGeodata);
    expect(restore.code, restore.stderr).toBe(0);
    expect(existsSync(path.join(targetGeodata, "shore-line.sqlite"))).toBe(true);

    const restored: RunningServer = await serve(target.url, { env: { GEODATA_DIR: targetGeodata } });
    cleanup.push(() => restored.stop());
    const now = await state(restored.url, source.keys.secret, devices);
    expect(now.geofences).toEqual(expected.geofences);
    expect(now.trip).toBe(expected.trip);
    expect(now.webhooks).toEqual(expected.webhooks);
    expect(now.imports).toEqual(["shore-line"]);
    // Every update acknowledged before the backup began is there: each device is at least as
    // recent as its last one, and every event those updates made exists.
    for (const [i, deviceId] of devices.entries()) {
      const last = before.filter((a) => a.deviceId === deviceId).at(-1);
      if (last) expect(Date.parse(now.users[i]!) >= Date.parse(last.updatedAt), deviceId).toBe(true);
    }
    const events = before.flatMap((a) => a.events);
    expect(events.length).toBeGreaterThan(0);
    for (const id of events) {
      expect(
        (await call(restored.url, "GET", `/v1/events/${id}`, { authorization: source.keys.secret })).status,
        id,
      ).toBe(200);
    }
    // The publishable key tracks on the restored service.
    expect(
      (
        await call(
          restored.url,
          "POST",
          "/v1/track",
          { authorization: source.keys.publishable },
          {
            deviceId: "after-restore",
            latitude: -30,
            longitude: -20,
            accuracy: 5,
          },
        )
      ).status,
    ).toBe(200);
    await restored.stop();

    // A database that holds data is refused without --force, and replaced with it.
    const again = await cli("restore.ts", [archive], target.url, targetGeodata);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/holds data: restore into an empty database and folder, or add --force/);
    const forced = await cli("restore.ts", [archive, "--force"], target.url, targetGeodata);
    expect(forced.code, forced.stderr).toBe(0);
    const replaced = await serve(target.url, { env: { GEODATA_DIR: targetGeodata } });
    cleanup.push(() => replaced.stop());
    const user = await call(replaced.url, "GET", "/v1/users/after-restore", {
      authorization: source.keys.secret,
    });
    expect(user.status).toBe(404);
  }, 300_000);

  it("refuses an archive that is not one, or of another engine, with what is wrong", async () => {
    const notArchive = path.join(work, "not-an-archive.tar.gz");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(notArchive, "hello");
    const db = `file:${path.join(work, "nothing.db")}`;
    const refused = await cli("restore.ts", [notArchive], db, path.join(work, "nothing-geodata"));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Restore failed: /);
    expect((await cli("restore.ts", [path.join(work, "missing.tar.gz")], db, work)).stderr).toMatch(
      /does not exist/,
    );
    expect((await cli("backup.ts", [], db, work)).stdout).toMatch(/npm run backup -- FILE/);
  });
});
