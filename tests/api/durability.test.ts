import { request } from "node:http";
import { numberFrom } from "../support/db";
import { afterAll, describe, expect, it } from "vitest";
import { type FreshServer, type RunningServer, serve, startFreshServer } from "../../scripts/fresh-server";

/**
 * kill -9 in the middle of a stream of location updates: every update the server acknowledged
 * is there after a restart. Runs on a server of its own, since it kills it.
 */

let fresh: FreshServer | undefined;
let restarted: RunningServer | undefined;

afterAll(async () => {
  await restarted?.stop();
  await fresh?.stop();
});

describe("durability", () => {
  it("loses no acknowledged update when the server is killed mid-stream", async () => {
    fresh = await startFreshServer();
    const { url, keys } = fresh;
    const acked = new Map<string, { n: number; updatedAt: string }[]>();
    const t0 = Date.now() - 3_600_000;
    let stop = false;

    const client = async (deviceId: string) => {
      const mine: { n: number; updatedAt: string }[] = [];
      acked.set(deviceId, mine);
      for (let n = 0; !stop && n < 10_000; n++) {
        const updatedAt = new Date(t0 + n * 1000).toISOString();
        try {
          const res = await fetch(`${url}/v1/track`, {
            method: "POST",
            headers: { authorization: keys.publishable, "content-type": "application/json" },
            body: JSON.stringify({ deviceId, latitude: 10 + n / 1e5, longitude: 20, accuracy: 5, updatedAt }),
          });
          if (res.status !== 200) break;
          await res.json();
          mine.push({ n, updatedAt });
        } catch {
          break; // the server is gone
        }
      }
    };
    const clients = Array.from({ length: 6 }, (_, i) => client(`durable-${i}`));
    // Killed once a stream is well under way (a fixed delay was too short on a loaded machine:
    // the first updates wait for the tracking thread to load its regions).
    const acknowledged = () => [...acked.values()].reduce((s, a) => s + a.length, 0);
    for (const start = Date.now(); acknowledged() < 60 && Date.now() - start < 20_000;) {
      await new Promise((r) => setTimeout(r, 50));
    }
    process.kill(fresh.pid, "SIGKILL");
    stop = true;
    await Promise.all(clients);

    expect(acknowledged()).toBeGreaterThan(20);
    await expect(fetch(`${url}/healthz`), "the killed server is gone").rejects.toThrow();

    restarted = await serve(fresh.databaseUrl);
    for (const [deviceId, mine] of acked) {
      if (!mine.length) continue;
      const last = mine[mine.length - 1]!;
      const res = await fetch(`${restarted.url}/v1/users/${deviceId}`, {
        headers: { authorization: keys.secret },
      });
      const { user } = (await res.json()) as { user: { updatedAt: string } };
      // An update in flight at the kill may have been written without being acknowledged.
      expect(user.updatedAt >= last.updatedAt, `${deviceId}: ${user.updatedAt} < ${last.updatedAt}`).toBe(
        true,
      );
      const stored = await numberFrom(
        fresh.databaseUrl,
        `SELECT COUNT(*) AS n FROM "UserLocation" l JOIN "User" u ON u."seq" = l."userSeq" WHERE u."deviceId" = ?`,
        deviceId,
      );
      expect(stored).toBeGreaterThanOrEqual(mine.length);
    }
  }, 60_000);

  it("answers the requests in flight when it is stopped (even when the stop comes twice) before it exits", async () => {
    const stopping = await serve(fresh!.databaseUrl);
    const body = JSON.stringify({
      deviceId: "stopped-mid-request",
      latitude: 10,
      longitude: 20,
      accuracy: 5,
    });
    // A request whose body is half sent when the stop comes (a deploy under load).
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        `${stopping.url}/v1/track`,
        {
          method: "POST",
          headers: {
            authorization: fresh!.keys.publishable,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode!, text }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 20));
      setTimeout(() => req.end(body.slice(20)), 700);
    });
    await new Promise((r) => setTimeout(r, 200));
    // The stop comes twice, as a terminal's Ctrl-C does (to the server, and forwarded by `npm
    // start`). SIGTERM here: this test's processes inherit SIGINT ignored, which hides the second.
    process.kill(stopping.pid, "SIGTERM");
    await new Promise((r) => setTimeout(r, 100));
    process.kill(stopping.pid, "SIGTERM");
    const { status, text } = await answer;
    expect(status, text).toBe(200);
    await stopping.stop();
    await expect(fetch(`${stopping.url}/healthz`), "the stopped server is gone").rejects.toThrow();
    const res = await fetch(`${restarted!.url}/v1/users/stopped-mid-request`, {
      headers: { authorization: fresh!.keys.secret },
    });
    expect(res.status).toBe(200);
  }, 60_000);
});
