import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { applyMigrations } from "./migrations-fixture";

const MIGRATION = "20261213000000_user_geofence_without_rowid";

describe("memberships stored in their key's order (SQLite)", () => {
  it("keeps every membership through the upgrade, and deleting a geofence still takes its users out", () => {
    const db = new Database(":memory:");
    applyMigrations(db, { before: MIGRATION });
    const at = "2026-11-27T10:00:00.000+00:00";
    const geofence = db.prepare(
      `INSERT INTO "Geofence" ("id", "live", "description", "type", "geometry", "centerLng", "centerLat", "radius",
         "minLng", "minLat", "maxLng", "maxLat", "createdAt", "updatedAt")
       VALUES (?, 1, 'zone', 'circle', '[]', 0, 0, 100, 0, 0, 1, 1, ?, ?)`,
    );
    const seqs = ["g1", "g2", "g3"].map((id) => Number(geofence.run(id, at, at).lastInsertRowid));
    const member = db.prepare(
      `INSERT INTO "UserGeofence" ("userSeq", "geofenceSeq", "enteredAt", "dwelled") VALUES (?, ?, ?, ?)`,
    );
    for (const user of [5, 1, 3]) for (const g of seqs) member.run(user, g, at, user === 3 ? 1 : 0);
    const all = () => db.prepare(`SELECT * FROM "UserGeofence" ORDER BY "userSeq", "geofenceSeq"`).all();
    const before = all();

    applyMigrations(db, { from: MIGRATION });
    expect(all()).toEqual(before);
    const sql = db.prepare(`SELECT "sql" FROM "sqlite_schema" WHERE "name" = 'UserGeofence'`).pluck().get();
    expect(sql).toMatch(/WITHOUT ROWID/);
    // Read by user (tracking) and by geofence (the users in a geofence) from an index, not a scan.
    const plan = (q: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${q}`).all(1) as { detail: string }[]).map((r) => r.detail).join("; ");
    expect(plan(`SELECT * FROM "UserGeofence" WHERE "userSeq" = ?`)).toMatch(/SEARCH .*PRIMARY KEY/);
    expect(plan(`SELECT * FROM "UserGeofence" WHERE "geofenceSeq" = ?`)).toMatch(
      /SEARCH .*UserGeofence_geofenceSeq_idx/,
    );
    // The key still refuses a second membership of one user in one geofence.
    expect(() => member.run(5, seqs[0], at, 0)).toThrow(/UNIQUE/);

    db.prepare(`DELETE FROM "Geofence" WHERE "seq" = ?`).run(seqs[1]);
    expect(all()).toEqual(before.filter((m) => (m as { geofenceSeq: number }).geofenceSeq !== seqs[1]));
    db.close();
  });
});
