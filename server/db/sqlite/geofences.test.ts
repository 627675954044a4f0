import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { sqlDate } from "./connection";
import { VERSION } from "./geofences";

describe("a geofence's version in SQLite", () => {
  it("is its updatedAt in ms, as JavaScript reads the text Prisma writes", () => {
    const db = new Database(":memory:");
    const version = db.prepare(`SELECT ${VERSION("g")} FROM (SELECT ? AS "updatedAt") g`).pluck();
    const times = [0, 1, 999, Date.parse("2026-11-24T23:59:59.999Z"), Date.parse("2100-01-01T00:00:00.001Z")];
    let seed = 1;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 48271) % 2147483647;
      times.push(Math.floor((seed / 2147483647) * 4_102_444_800_000));
    }
    for (const t of times) expect(version.get(sqlDate(new Date(t)))).toBe(t);
    db.close();
  });
});
