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
 * The outbox under stress: kill -9 during a burst of tracking loses no event a
 * receiver is owed, and two app processes on one database share the sending without sending a
 * request twice. A server of its own (it is killed).
 */

const started = stoppedAfterAll();

describe("webhook outbox", () => {
  it("delivers every acknowledged event after kill -9 and a restart, in order per user, and two processes send each request once", async () => {
    const fresh = (started.fresh = await startFreshServer({ env: ENV }));
    const { url, keys, databaseUrl } = fresh;
    const { url: hookUrl, got, server } = await receiver();
    started.receiver = server;
    await createWebhookByCli(databaseUrl, hookUrl);
    expect((await createEdgeGeofence(url, keys.secret, "durable")).status).toBe(200);

    // A burst, killed once well under way (a server's secret key: a publishable key's device is
    // rate-limited past its burst, which would end the stream before the kill).
    let killed = false;
    const devices = Array.from({ length: 5 }, (_, i) => `hook-durable-${i}`);
    const running = burst([url], keys.secret, devices, Date.now() - 3_600_000 * 24, 400, () => killed);
    const count = () => got.length;
    await until(() => count() >= 30, 30_000, "the first deliveries");
    process.kill(fresh.pid, "SIGKILL");
    killed = true;
    const acked = await running;
    const ackedIds = [...acked.values()].flat();
    // Well under way: 30 delivered, of which at most the five devices' answers in flight (two
    // events each at most) were lost with the process before the client read them.
    expect(ackedIds.length).toBeGreaterThanOrEqual(20);

    // Restarted, and a second process beside it: the rest is sent, each request once.
    started.others.push(await serve(databaseUrl, { env: ENV }), await serve(databaseUrl, { env: ENV }));
    const received = () => new Set(got.map((g) => g.eventId));
    // A queue held by the killed process is let go when its hold (30 s) runs out.
    await until(() => ackedIds.every((id) => received().has(id)), 60_000, "every acknowledged event");
    for (const [deviceId, ids] of acked) {
      const order = [...new Set(got.filter((g) => g.deviceId === deviceId).map((g) => g.eventId))];
      expect(
        order.filter((id) => ids.includes(id)),
        deviceId,
      ).toEqual(ids);
    }

    // Normal operation with two processes: a new burst through both, nothing sent twice, in
    // order per user.
    const before = got.length;
    const more = await burst(
      started.others.map((s) => s.url),
      keys.publishable,
      devices.map((d) => `${d}-two`),
      Date.now() - 3_600_000,
      20,
      () => false,
    );
    const moreIds = [...more.values()].flat();
    await until(() => moreIds.every((id) => received().has(id)), 30_000, "the second burst");
    const later = got.slice(before).map((g) => g.deliveryId);
    expect(new Set(later).size).toBe(later.length);
    // A device's updates alternate between the two processes: each sends its own process's
    // rows, and a row waits while an earlier one of its user is the other's.
    for (const [deviceId, ids] of more) {
      const order = got
        .slice(before)
        .filter((g) => g.deviceId === deviceId)
        .map((g) => g.eventId);
      expect(order, deviceId).toEqual(ids);
    }
  }, 180_000);
});
