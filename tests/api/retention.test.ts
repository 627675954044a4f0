import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FreshServer, startFreshServer } from "../../scripts/fresh-server";
import { numberFrom } from "../support/db";
import { unique } from "../support/api";

/**
 * Retention (docs/deployment.md#retention): trails and SDK logs older than their windows are
 * pruned in the background by every app process. A server of its own (windows of a few seconds
 * would prune the shared test database under the other tests) whose windows are 4.3 s.
 */

let server: FreshServer;
const WINDOW_DAYS = 0.00005; // 4.32 s

beforeAll(async () => {
  server = await startFreshServer({
    env: { TRAIL_DAYS: String(WINDOW_DAYS), LOG_DAYS: String(WINDOW_DAYS) },
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const post = async (path: string, json: unknown) => {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: server.keys.publishable, "content-type": "application/json" },
    body: JSON.stringify(json),
  });
  expect(res.status, await res.clone().text()).toBe(200);
};
const count = (sql: string, deviceId: string) => numberFrom(server.databaseUrl, sql, deviceId);
const trailPoints = (deviceId: string) =>
  count(
    `SELECT COUNT(*) AS n FROM "UserLocation" l JOIN "User" u ON u."seq" = l."userSeq" WHERE u."deviceId" = ?`,
    deviceId,
  );
const logLines = (deviceId: string) =>
  count(`SELECT COUNT(*) AS n FROM "DeviceLog" WHERE "deviceId" = ?`, deviceId);

describe("retention", () => {
  it("prunes trail points and SDK log lines older than their windows, and keeps the newer ones", async () => {
    const old = unique("old");
    for (const [i, lat] of [10.1, 10.2, 10.3].entries()) {
      await post("/v1/track", { deviceId: old, latitude: lat, longitude: 20 + i / 100, accuracy: 10 });
    }
    await post("/v1/logs", { deviceId: old, logs: [{ level: "info", message: "started" }] });
    expect(await trailPoints(old)).toBe(3);
    expect(await logLines(old)).toBe(1);
    // Past the window (and a sweep, every tenth of it): gone, though nothing was sent meanwhile.
    await new Promise((r) => setTimeout(r, 4500));
    const deadline = Date.now() + 5000;
    while ((await trailPoints(old)) + (await logLines(old)) > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await trailPoints(old)).toBe(0);
    expect(await logLines(old)).toBe(0);
    const fresh = unique("fresh");
    await post("/v1/track", { deviceId: fresh, latitude: 11, longitude: 21, accuracy: 10 });
    await post("/v1/logs", { deviceId: fresh, logs: [{ level: "info", message: "started" }] });
    expect(await trailPoints(fresh)).toBe(1);
    expect(await logLines(fresh)).toBe(1);
  }, 60_000);
});
