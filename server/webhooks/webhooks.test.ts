import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import type { ClaimedDelivery, OutboxWrite, WebhookTarget } from "../storage/webhook-records";
import { isPrivate, parseWebhookUrl, privateAddressOf } from "./address-guard";
import { attempt, notTried, retryDelay } from "./attempt";
import { outboxFromJson, outboxJson } from "../storage/outbox-columns";
import { outboxFor, splitOutbox } from "./outbox";
import { post } from "./post";

const clock = () => {
  let n = 0;
  return { wall: () => new Date(1_700_000_000_000 + n), newId: () => `id${++n}` };
};
const events = Array.from({ length: 7 }, (_, i) => ({
  id: `e${i}`,
  type: i % 2 ? "user.exited_geofence" : "user.entered_geofence",
  wire: { _id: `e${i}` },
}));
const user = { id: "u1", live: false, wire: { _id: "u1" } };

/** An outbox row as the store reads it back. */
const stored = (row: OutboxWrite) => ({ ...row, seq: 1, ...outboxFromJson(outboxJson(row)) });

/** The requests an update owes these webhooks: its outbox row, split as a sender splits it. */
function owed(targets: WebhookTarget[], c = clock()) {
  const row = outboxFor(targets, events, user, c);
  if (!row) return [];
  return splitOutbox(stored(row), new Set(targets.map((t) => t.seq)), c.wall(), c.newId);
}

describe("the outbox of an update", () => {
  it("owes a single webhook one request per event, a multiple one requests of at most 5", () => {
    const single = owed([{ seq: 1, mode: "single", types: null }]);
    expect(single.map((d) => d.eventIds)).toEqual(events.map((e) => e.id));
    expect(JSON.parse(single[0]!.body)).toEqual({ event: { _id: "e0" }, user: { _id: "u1" } });
    const multiple = owed([{ seq: 2, mode: "multiple", types: null }]);
    expect(multiple.map((d) => d.eventIds)).toEqual(["e0,e1,e2,e3,e4", "e5,e6"]);
    expect(JSON.parse(multiple[1]!.body).events).toHaveLength(2);
  });

  it("owes a webhook only the types it asked for, and nothing when none matches", () => {
    const exits = owed([{ seq: 3, mode: "single", types: ["user.exited_geofence"] }]);
    expect(exits.map((d) => d.types)).toEqual([
      "user.exited_geofence",
      "user.exited_geofence",
      "user.exited_geofence",
    ]);
    // Nothing owed: no outbox row is written at all.
    expect(
      outboxFor([{ seq: 4, mode: "multiple", types: ["user.entered_place"] }], events, user, clock()),
    ).toBeNull();
  });

  it("is split for the webhooks that still exist, made when the events were", () => {
    const c = clock();
    const targets: WebhookTarget[] = [
      { seq: 1, mode: "single", types: null },
      { seq: 2, mode: "multiple", types: null },
    ];
    const row = outboxFor(targets, events, user, c)!;
    const later = new Date(row.createdAt.getTime() + 60_000);
    const split = splitOutbox(stored(row), new Set([2]), later, c.newId);
    expect(split.map((d) => [d.webhookSeq, d.eventIds])).toEqual([
      [2, "e0,e1,e2,e3,e4"],
      [2, "e5,e6"],
    ]);
    expect(split.every((d) => d.createdAt === row.createdAt && d.nextAttemptAt === later)).toBe(true);
  });
});

/** A delivery as a sender holds it. */
const claimed = (now: Date): ClaimedDelivery => ({
  ...notTried(
    {
      id: "d1",
      webhookSeq: 1,
      live: false,
      userId: "u",
      types: "t",
      eventIds: "e",
      body: "{}",
      nextAttemptAt: now,
      createdAt: now,
    },
    { url: "http://127.0.0.1:9/x", token: "k" },
  ),
  seq: 1,
});

describe("delivery", () => {
  it("waits about 30 s before the first retry, doubling to at most an hour, with jitter", () => {
    expect(retryDelay(1, () => 1)).toBe(30_000);
    expect(retryDelay(1, () => 0)).toBe(15_000);
    expect(retryDelay(3, () => 1)).toBe(120_000);
    expect(retryDelay(20, () => 1)).toBe(3_600_000);
  });

  it("counts a redirect as a refusal without following it, reads 4 KB of an answer, gives up after 24 h", async () => {
    let followed = 0;
    const srv = createServer((req, res) => {
      if (req.url === "/moved") return res.writeHead(302, { location: "/elsewhere" }).end();
      if (req.url === "/elsewhere") return (followed++, res.writeHead(200).end());
      res.writeHead(500).end("x".repeat(64 * 1024));
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
    const before = process.env.WEBHOOKS_ALLOW_PRIVATE;
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    try {
      const now = new Date();
      const moved = await attempt({ ...claimed(now), url: `${base}/moved` }, now);
      expect(moved).toMatchObject({ delivered: false, status: 302, error: "HTTP 302" });
      expect(followed).toBe(0);
      const refused = await attempt({ ...claimed(now), url: `${base}/fail`, attempts: 2 }, now);
      expect(refused).toMatchObject({ delivered: false, status: 500 });
      if (refused.delivered) throw new Error("delivered");
      // The status, never what the receiver said.
      expect(refused.error).toBe("HTTP 500");
      // The third try after two failures: 2 min, less up to half.
      const wait = refused.retryAt!.getTime() - now.getTime();
      expect(wait).toBeGreaterThanOrEqual(60_000);
      expect(wait).toBeLessThanOrEqual(120_000);
      // Made more than 24 hours ago: given up (no retry time).
      const old = new Date(now.getTime() - 24 * 3600_000 - 1);
      const given = await attempt({ ...claimed(now), createdAt: old, url: `${base}/fail` }, now);
      expect(given).toMatchObject({ delivered: false, status: 500, retryAt: null });
    } finally {
      if (before === undefined) delete process.env.WEBHOOKS_ALLOW_PRIVATE;
      else process.env.WEBHOOKS_ALLOW_PRIVATE = before;
      srv.close();
    }
  });

  it("gives up on a receiver that does not answer in time, and reuses a connection", async () => {
    const sockets = new Set<unknown>();
    const srv = createServer((req, res) => {
      sockets.add(req.socket);
      if (req.url === "/slow") return; // never answers
      req.resume();
      req.on("end", () => res.writeHead(204).end());
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
    const before = process.env.WEBHOOKS_ALLOW_PRIVATE;
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    try {
      await expect(post(new URL(`${base}/slow`), "{}", {}, 200, 4096)).rejects.toThrow(
        "no answer within 0.2 s",
      );
      sockets.clear();
      for (let i = 0; i < 10; i++)
        expect((await post(new URL(`${base}/ok`), "{}", {}, 1000, 4096)).status).toBe(204);
      // Kept alive: one connection, or two that take turns (the pool may start the next request
      // before it has seen the last one's connection free), never one per request.
      expect(sockets.size).toBeLessThanOrEqual(2);
    } finally {
      if (before === undefined) delete process.env.WEBHOOKS_ALLOW_PRIVATE;
      else process.env.WEBHOOKS_ALLOW_PRIVATE = before;
      srv.closeAllConnections();
      srv.close();
    }
  });

  it("sends again at once on a fresh connection when a kept-alive one was closed under the request", async () => {
    // The receiver closes a connection when its second request arrives, without answering: what a
    // receiver whose idle timeout ends just as a request is sent on the kept-alive connection does.
    const served = new WeakMap<object, number>();
    let requests = 0;
    const srv = createServer((req, res) => {
      requests++;
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      if (n === 2) return req.socket.destroy();
      req.resume();
      req.on("end", () => res.writeHead(200).end());
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    const url = new URL(`http://127.0.0.1:${(srv.address() as { port: number }).port}/hook`);
    const before = process.env.WEBHOOKS_ALLOW_PRIVATE;
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    try {
      // Each answered: one sent on a kept-alive connection closed under it went again on a new one.
      for (let i = 0; i < 6; i++) expect((await post(url, "{}", {}, 1000, 4096)).status).toBe(200);
      expect(requests).toBeGreaterThan(6);
      // A receiver that closes every connection under its requests is refused (once retried).
      requests = 0;
      const closing = createServer((req) => (requests++, req.socket.destroy()));
      await new Promise<void>((r) => closing.listen(0, "127.0.0.1", r));
      const port = (closing.address() as { port: number }).port;
      await expect(post(new URL(`http://127.0.0.1:${port}/hook`), "{}", {}, 1000, 4096)).rejects.toThrow();
      expect(requests).toBe(2);
      closing.close();
    } finally {
      if (before === undefined) delete process.env.WEBHOOKS_ALLOW_PRIVATE;
      else process.env.WEBHOOKS_ALLOW_PRIVATE = before;
      srv.closeAllConnections();
      srv.close();
    }
  });

  it("gives a receiver that trickles its answer one deadline for the whole attempt", async () => {
    const srv = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/plain" });
      // A byte every 100 ms, for 10 s: never idle long enough for a per-read timeout.
      const tick = setInterval(() => res.write("."), 100);
      setTimeout(() => (clearInterval(tick), res.end()), 10_000);
      res.on("close", () => clearInterval(tick));
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    const before = process.env.WEBHOOKS_ALLOW_PRIVATE;
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    const started = Date.now();
    try {
      const url = new URL(`http://127.0.0.1:${(srv.address() as { port: number }).port}/trickle`);
      await expect(post(url, "{}", {}, 1000, 1 << 20)).rejects.toThrow("no answer within 1 s");
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      if (before === undefined) delete process.env.WEBHOOKS_ALLOW_PRIVATE;
      else process.env.WEBHOOKS_ALLOW_PRIVATE = before;
      srv.closeAllConnections();
      srv.close();
    }
  });

  it.each([
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["::127.0.0.1", true],
    ["::7f00:1", true],
    ["64:ff9b::a00:1", true],
    ["64:ff9b::7f00:1", true],
    ["64:ff9b:1::8.8.8.8", true],
    ["2002:7f00:1::1", true],
    ["2002:a9fe:a9fe::", true],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", true],
    ["192.0.0.8", true],
    ["198.18.0.1", true],
    ["198.19.255.1", true],
    ["240.0.0.1", true],
    ["255.255.255.255", true],
    ["224.0.0.251", true],
    ["ff02::1", true],
    ["8.8.8.8", false],
    ["::ffff:8.8.8.8", false],
    ["64:ff9b::808:808", false],
    ["2002:808:808::1", false],
    ["2606:4700::1111", false],
  ])("judges %s by the IPv4 address it reaches: refused %s", (address, refused) => {
    expect(isPrivate(address)).toBe(refused);
  });

  it("refuses private addresses unless allowed, at creation and before each attempt", async () => {
    const before = process.env.WEBHOOKS_ALLOW_PRIVATE;
    delete process.env.WEBHOOKS_ALLOW_PRIVATE;
    try {
      for (const host of [
        "127.0.0.1",
        "10.1.2.3",
        "172.20.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "[::1]",
        "[fe80::1]",
        "[fd00::1]",
        "localhost",
      ]) {
        expect(await privateAddressOf(new URL(`http://${host}/x`)), host).toMatch(/private/);
      }
      expect(await privateAddressOf(new URL("http://93.184.215.14/x"))).toBeNull();
      const now = new Date();
      for (const url of ["http://127.0.0.1:9/x", "http://localhost:9/x", "https://[::1]:9/x"]) {
        const outcome = await attempt({ ...claimed(now), url }, now);
        expect(outcome, url).toMatchObject({
          delivered: false,
          status: null,
          error: expect.stringMatching(/resolves to .*private/),
        });
      }
    } finally {
      if (before !== undefined) process.env.WEBHOOKS_ALLOW_PRIVATE = before;
    }
    expect(() => parseWebhookUrl("ftp://x")).toThrow(/http or https/);
    expect(() => parseWebhookUrl("https://u:p@example.com")).toThrow(/credentials/);
  });
});
