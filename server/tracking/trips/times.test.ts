import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrackInput } from "../schema";
import type { CreateTripInput, UpdateTripInput } from "./schema";

/**
 * A trip's times are the machine's, as they happened, on a real database file: the process's
 * strictly increasing clock (list cursors) runs ahead of it after a burst of writes, such as an
 * import of many geofences, and must not move a trip's start past the locations tracked on it.
 */

const dir = mkdtempSync(path.join(tmpdir(), "trip-times-test-"));
const key = { id: "test", kind: "secret" as const, live: false };
const caller = { key, claimed: {} };
let mod: {
  track: typeof import("../track").track;
  trips: typeof import("./commands");
  ids: typeof import("../../storage/ids");
};

beforeAll(async () => {
  process.env.DATABASE_URL = `file:${path.join(dir, "t.db")}`;
  const { migrate } = await import("../../../scripts/migrate");
  await migrate();
  mod = {
    track: (await import("../track")).track,
    trips: await import("./commands"),
    ids: await import("../../storage/ids"),
  };
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fix = (latitude: number): TrackInput =>
  ({ deviceId: "phone-1", userId: "courier-1", latitude, longitude: 2.35, accuracy: 5 }) as TrackInput;

const ms = (at: unknown) => new Date(at as string | Date).getTime();

describe("a trip's times", () => {
  it("hold the locations tracked while it ran when the strictly increasing clock runs ahead", async () => {
    const { track, trips, ids } = mod;
    await track(key, fix(48.85));
    // A burst of a minute's worth of stamps in less than a second.
    const ahead = Date.now() + 60_000;
    ids.seedClock(ahead);
    const before = Date.now();
    const { trip } = await trips.createTrip(caller, {
      externalId: "order-1",
      userId: "courier-1",
    } as CreateTripInput);
    const started = ms(trip.startedAt);
    expect(started).toBeGreaterThanOrEqual(before);
    expect(started).toBeLessThanOrEqual(Date.now());
    // Its createdAt, the list's cursor, still follows the strictly increasing clock.
    expect(ms(trip.createdAt)).toBeGreaterThan(ahead);

    await track(key, fix(48.86));
    await track(key, fix(48.87));
    await trips.updateTrip(caller, "order-1", { status: "completed" } as UpdateTripInput);
    await track(key, fix(48.88));

    const got = await trips.getTrip(key, "order-1", true);
    const path = (got.locations ?? []) as { coordinates: number[] }[];
    // Newest first: the two fixes on the trip, not the one before it nor the one after.
    expect(path.map((l) => l.coordinates[1])).toEqual([48.87, 48.86]);
    const ended = ms(got.endedAt);
    expect(ended).toBeLessThanOrEqual(Date.now());
  });

  it("keep a trip's path however far the user went on after it", async () => {
    const { track, trips } = mod;
    // More updates after the trip than a trip answers locations (1,000).
    for (let i = 0; i < 1001; i++) await track(key, fix(49 + i / 10_000));
    const got = await trips.getTrip(key, "order-1", true);
    expect(((got.locations ?? []) as { coordinates: number[] }[]).map((l) => l.coordinates[1])).toEqual([
      48.87, 48.86,
    ]);
  });
});
