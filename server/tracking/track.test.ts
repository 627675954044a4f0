import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrackInput } from "./schema";

/**
 * Group commit, on a real database file: updates that share a transaction succeed or fail
 * one by one, and concurrent updates of one device are applied in order.
 */

const dir = mkdtempSync(path.join(tmpdir(), "track-test-"));
let track: typeof import("./track").track;
const key = { id: "test", kind: "secret" as const, live: false };
const input = (deviceId: string, latitude: number, extra: Partial<TrackInput> = {}): TrackInput =>
  ({ deviceId, latitude, longitude: 10, accuracy: 5, ...extra }) as TrackInput;

beforeAll(async () => {
  process.env.DATABASE_URL = `file:${path.join(dir, "t.db")}`;
  const { migrate } = await import("../../scripts/migrate");
  await migrate();
  ({ track } = await import("./track"));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("track (group commit)", () => {
  it("fails a bad update alone and keeps the others of its batch", async () => {
    // NaN cannot be stored (NOT NULL): the schema never lets it through, but the batch must
    // survive any failure inside one update.
    const results = await Promise.allSettled([
      track(key, input("good-1", 1)),
      track(key, input("bad", Number.NaN)),
      track(key, input("good-2", 2)),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const again = await track(key, input("good-1", 3));
    expect(again.user.latitude).toBe(3);
  });

  it("applies concurrent updates of one device in arrival order", async () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((s) => track(key, input("ordered", s, { updatedAt: at(s) }))),
    );
    expect(results.map((r) => r.user.latitude)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(results.map((r) => r.user.id)).size).toBe(1);
  });
});
