import { describe, expect, it } from "vitest";
import { serve, startFreshServer } from "../../scripts/fresh-server";
import {
  ENV,
  burst,
  createEdgeGeofence,
  createWebhookByCli,
  receiver,
  stoppedAfterAll,
  until,
} from "./webhooks-fixture";

/**
 * A process stopped the ordinary way (SIGTERM: a deploy, a restart) while it still owes requests
 *: its sender records what it has in flight and says it is gone, so another process
 * sends the rest at once instead of after the 15 s a killed process's rows wait.
 */

const started = stoppedAfterAll();

describe("webhook outbox", () => {
  it("hands a stopped process's unsent requests to another process at once, each sent once, in order", async () => {
    // C runs throughout and tracks nothing; A tracks, is stopped (SIGTERM) with requests still
    // owed, and C sends them. A killed process's would wait up to 15 s (until it counts as gone).
    const fresh = (started.fresh = await startFreshServer({ env: ENV }));
    const { keys, databaseUrl } = fresh;
    let slow = true;
    // A second per request while A runs: it sends at most 4 a second (one per user), so it still
    // owes most of the 120 when it stops however long a busy machine takes over the burst.
    const { url: hookUrl, got, server } = await receiver(() => (slow ? 1000 : 0));
    started.receiver = server;
    await createWebhookByCli(databaseUrl, hookUrl);
    const a = await serve(databaseUrl, { env: ENV });
    started.others.push(a);
    expect((await createEdgeGeofence(a.url, keys.secret, "handed")).status).toBe(200);
    // Each user's requests go one at a time.
    const devices = Array.from({ length: 4 }, (_, i) => `hook-handed-${i}`);
    const acked = await burst([a.url], keys.publishable, devices, Date.now() - 3_600_000, 30, () => false);
    const ackedIds = [...acked.values()].flat();
    expect(ackedIds.length).toBe(4 * 30);
    await until(() => got.length >= 4, 10_000, "the first deliveries");
    await a.stop();
    expect(a.output()).toMatch(
      /"unsent":\d+,"msg":"webhooks: left the requests not sent to the other processes"/,
    );
    const stoppedAt = Date.now();
    expect(got.length).toBeLessThan(ackedIds.length / 2);
    slow = false;
    const received = () => new Set(got.map((g) => g.eventId));
    await until(() => ackedIds.every((id) => received().has(id)), 30_000, "every acknowledged event");
    expect(Date.now() - stoppedAt).toBeLessThan(8_000);
    // What A had in flight was recorded before it left: nothing sent twice.
    const ids = got.map((g) => g.deliveryId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [deviceId, sent] of acked)
      expect(
        got.filter((g) => g.deviceId === deviceId).map((g) => g.eventId),
        deviceId,
      ).toEqual(sent);
  }, 120_000);
});
