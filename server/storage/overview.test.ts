import { describe, expect, it } from "vitest";
import { USER_BUCKET_MS, userCountMoves, usersSince } from "./overview";

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 29, 6, 0) + minutes * 60_000);
const user = (live: boolean, before: Date | null, now: Date) => ({
  live,
  updatedBefore: before,
  write: { updatedAt: now },
});

describe("the overview's users per five minutes", () => {
  it("moves a user to the bucket of its last update, and counts a new one once", () => {
    expect(USER_BUCKET_MS).toBe(300_000);
    const moves = userCountMoves([
      user(true, null, at(7)), // new: +1 in 06:05
      user(true, at(1), at(8)), // 06:00 → 06:05
      user(true, at(6), at(9)), // within 06:05: nothing
      user(false, at(-30), at(2)), // test world: 05:30 → 06:00
      null, // an anonymous update
    ]);
    const shown = moves
      .map((m) => `${m.live ? "live" : "test"} ${m.bucket.toISOString().slice(11, 16)} ${m.delta}`)
      .sort();
    expect(shown).toEqual(["live 06:00 -1", "live 06:05 2", "test 05:30 -1", "test 06:00 1"]);
  });

  it("leaves out buckets whose moves cancel out", () => {
    expect(userCountMoves([user(true, at(1), at(6)), user(true, at(7), at(2))])).toEqual([]);
  });

  it("counts the users from each bound on", () => {
    const buckets = [
      { bucket: at(0), count: 3 },
      { bucket: at(5), count: 2 },
      { bucket: at(10), count: 1 },
    ];
    expect(usersSince(buckets, [at(5), at(0), at(15)])).toEqual([3, 6, 0]);
  });
});
