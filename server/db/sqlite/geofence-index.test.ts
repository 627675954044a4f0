import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { BBox } from "../../geo/distance";
import type { GeofenceVersion } from "../../storage/geofences";
import { sqlDate } from "./connection";
import { SqliteGeofenceIndex as GeofenceIndex } from "./geofence-index";
import { VERSION } from "./geofence-rows";
import { applyMigrations } from "./migrations-fixture";

/** A seeded generator, so that a failure replays. */
function random(seed: number) {
  return () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
}

const folders: string[] = [];
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

/** Two connections to one database file, as two processes (or the tracking thread and a route) hold. */
function twoConnections() {
  const dir = mkdtempSync(path.join(tmpdir(), "geofence-index-"));
  folders.push(dir);
  const file = path.join(dir, "db.sqlite");
  const writer = new Database(file);
  writer.pragma("journal_mode = WAL");
  applyMigrations(writer);
  const reader = new Database(file);
  return { writer, reader };
}

/** Writes geofences as the API does (the columns the triggers watch, and others). */
function geofences(db: Database.Database, next: () => number) {
  let clock = Date.parse("2026-11-27T00:00:00Z");
  const box = () => {
    const lng = 9.5 + next() * 0.1;
    const lat = 47.1 + next() * 0.1;
    const size = 0.0002 + next() * 0.003;
    return [lng - size, lat - size, lng + size, lat + size];
  };
  const insert = db.prepare(
    `INSERT INTO "Geofence" ("id", "live", "description", "type", "geometry", "centerLng", "centerLat", "radius",
       "minLng", "minLat", "maxLng", "maxLat", "createdAt", "updatedAt")
     VALUES (?, ?, 'zone', 'circle', '[]', 0, 0, 100, ?, ?, ?, ?, ?, ?)`,
  );
  let id = 0;
  return {
    create(live = next() < 0.7) {
      const at = sqlDate(new Date((clock += 7)));
      return Number(insert.run(`g${id++}`, live ? 1 : 0, ...box(), at, at).lastInsertRowid);
    },
    move(seq: number) {
      const [a, b, c, d] = box();
      db.prepare(
        `UPDATE "Geofence" SET "minLng" = ?, "minLat" = ?, "maxLng" = ?, "maxLat" = ?, "updatedAt" = ? WHERE "seq" = ?`,
      ).run(a, b, c, d, sqlDate(new Date((clock += 7))), seq);
    },
    /** As Prisma's upsert writes on SQLite (its triggers then run under the upsert's conflict handling). */
    upsert(seq: number) {
      const [a, b, c, d] = box();
      const at = sqlDate(new Date((clock += 7)));
      db.prepare(
        `INSERT INTO "Geofence" ("id", "live", "description", "type", "geometry", "centerLng", "centerLat", "radius",
           "minLng", "minLat", "maxLng", "maxLat", "createdAt", "updatedAt")
         VALUES ((SELECT "id" FROM "Geofence" WHERE "seq" = ?), 1, 'zone', 'circle', '[]', 0, 0, 100, ?, ?, ?, ?, ?, ?)
         ON CONFLICT ("id") DO UPDATE SET "minLng" = excluded."minLng", "minLat" = excluded."minLat",
           "maxLng" = excluded."maxLng", "maxLat" = excluded."maxLat", "updatedAt" = excluded."updatedAt"`,
      ).run(seq, a, b, c, d, at, at);
    },
    rename(seq: number) {
      db.prepare(`UPDATE "Geofence" SET "description" = 'renamed', "updatedAt" = ? WHERE "seq" = ?`).run(
        sqlDate(new Date((clock += 7))),
        seq,
      );
    },
    switchWorld(seq: number) {
      db.prepare(`UPDATE "Geofence" SET "live" = 1 - "live", "updatedAt" = ? WHERE "seq" = ?`).run(
        sqlDate(new Date((clock += 7))),
        seq,
      );
    },
    remove(seq: number) {
      db.prepare(`DELETE FROM "Geofence" WHERE "seq" = ?`).run(seq);
    },
    seqs: () => db.prepare(`SELECT "seq" FROM "Geofence"`).pluck().all() as number[],
    box: (): BBox => {
      const [minLng, minLat, maxLng, maxLat] = box().map((v, i) => v + (i < 2 ? -0.002 : 0.002));
      return { minLng: minLng!, minLat: minLat!, maxLng: maxLng!, maxLat: maxLat! };
    },
  };
}

/** What the database holds, read the slow way. */
function truth(db: Database.Database, live: boolean, box: BBox, seqs: readonly number[]) {
  const near = db
    .prepare(
      `SELECT g."seq", ${VERSION("g")} FROM "Geofence" g
       WHERE g."live" = ? AND g."maxLng" >= ? AND g."minLng" <= ? AND g."maxLat" >= ? AND g."minLat" <= ?`,
    )
    .all(live ? 1 : 0, box.minLng, box.maxLng, box.minLat, box.maxLat) as GeofenceVersion[];
  const members = seqs.length
    ? (db
        .prepare(
          `SELECT g."seq", ${VERSION("g")} FROM "Geofence" g WHERE g."seq" IN (${seqs.map(() => "?")})`,
        )
        .all(...seqs) as GeofenceVersion[])
    : [];
  const all = new Map([...near, ...members].map((v) => [v.seq, v.version]));
  return [...all].map(([seq, version]) => ({ seq, version })).sort((a, b) => a.seq - b.seq);
}

const sorted = (vs: GeofenceVersion[]) => [...vs].sort((a, b) => a.seq - b.seq);

describe("tracking's in-memory index of geofences (SQLite)", () => {
  it("answers what the database holds after every kind of write, made by another connection", () => {
    const { writer, reader } = twoConnections();
    const next = random(7);
    const g = geofences(writer, next);
    for (let i = 0; i < 400; i++) g.create();
    const index = new GeofenceIndex((sql) => reader.prepare(sql));
    const check = () => {
      for (let q = 0; q < 40; q++) {
        const box = g.box();
        const live = next() < 0.5;
        const all = g.seqs();
        // Members: some existing geofences, and one that never existed.
        const members = [
          all[Math.floor(next() * all.length)]!,
          all[Math.floor(next() * all.length)]!,
          99_999,
        ];
        expect(sorted(index.near(live, box, members))).toEqual(truth(reader, live, box, members));
      }
    };
    index.refresh();
    check();
    // Rounds of writes, small ones (kept beside the tree) and large ones (the tree rebuilt).
    const deleted: number[] = [];
    for (const writes of [1, 5, 30, 400, 3, 900]) {
      for (let w = 0; w < writes; w++) {
        const seqs = g.seqs();
        const seq = seqs[Math.floor(next() * seqs.length)]!;
        const kind = next();
        if (kind < 0.25) g.create();
        else if (kind < 0.4) g.move(seq);
        else if (kind < 0.5) g.upsert(seq);
        else if (kind < 0.65) g.rename(seq);
        else if (kind < 0.8) g.switchWorld(seq);
        else {
          g.remove(seq);
          deleted.push(seq);
        }
      }
      index.refresh();
      check();
      // A deleted geofence the user was in is gone, whether it was in the tree or written since.
      for (const seq of deleted.slice(-3)) {
        expect(index.near(true, g.box(), [seq]).some((v) => v.seq === seq)).toBe(false);
      }
    }
    writer.close();
    reader.close();
  });

  it("sees a renamed geofence's new version (decoded geometries are cached by version)", () => {
    const { writer, reader } = twoConnections();
    const g = geofences(writer, random(11));
    const seq = g.create(true);
    const index = new GeofenceIndex((sql) => reader.prepare(sql));
    index.refresh();
    const whole: BBox = { minLng: -180, minLat: -90, maxLng: 180, maxLat: 90 };
    const before = index.near(true, whole, [])[0]!.version;
    g.rename(seq);
    expect(index.near(true, whole, [])[0]!.version).toBe(before); // not refreshed yet
    index.refresh();
    expect(index.near(true, whole, [])[0]!.version).toBeGreaterThan(before);
    expect(index.near(true, whole, [])).toEqual(truth(reader, true, whole, []));
    writer.close();
    reader.close();
  });

  it("starts on an empty database and takes the first geofences as they come", () => {
    const { writer, reader } = twoConnections();
    const g = geofences(writer, random(3));
    const index = new GeofenceIndex((sql) => reader.prepare(sql));
    index.refresh();
    const whole: BBox = { minLng: -180, minLat: -90, maxLng: 180, maxLat: 90 };
    expect(index.near(true, whole, [1])).toEqual([]);
    const seq = g.create(true);
    index.refresh();
    expect(index.near(true, whole, []).map((v) => v.seq)).toEqual([seq]);
    writer.close();
    reader.close();
  });
});
