import Database from "better-sqlite3";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { UserWrite } from "../../storage/tracking";
import { applyMigrations } from "./migrations-fixture";

describe("a tracked user's row in SQLite", () => {
  let file = "";
  beforeAll(() => {
    file = path.join(mkdtempSync(path.join(os.tmpdir(), "sqlite-users-")), "location.db");
    const db = new Database(file);
    applyMigrations(db);
    db.pragma("journal_mode = WAL");
    db.close();
    process.env.DATABASE_URL = `file:${file}`;
  });

  /** The b-trees (tables and indexes) whose pages `write` put into the WAL. */
  async function touchedBy(write: () => void): Promise<Set<string>> {
    const { connection } = await import("./connection");
    const { walPagesOf } = await import("./wal-pages");
    return new Set((await walPagesOf(() => connection().transaction(write)())).keys());
  }

  it("writes a changed identity or device, and leaves their indexes alone when they are unchanged", async () => {
    const { insertUser, updateUser } = await import("./tracking-sql");
    const { connection } = await import("./connection");
    const at = (s: number) => new Date(Date.UTC(2026, 10, 27, 10, 0, s));
    const first: UserWrite = {
      deviceId: "d1",
      userId: null,
      description: null,
      metadata: null,
      deviceType: "iOS",
      device: { installId: "i1" },
      foreground: true,
      stopped: false,
      latitude: 47.1,
      longitude: 9.5,
      accuracy: 10,
      country: null,
      state: null,
      postalCode: null,
      dma: null,
      place: null,
      placeEnteredAt: null,
      actualUpdatedAt: at(0),
      updatedAt: at(0),
    };
    const seq = insertUser("u1", false, first, at(0));
    const row = () =>
      connection()
        .prepare(`SELECT "deviceId", "userId", "device", "latitude", "updatedAt" FROM "User" WHERE "seq" = ?`)
        .get(seq);
    const identityIndexes = ["User_live_deviceId_idx", "User_live_userId_key", "User_live_installId_idx"];

    // A move: the position and times change, the identity and device do not.
    const moved = { ...first, latitude: 47.2, actualUpdatedAt: at(1), updatedAt: at(1) };
    const touched = await touchedBy(() => updateUser(seq, moved));
    expect(touched.has("User")).toBe(true);
    expect(identityIndexes.filter((i) => touched.has(i))).toEqual([]);
    expect(row()).toMatchObject({ deviceId: "d1", userId: null, latitude: 47.2 });

    // A move with the fix's speed (Radar's SDKs send one with most updates): the device object
    // changes, so the installId's index is written, not those of the deviceId and userId.
    const fast = {
      ...moved,
      device: { installId: "i1", speed: 12 },
      actualUpdatedAt: at(2),
      updatedAt: at(2),
    };
    const sped = await touchedBy(() => updateUser(seq, fast));
    expect(identityIndexes.filter((i) => sped.has(i))).toEqual(["User_live_installId_idx"]);
    expect(row()).toMatchObject({ device: '{"installId":"i1","speed":12}' });

    // The device reports a userId, and a new install: written, and found through their indexes.
    const named = { ...moved, userId: "alice", device: { installId: "i2" }, updatedAt: at(3) };
    const renamed = await touchedBy(() => updateUser(seq, named));
    expect(renamed.has("User_live_userId_key") && renamed.has("User_live_installId_idx")).toBe(true);
    expect(row()).toMatchObject({ deviceId: "d1", userId: "alice", device: '{"installId":"i2"}' });
    const byUserId = connection().prepare(
      `SELECT "seq" FROM "User" INDEXED BY "User_live_userId_key" WHERE "live" = 0 AND "userId" = ?`,
    );
    expect(byUserId.pluck().get("alice")).toBe(seq);
  });
});
