import { geofenceBody, randomPoint, rng } from "./geofence-data";
import { settle } from "./geofences";
import type { Bench } from "./suite";
import { tripRounds } from "./trips";

/**
 * 10,000 geofences and 100,000 users are seeded in this process with the project's own domain
 * functions (the same code the API runs, minus HTTP), then a stream of updates from many
 * devices is measured through POST /v1/track.
 */
export async function trackingSuite(b: Bench, geofences: number, users: number): Promise<void> {
  if (b.trips) return tripRounds(b, Math.min(users, 2000));
  const { server } = b;
  const { createGeofence } = await import("../server/geofences/write");
  const { geofenceWriteSchema } = await import("../server/geofences/schema");
  const { track } = await import("../server/tracking/track");
  const { trackSchema } = await import("../server/tracking/schema");
  const key = { id: "bench", kind: "secret" as const, live: false };
  const auth = { authorization: server.keys.publishable, "content-type": "application/json" };

  let t = Date.now();
  const r = rng(42);
  for (let i = 0; i < geofences; i++)
    await createGeofence(key, geofenceWriteSchema.parse(geofenceBody(i, r, b.area)));
  console.log(`  seeded ${geofences} geofences in ${((Date.now() - t) / 1000).toFixed(1)} s`);

  t = Date.now();
  const start = Date.now() - 3_600_000;
  const positions: [number, number][] = [];
  for (let i = 0; i < users; i++) {
    const [lng, lat] = randomPoint(r, b.area);
    positions.push([lng, lat]);
    await track(
      key,
      trackSchema.parse({
        deviceId: `device-${i}`,
        latitude: lat,
        longitude: lng,
        accuracy: 20,
        // 10 ms apart: an update's events take the instants after its own (each event's
        // createdAt is distinct), and at 1 ms apart each user's events pushed the next user's
        // further on, so that every update probed more instants (seeding slowed as users grew:
        // 188 updates/s at 3,000 users, over 10 minutes for 20,000).
        updatedAt: start + i * 10,
      }),
    );
  }
  const seeded = (Date.now() - t) / 1000;
  console.log(
    `  seeded ${users} users in ${seeded.toFixed(1)} s (${Math.round(users / seeded)} updates/s in-process)`,
  );

  await settle(server.databaseUrl);

  // Each update moves a random device up to ~200 m from where it was.
  const pick = rng(9);
  const step = 200 / 111_195;
  const next = () => {
    const i = Math.floor(pick() * users);
    const p = positions[i]!;
    p[0] = Math.min(b.area.maxLng, Math.max(b.area.minLng, p[0] + (pick() - 0.5) * 2 * step));
    p[1] = Math.min(b.area.maxLat, Math.max(b.area.minLat, p[1] + (pick() - 0.5) * 2 * step));
    const body = JSON.stringify({
      deviceId: `device-${i}`,
      latitude: p[1],
      longitude: p[0],
      accuracy: 10 + pick() * 40,
    });
    return { method: "POST", path: "/v1/track", body };
  };
  // What a move makes where the devices are: events per update, on a sample run in-process
  // before the HTTP rounds (the same moves the rounds send).
  const sample = 1000;
  let made = 0;
  let inside = 0;
  t = Date.now();
  for (let k = 0; k < sample; k++) {
    const result = await track(key, trackSchema.parse(JSON.parse(next().body) as unknown));
    made += result.events.length;
    inside += result.geofences.length;
  }
  b.note(
    `A move makes ${(made / sample).toFixed(1)} events on average and ends inside ` +
      `${(inside / sample).toFixed(1)} geofences (${sample} moves in-process, ` +
      `${((Date.now() - t) / sample).toFixed(2)} ms each).`,
  );
  if (b.webhooks)
    return webhookRounds(b, `POST /v1/track (${geofences} geofences, ${users} users)`, auth, next);
  // This machine's speed drifts by ±20% over minutes, so the no-op route, the floor and
  // tracking are measured in alternating rounds and compared within each round.
  const invalid = JSON.stringify({ deviceId: "floor", latitude: 100, longitude: 0, accuracy: 10 });
  const name = `POST /v1/track (${geofences} geofences, ${users} users)`;
  const ratios: { floor: number; track: number; cpu?: number }[] = [];
  // Tracking warmed up first, not counted: the first run after seeding is slower (the geofences
  // met for the first time are read and decoded, SQLite's cache fills; round 1 was 10–20% below
  // round 2 on both engines without it). With --compare, on both sides alike.
  await b.pace?.("warm-up");
  await b.run({
    name: `${name}, warm-up`,
    url: server.url,
    headers: auth,
    connections: b.connections,
    duration: b.duration,
    next,
  });
  for (let round = 1; round <= b.rounds; round++) {
    await b.pace?.(`round ${round}`);
    const noop = await b.run({
      name: `no-op GET /healthz, round ${round}`,
      url: `${server.url}/healthz`,
      connections: b.connections,
      duration: b.duration,
    });
    // The floor of any POST: key check, body read and validation, answered 400 before any work.
    const floor = await b.run({
      name: `POST /v1/track invalid (floor: key, body, validation), round ${round}`,
      url: server.url,
      headers: auth,
      connections: b.connections,
      duration: b.duration,
      expectErrors: true,
      next: () => ({ method: "POST", path: "/v1/track", body: invalid }),
    });
    const tracked = await b.run({
      name: `${name}, round ${round}`,
      url: server.url,
      headers: auth,
      connections: b.connections,
      duration: b.duration,
      next,
    });
    ratios.push({
      floor: floor.rps / noop.rps,
      track: tracked.rps / noop.rps,
      ...(noop.cpuMs && tracked.cpuMs ? { cpu: noop.cpuMs / tracked.cpuMs } : {}),
    });
  }
  await b.pace?.("latency");
  await b.run({ name, url: server.url, headers: auth, connections: 1, duration: b.duration, next });
  const pct = (x: number) => `${Math.round(100 * x)}%`;
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  b.note(
    `Tracking vs the no-op route of the same round: ${ratios.map((r) => pct(r.track)).join(", ")} ` +
      `(median ${pct(median(ratios.map((r) => r.track)))}); the invalid-POST floor: ` +
      `${ratios.map((r) => pct(r.floor)).join(", ")} (median ${pct(median(ratios.map((r) => r.floor)))}).`,
  );
  const cpu = ratios.flatMap((r) => (r.cpu ? [r.cpu] : []));
  if (cpu.length) {
    b.note(
      `Server CPU per no-op request / per tracked update (the throughput ratio when the server is ` +
        `the bottleneck, without the machine's drift): ${cpu.map(pct).join(", ")} (median ${pct(median(cpu))}).`,
    );
  }
}

/**
 * Tracking with two enabled webhooks against tracking without, in the same rounds (the webhooks
 * disabled, then enabled); receivers here answer at once and record each event's lag (received
 * minus the event's createdAt).
 */
async function webhookRounds(
  b: Bench,
  name: string,
  auth: Record<string, string>,
  next: () => { method: string; path: string; body: string },
): Promise<void> {
  const { Worker } = await import("node:worker_threads");
  const { createWebhook, setWebhookEnabled } = await import("../server/webhooks/manage");
  const lags: number[] = [];
  /** when each device's updates were sent, while counting (see `stamped` below) */
  const sentAt = new Map<string, number[]>();
  let counting = false;
  // The receivers run on a thread of their own: they share the machine's two cores with the
  // server (what they spend is not the service's, but it is spent here), and do not hold up the
  // load generator's event loop, which would otherwise answer them between its own requests.
  const receivers = new Worker(RECEIVERS, { eval: true });
  const ports = await new Promise<number[]>((resolve) => receivers.once("message", resolve));
  /** What the receivers got since the last call: [deviceId, received at, events] for each body. */
  const received = () =>
    new Promise<[string, number, number][]>((resolve) => {
      receivers.once("message", resolve);
      receivers.postMessage("take");
    });
  /** A body's lag: from the latest update of its device sent before it arrived. */
  const addLags = (got: [string, number, number][]) => {
    for (const [deviceId, at, events] of got) {
      const times = sentAt.get(deviceId);
      let sent: number | undefined;
      for (let k = (times?.length ?? 0) - 1; k >= 0; k--)
        if (times![k]! <= at) {
          sent = times![k];
          break;
        }
      if (sent !== undefined) for (let i = 0; i < events; i++) lags.push(at - sent);
    }
  };
  const hooks: { id: string }[] = [];
  for (const port of ports) {
    hooks.push(
      (await createWebhook({ url: `http://127.0.0.1:${port}/`, live: false, mode: "multiple" })).webhook,
    );
  }
  const set = async (enabled: boolean) => {
    for (const h of hooks) await setWebhookEnabled(h.id, enabled);
  };
  const ratios: number[] = [];
  const drain = async () => {
    // What was made may still be being sent: drained before the next run (at most 60 s).
    const { prisma } = await import("../server/db/client");
    for (const end = Date.now() + 60_000; Date.now() < end;) {
      const owed =
        (await prisma.webhookOutbox.count()) +
        (await prisma.webhookDelivery.count({ where: { status: "pending" } }));
      if (owed === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  // When each device's latest update was sent: a request's events reach the receiver with the
  // user's deviceId, and the lag is from the update's sending. (Not from the events' createdAt,
  // which is strictly increasing per process and so runs ahead of the machine's time here.)
  const stamped = () => {
    const r = next();
    if (counting) {
      const deviceId = /"deviceId":"([^"]+)"/.exec(r.body)![1]!;
      const times = sentAt.get(deviceId);
      if (times) times.push(Date.now());
      else sentAt.set(deviceId, [Date.now()]);
    }
    return r;
  };
  const measure = async (hooked: boolean, round: number) => {
    await set(hooked);
    await received();
    counting = hooked;
    const label = hooked ? "2 webhooks" : "no webhooks";
    const m = await b.run({
      name: `${name}, ${label}, ${round ? `round ${round}` : "warm-up"}`,
      url: b.server.url,
      headers: auth,
      connections: b.connections,
      duration: b.duration,
      next: stamped,
    });
    await drain();
    counting = false;
    const got = await received();
    if (hooked) addLags(got);
    sentAt.clear();
    return m;
  };
  const cpu: number[] = [];
  // Both sides once before the rounds, not counted: the first run after loading is slower
  // (seen: round 1 at 112–144% every time before this warm-up).
  await measure(false, 0);
  await measure(true, 0);
  for (let round = 1; round <= b.rounds; round++) {
    // The order alternates, so neither side always follows the other's drain.
    const first = round % 2 === 1;
    const a = await measure(!first, round);
    const c = await measure(first, round);
    const [hooked, plain] = first ? [c, a] : [a, c];
    ratios.push(hooked.rps / plain.rps);
    if (hooked.cpuMs && plain.cpuMs) cpu.push(plain.cpuMs / hooked.cpuMs);
  }
  await receivers.terminate();
  const sorted = [...lags].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const pct = (x: number) => `${Math.round(100 * x)}%`;
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  b.note(
    `Tracking with 2 enabled webhooks vs without, same rounds: ${ratios.map(pct).join(", ")} ` +
      `(median ${pct(median(ratios))}). ` +
      (cpu.length
        ? `Server CPU per update without / with (sending included): ${cpu.map(pct).join(", ")} (median ${pct(median(cpu))}). `
        : "") +
      `Delivery lag (update sent to receiver), ${sorted.length} events: p50 ${at(0.5)} ms, ` +
      `p99 ${at(0.99)} ms, max ${sorted.at(-1)} ms.`,
  );
}

/**
 * The receivers' thread (plain JavaScript, run with `eval`): two HTTP servers that answer 200 at
 * once; for each body they note its deviceId, when it arrived and how many events it holds
 * (without parsing it: a "multiple" body has one `"type":"user.` per event), and hand the notes
 * over when asked ("take"). It posts its two ports first.
 */
const RECEIVERS = `
const { createServer } = require("node:http");
const { parentPort } = require("node:worker_threads");
let notes = [];
const receiver = () =>
  new Promise((resolve) => {
    const srv = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        res.writeHead(200).end();
        const deviceId = /"deviceId":"([^"]+)"/.exec(body)?.[1];
        if (deviceId) notes.push([deviceId, Date.now(), body.split('"type":"user.').length - 1]);
      });
    });
    srv.listen(0, "127.0.0.1", () => resolve(srv.address().port));
  });
Promise.all([receiver(), receiver()]).then((ports) => parentPort.postMessage(ports));
parentPort.on("message", () => {
  parentPort.postMessage(notes);
  notes = [];
});
`;
