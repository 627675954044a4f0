import { beforeAll, describe, expect, it } from "vitest";
import type { TrackInput } from "../../tracking/schema";
import { usePostgresDatabase } from "./test-database.fixture";

/**
 * Group commit on PostgreSQL (./tracking.ts), at the store, on a fresh database: updates
 * queued together share a transaction, a failing one fails alone, and two devices of one user in
 * one batch are still decided one after the other. Needs TEST_POSTGRES_URL (a role that may
 * create databases, as .ci/run sets); skipped without it.
 */

const adminUrl = process.env.TEST_POSTGRES_URL;
const key = { id: "test", kind: "secret" as const, live: false };

describe.skipIf(!adminUrl)("PostgreSQL group commit", () => {
  usePostgresDatabase(adminUrl!);
  let m: {
    storage: typeof import("../../storage").storage;
    decide: typeof import("../../tracking/decide").decide;
    processClock: typeof import("../../tracking/track").processClock;
    prepareKinds: typeof import("../../tracking/kinds").prepareKinds;
    track: typeof import("../../tracking/track").track;
    batches: typeof import("./tracking").batchesCommitted;
  };

  beforeAll(async () => {
    m = {
      storage: (await import("../../storage")).storage,
      decide: (await import("../../tracking/decide")).decide,
      processClock: (await import("../../tracking/track")).processClock,
      prepareKinds: (await import("../../tracking/kinds")).prepareKinds,
      track: (await import("../../tracking/track")).track,
      batches: (await import("./tracking")).batchesCommitted,
    };
  });

  const input = (deviceId: string, latitude: number, extra: Partial<TrackInput> = {}): TrackInput =>
    ({ deviceId, latitude, longitude: 10, accuracy: 10, ...extra }) as TrackInput;

  /** Updates handed to the store in one turn of the event loop: they form one batch. */
  async function together(inputs: (TrackInput | "fails")[]) {
    const hints = await Promise.all(inputs.map((i) => (i === "fails" ? null : m.prepareKinds(false, i))));
    return Promise.allSettled(
      inputs.map((i, k) =>
        i === "fails"
          ? m
              .storage()
              .tracking.apply({ live: false, deviceId: `fails-${k}`, userId: null }, async (read) => {
                await read.userByDeviceId(false, `fails-${k}`, false);
                throw new Error("this update fails");
              })
          : m
              .storage()
              .tracking.apply({ live: false, deviceId: i.deviceId, userId: i.userId ?? null }, (read) =>
                m.decide(read, { live: false, kind: "publishable" }, i, m.processClock, hints[k]!),
              ),
      ),
    );
  }

  it("commits updates queued together in one batch, each answered with its own user", async () => {
    const before = m.batches.count;
    const results = await together(Array.from({ length: 20 }, (_, k) => input(`many-${k}`, 1 + k / 1000)));
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    expect(m.batches.count).toBeGreaterThan(before);
    const users = results.map(
      (r) => (r as PromiseFulfilledResult<{ user: { deviceId: string } }>).value.user,
    );
    expect(users.map((u) => u.deviceId)).toEqual(Array.from({ length: 20 }, (_, k) => `many-${k}`));
    const again = await m.track(key, input("many-7", 5));
    expect(again.user.latitude).toBe(5);
  });

  it("fails a failing update alone and writes the others of its batch", async () => {
    const results = await together([input("kept-1", 2), "fails", input("kept-2", 3)]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((await m.track(key, input("kept-2", 4))).user.latitude).toBe(4);
  });

  it("decides two devices of one user found in one batch one after the other", async () => {
    const { createGeofence } = await import("../../geofences/write");
    const { geofenceWriteSchema } = await import("../../geofences/schema");
    await createGeofence(
      key,
      geofenceWriteSchema.parse({ description: "zone", type: "circle", coordinates: [10, 20], radius: 300 }),
    );
    // The user is device b's, named by userId on device a: different device locks, one user row.
    await m.track(key, input("b", 21, { userId: "one-user" }));
    const results = await together([
      input("a", 20, { userId: "one-user" }),
      input("b", 20),
      ...Array.from({ length: 6 }, (_, k) => input(`near-${k}`, 22)),
    ]);
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    const [first, second] = results.map(
      (r) => (r as PromiseFulfilledResult<{ user: { id: string }; events: { type: string }[] }>).value,
    );
    const entries = [first!, second!].filter((r) => r.events.some((e) => e.type === "user.entered_geofence"));
    // Each user entered once: one user twice would be an update decided on a stale row.
    expect(new Set(entries.map((r) => r.user.id)).size).toBe(entries.length);
    expect(entries.length).toBeGreaterThan(0);
  });

  it("writes every part of a batch's plans as each update alone would", async () => {
    const { createGeofence } = await import("../../geofences/write");
    const { geofenceWriteSchema } = await import("../../geofences/schema");
    await createGeofence(
      key,
      geofenceWriteSchema.parse({
        description: "dwell",
        type: "circle",
        coordinates: [10, 30],
        radius: 300,
        dwellThreshold: 5,
      }),
    );
    const t0 = Date.UTC(2026, 10, 1, 12);
    const at = (minutes: number) => ({ updatedAt: new Date(t0 + minutes * 60_000) });
    for (const d of ["w-out", "w-dwell"]) await m.track(key, input(d, 30, at(0)));
    const types = (r: PromiseSettledResult<unknown>) =>
      (r as PromiseFulfilledResult<{ events: { type: string }[] }>).value.events.map((e) => e.type).sort();
    // One batch: one user exits, one dwells, a new one enters, a new one stays away.
    const before = m.batches.count;
    const batch = await together([
      input("w-out", 31, at(10)),
      input("w-dwell", 30, at(10)),
      input("w-new", 30, at(10)),
      input("w-away", 31, at(10)),
    ]);
    expect(m.batches.count).toBe(before + 1);
    expect(types(batch[0]!)).toContain("user.exited_geofence");
    expect(types(batch[1]!)).toContain("user.dwelled_in_geofence");
    expect(types(batch[2]!)).toContain("user.entered_geofence");
    expect(types(batch[3]!).filter((t) => t.includes("geofence"))).toEqual([]);
    // What the batch wrote is what the next updates (alone) read: memberships, dwell, position.
    const next = async (d: string, lat: number) =>
      (await m.track(key, input(d, lat, at(20)))).events.map((e) => e.type);
    expect(await next("w-out", 30)).toContain("user.entered_geofence");
    expect(await next("w-dwell", 30)).not.toContain("user.dwelled_in_geofence");
    expect(await next("w-new", 31)).toContain("user.exited_geofence");
    expect((await next("w-away", 31)).filter((t) => t.includes("geofence"))).toEqual([]);
    const { pool } = await import("./pool");
    const trail = await pool().query(
      `SELECT COUNT(*)::int AS n FROM "UserLocation" l JOIN "User" u ON u."seq" = l."userSeq" WHERE u."deviceId" = 'w-out'`,
    );
    expect(trail.rows[0].n).toBe(3);
  });
  it("reads and writes the trips of a batch's users as each update alone would", async () => {
    const { createGeofence } = await import("../../geofences/write");
    const { geofenceWriteSchema } = await import("../../geofences/schema");
    await createGeofence(
      key,
      geofenceWriteSchema.parse({
        description: "drop-off",
        tag: "batch-trip",
        externalId: "end",
        type: "circle",
        coordinates: [10, 50],
        radius: 300,
      }),
    );
    const options = (k: number) => ({
      tripOptions: {
        externalId: `batch-trip-${k}`,
        destinationGeofenceTag: "batch-trip",
        destinationGeofenceExternalId: "end",
        mode: "car" as const,
        scheduledArrivalAt: undefined,
      },
    });
    const riders = Array.from({ length: 6 }, (_, k) => k);
    for (const k of riders) {
      const started = await m.track(key, input(`rider-${k}`, 49, { userId: `rider-${k}`, ...options(k) }));
      expect(started.events.map((e) => e.type)).toContain("user.started_trip");
    }
    // One batch: the riders move on (half of them arrive), beside users on no trip.
    const before = m.batches.count;
    const batch = await together([
      ...riders.map((k) => input(`rider-${k}`, k % 2 ? 50 : 49.5, { userId: `rider-${k}` })),
      ...Array.from({ length: 4 }, (_, k) => input(`walker-${k}`, 49)),
    ]);
    expect(m.batches.count).toBe(before + 1);
    const answers = batch.map(
      (r) =>
        (
          r as PromiseFulfilledResult<{
            events: { type: string }[];
            shown: { trip?: { externalId: string } };
          }>
        ).value,
    );
    expect(answers.slice(0, 6).map((a) => a.shown.trip?.externalId)).toEqual(
      riders.map((k) => `batch-trip-${k}`),
    );
    expect(answers.slice(6).map((a) => a.shown.trip)).toEqual([undefined, undefined, undefined, undefined]);
    for (const k of riders) {
      expect(answers[k]!.events.some((e) => e.type === "user.arrived_at_trip_destination")).toBe(k % 2 === 1);
    }
    // What the batch wrote is what the store holds: the arrivals and each trip's ETA from there.
    const { pool } = await import("./pool");
    const trips = await pool().query(
      `SELECT "externalId", "status" FROM "Trip" WHERE "externalId" LIKE 'batch-trip-%' ORDER BY "externalId"`,
    );
    expect(trips.rows.map((t: { status: string }) => t.status)).toEqual(
      riders.map((k) => (k % 2 ? "arrived" : expect.stringMatching(/started|approaching/))),
    );
  });

  it("decides an update again when PostgreSQL ends a deadlock with it, rather than failing it", async () => {
    const { pool } = await import("./pool");
    const { lockKey } = await import("./sql");
    await m.track(key, input("deadlock", 40));
    // Another transaction holds the user's row, then waits for the device's lock, which the
    // update holds while it waits for the row: a circle, which PostgreSQL ends by rolling back
    // the update (the first to wait).
    const other = await pool().connect();
    try {
      await other.query("BEGIN");
      await other.query(`SELECT 1 FROM "User" WHERE "deviceId" = 'deadlock' FOR UPDATE`);
      const update = m.track(key, input("deadlock", 41));
      await new Promise((r) => setTimeout(r, 300));
      await other.query(`SELECT pg_advisory_xact_lock(${lockKey("device:test:deadlock")})`);
      await other.query("COMMIT");
      expect((await update).user.latitude).toBe(41);
    } finally {
      other.release();
    }
  }, 20_000);
});
