import { describe, expect, it } from "vitest";
import { monotonicNow, newId, seedClock } from "./ids";

describe("ids", () => {
  it("makes 24-hex-digit ids that differ", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
  });

  it("never repeats a creation time, even within one millisecond", () => {
    const times = Array.from({ length: 500 }, () => monotonicNow().getTime());
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
  });

  it("stays ahead of the newest stored time after a restart with the clock set back", () => {
    const stored = Date.now() + 60_000;
    seedClock(stored);
    expect(monotonicNow().getTime()).toBeGreaterThan(stored);
  });
});
