import { describe, expect, it } from "vitest";
import { sqlDate } from "./connection";

describe("dates as SQLite stores them", () => {
  it("are toISOString with +00:00, for every instant (edges of days, years, eras, and outside 0001–9999)", () => {
    const iso = (d: Date) => d.toISOString().replace("Z", "+00:00");
    const times = [
      0,
      -1,
      1,
      86_399_999,
      86_400_000,
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(1900, 2, 1),
      Date.UTC(2100, 1, 28, 12),
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      -62_135_596_800_000, // 0001-01-01
      -62_135_596_800_001,
      253_402_300_799_999,
      253_402_300_800_000,
      8.64e15,
      -8.64e15,
    ];
    let seed = 11;
    for (let i = 0; i < 50_000; i++) {
      seed = (seed * 48271) % 2147483647;
      times.push(Math.floor((seed / 2147483647 - 0.3) * 2 * 253_402_300_800_000));
    }
    for (const t of times) expect(sqlDate(new Date(t)), String(t)).toBe(iso(new Date(t)));
  });
});
