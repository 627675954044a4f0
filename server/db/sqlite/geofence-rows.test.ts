import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { sqlDate } from "./connection";
import { VERSION } from "./geofence-rows";
import { applyMigrations } from "./migrations-fixture";

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

describe("the geofences' R*Tree", () => {
  /** A database with the migrations applied. */
  function migrated(): Database.Database {
    const db = new Database(":memory:");
    applyMigrations(db);
    return db;
  }

  it("carries each geofence's world and version through every write, whichever columns it sets", () => {
    const db = migrated();
    const at = (ms: number) => sqlDate(new Date(ms));
    db.prepare(
      `INSERT INTO "Geofence" ("id", "live", "description", "type", "geometry", "centerLng", "centerLat", "radius",
         "minLng", "minLat", "maxLng", "maxLat", "createdAt", "updatedAt")
       VALUES ('g1', 1, 'zone', 'circle', '{}', 9.5, 47.1, 100, 9.49, 47.09, 9.51, 47.11, ?, ?)`,
    ).run(at(1000), at(1000));
    const seq = db.prepare(`SELECT "seq" FROM "Geofence"`).pluck().get() as number;
    const tree = db.prepare(`SELECT "live", "version", "minLng" FROM "GeofenceRTree" WHERE "seq" = ?`);
    /** What tracking reads (server/db/sqlite/tracking-sql.ts) against what the row says (the box in 32 bits). */
    const agrees = () => {
      const row = db
        .prepare(`SELECT "live", ${VERSION("g")}, "minLng" FROM "Geofence" g WHERE "seq" = ?`)
        .get(seq) as { live: number; version: number; minLng: number };
      const read = tree.get(seq) as typeof row;
      expect([read.live, read.version]).toEqual([row.live, row.version]);
      expect(read.minLng).toBeCloseTo(row.minLng, 5);
    };
    agrees();
    // Fields only (a description, a schedule turning it off): the version follows.
    db.prepare(`UPDATE "Geofence" SET "description" = 'renamed', "updatedAt" = ? WHERE "seq" = ?`).run(
      at(2000),
      seq,
    );
    agrees();
    db.prepare(`UPDATE "Geofence" SET "enabled" = 0, "updatedAt" = ? WHERE "seq" = ?`).run(at(3000), seq);
    agrees();
    expect((tree.get(seq) as { version: number }).version).toBe(3000);
    // The shape.
    db.prepare(`UPDATE "Geofence" SET "minLng" = 9.4, "updatedAt" = ? WHERE "seq" = ?`).run(at(4000), seq);
    agrees();
    db.prepare(`DELETE FROM "Geofence" WHERE "seq" = ?`).run(seq);
    expect(tree.get(seq)).toBeUndefined();
    db.close();
  });
});
