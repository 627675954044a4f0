import { type Server, createServer } from "node:http";
import { afterAll } from "vitest";
import type { FreshServer, RunningServer } from "../../scripts/fresh-server";
import { runScript } from "../support/cli";

/**
 * What the webhook outbox's process tests share (./webhooks-durability.test.ts,
 * ./webhooks-handover.test.ts): a receiver, a wait, a burst of tracking, a webhook made by the CLI.
 */

export const ENV = { WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_RETRY_SCALE: "0.01" };

/**
 * What a test file starts, stopped after its tests: the other servers first, then the fresh one
 * (whose stop drops the database), then the receiver.
 */
export function stoppedAfterAll() {
  const started = {
    fresh: undefined as FreshServer | undefined,
    others: [] as RunningServer[],
    receiver: undefined as Server | undefined,
  };
  afterAll(async () => {
    for (const s of started.others) await s.stop();
    await started.fresh?.stop();
    started.receiver?.close();
  });
  return started;
}

/**
 * A receiver of single-mode requests: each request's webhook-id and event, in the order they
 * were answered, each answered after `delay()` ms.
 */
export async function receiver(delay = () => 0) {
  const got: { deliveryId: string; eventId: string; deviceId: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const json = JSON.parse(body) as { event: { _id: string }; user: { deviceId: string } };
      setTimeout(() => {
        got.push({
          deliveryId: req.headers["webhook-id"] as string,
          eventId: json.event._id,
          deviceId: json.user.deviceId,
        });
        res.writeHead(200).end();
      }, delay());
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, got, server };
}

/** A webhook for `url`, made by the CLI next to the servers of `databaseUrl`. */
export async function createWebhookByCli(databaseUrl: string, url: string) {
  await runScript("webhooks.ts", ["create", url], { DATABASE_URL: databaseUrl, ...ENV });
}

/** A 500 m circle at (-30, -20), the burst's edge. */
export async function createEdgeGeofence(url: string, secretKey: string, description: string) {
  return fetch(`${url}/v1/geofences`, {
    method: "POST",
    headers: { authorization: secretKey, "content-type": "application/json" },
    body: JSON.stringify({ description, type: "circle", coordinates: [-20, -30], radius: 500 }),
  });
}

export async function until(check: () => boolean, ms: number, what: string) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Devices crossing a geofence's edge back and forth: every acknowledged update makes an event. */
export async function burst(
  urls: string[],
  key: string,
  devices: string[],
  t0: number,
  max: number,
  stopWhen: () => boolean,
) {
  const acked = new Map<string, string[]>(devices.map((d) => [d, []]));
  await Promise.all(
    devices.map(async (deviceId, i) => {
      for (let n = 0; n < max && !stopWhen(); n++) {
        const url = urls[(n + i) % urls.length]!;
        try {
          const res = await fetch(`${url}/v1/track`, {
            method: "POST",
            headers: { authorization: key, "content-type": "application/json" },
            body: JSON.stringify({
              deviceId,
              latitude: n % 2 === 0 ? -30 : -30.1,
              longitude: -20,
              accuracy: 5,
              updatedAt: new Date(t0 + n * 60_000).toISOString(),
            }),
          });
          if (res.status !== 200) break;
          const { events } = (await res.json()) as { events: { _id: string }[] };
          acked.get(deviceId)!.push(...events.map((e) => e._id));
        } catch {
          break; // the server is gone
        }
      }
    }),
  );
  return acked;
}
