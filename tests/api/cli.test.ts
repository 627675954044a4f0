import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { api, expectError, keys, unique } from "../support/api";
import { runScript } from "../support/cli";

/**
 * The command-line tools next to the running server: revoking a leaked key is done while the
 * service runs, and under load. They run against the API tests' own server and database.
 */

const databaseUrl = inject("databaseUrl");

const cli = (script: string, ...args: string[]) =>
  runScript(script, args, { DATABASE_URL: databaseUrl }, 30_000);

describe("keys and accounts from the command line, while the server runs", () => {
  it("creates, lists and revokes a key while devices are being tracked", async () => {
    let tracking = true;
    const load = (async () => {
      const deviceId = unique("cli-load");
      for (let n = 0; tracking; n++) {
        await api("POST", "/v1/track", {
          key: keys.publishable,
          json: { deviceId, latitude: 10 + n / 1e4, longitude: 20, accuracy: 5 },
        });
      }
    })();
    try {
      const created = await cli("keys.ts", "create", "--name", "from the cli");
      const key = /prj_test_sk_[0-9a-f]{40}/.exec(created.stdout)?.[0];
      expect(key, created.stdout + created.stderr).toBeDefined();
      expect((await api("GET", "/v1/geofences?limit=1", { key })).status).toBe(200);

      const listed = await cli("keys.ts", "list");
      expect(listed.stdout).toContain("(from the cli)");

      const revoked = await cli("keys.ts", "revoke", key!);
      expect(revoked.stdout).toMatch(/Revoked .* requests with it get 401 everywhere within 1 s/);
      // The server (another process) refuses it within a second.
      const deadline = Date.now() + 1000;
      while ((await api("GET", "/v1/geofences?limit=1", { key })).status !== 401 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expectError(await api("GET", "/v1/geofences?limit=1", { key }), 401);
    } finally {
      tracking = false;
      await load;
    }
  });

  it("creates an account that can sign in at once", async () => {
    const email = `${unique("cli")}@example.test`;
    const created = await cli("accounts.ts", "create", email, "reviewer", "--password", "a-long-password");
    expect(created.stdout).toContain(`Created reviewer ${email}`);
    expect((await cli("accounts.ts", "list")).stdout).toContain(email);
    const res = await api("POST", "/api/session", {
      key: null,
      json: { email, password: "a-long-password" },
    });
    expect(res.status).toBe(200);
  });
});

describe("GTFS import from the command line", () => {
  it("imports a feed, lists it, refuses a broken one with its problems, and removes it", async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { writeShoreLine } = await import("../support/transit-fixture");
    const work = mkdtempSync(path.join(tmpdir(), "gtfs-cli-"));
    const env = { DATABASE_URL: databaseUrl, GEODATA_DIR: path.join(work, "geodata") };
    const importCli = (...args: string[]) => runScript("import.ts", args, env, 30_000);
    const feed = writeShoreLine(path.join(work, "shore-line"));
    const done = await importCli(feed);
    expect(done.stdout).toMatch(/Imported shore-line in .* s: 2 stops, 1 routes, 1 trips/);
    expect((await importCli("--list")).stdout).toMatch(
      /shore-line {2}GTFS feed from shore-line, .*: 2 stops, 1 routes, 1 trips/,
    );
    const broken = path.join(work, "broken");
    mkdirSync(broken);
    writeFileSync(path.join(broken, "stops.txt"), "stop_id,stop_lat,stop_lon\nA,91,0\n");
    const failed = (await importCli(broken).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    )) as { code: number; stderr: string };
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/stops\.txt line 2 \(stop_lat\): '91' is not a latitude/);
    expect(failed.stderr).toMatch(/Nothing was changed/);
    expect((await importCli("--remove", "shore-line")).stdout).toMatch(/Removed shore-line/);
  });
});
