import { describe, expect, it } from "vitest";
import type { BBox } from "../../geo/distance";
import type { GeofenceVersion } from "../../storage/geofences";
import { usePostgresDatabase } from "./test-database.fixture";

/**
 * Tracking's index of geofences fed from PostgreSQL (./geofence-index.ts): after every kind of
 * write it answers what the database holds, and a change committed late (a transaction that took
 * its number before another committed) is never skipped. Needs TEST_POSTGRES_URL; skipped without.
 */

const adminUrl = process.env.TEST_POSTGRES_URL;
const WHOLE: BBox = { minLng: -180, minLat: -90, maxLng: 180, maxLat: 90 };

describe.skipIf(!adminUrl)("PostgreSQL: tracking's index of geofences", () => {
  usePostgresDatabase(adminUrl!);

  async function setup() {
    const { pool } = await import("./pool");
    const { geofencesNow } = await import("./geofence-index");
    let id = Math.floor(Math.random() * 1e9);
    let clock = Date.parse("2026-11-27T00:00:00Z");
    let seed = 5;
    const next = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const box = () => {
      const lng = 9.5 + next() * 0.1;
      const lat = 47.1 + next() * 0.1;
      const size = 0.0002 + next() * 0.003;
      return [lng - size, lat - size, lng + size, lat + size];
    };
    const at = () => new Date((clock += 7));
    const write = {
      async create(
        on: { query: (sql: string, v: unknown[]) => Promise<unknown> } = pool(),
        live = next() < 0.7,
      ) {
        const [a, b, c, d] = box();
        const t = at();
        await on.query(
          `INSERT INTO "Geofence" ("id", "live", "description", "type", "geometry", "centerLng", "centerLat",
             "radius", "minLng", "minLat", "maxLng", "maxLat", "createdAt", "updatedAt")
           VALUES ($1, $2, 'zone', 'circle', '[]', 0, 0, 100, $3, $4, $5, $6, $7, $7)`,
          [`g${id++}`, live, a, b, c, d, t],
        );
      },
      async move(seq: number) {
        const [a, b, c, d] = box();
        await pool().query(
          `UPDATE "Geofence" SET "minLng" = $1, "minLat" = $2, "maxLng" = $3, "maxLat" = $4, "updatedAt" = $5
           WHERE "seq" = $6`,
          [a, b, c, d, at(), seq],
        );
      },
      async rename(seq: number) {
        await pool().query(
          `UPDATE "Geofence" SET "description" = 'renamed', "updatedAt" = $1 WHERE "seq" = $2`,
          [at(), seq],
        );
      },
      async switchWorld(seq: number) {
        await pool().query(`UPDATE "Geofence" SET "live" = NOT "live", "updatedAt" = $1 WHERE "seq" = $2`, [
          at(),
          seq,
        ]);
      },
      async remove(seq: number) {
        await pool().query(`DELETE FROM "Geofence" WHERE "seq" = $1`, [seq]);
      },
    };
    const seqs = async () =>
      (await pool().query<{ seq: number }>(`SELECT "seq" FROM "Geofence"`)).rows.map((r) => r.seq);
    const queryBox = (): BBox => {
      const [minLng, minLat, maxLng, maxLat] = box().map((v, i) => v + (i < 2 ? -0.002 : 0.002));
      return { minLng: minLng!, minLat: minLat!, maxLng: maxLng!, maxLat: maxLat! };
    };
    /** What the database holds, read the slow way. */
    const truth = async (live: boolean, b: BBox, members: number[]) => {
      const { rows } = await pool().query<GeofenceVersion>(
        `SELECT "seq", (EXTRACT(EPOCH FROM "updatedAt") * 1000)::float8 AS "version" FROM "Geofence"
         WHERE ("live" = $1 AND "maxLng" >= $2 AND "minLng" <= $3 AND "maxLat" >= $4 AND "minLat" <= $5)
            OR "seq" = ANY($6::int[])
         ORDER BY "seq"`,
        [live, b.minLng, b.maxLng, b.minLat, b.maxLat, members],
      );
      return rows;
    };
    const answer = async (live: boolean, b: BBox, members: number[]) =>
      (await geofencesNow(pool())).near(live, b, members).sort((x, y) => x.seq - y.seq);
    return { pool, write, seqs, queryBox, truth, answer, next };
  }

  it("answers what the database holds after every kind of write", async () => {
    const { write, seqs, queryBox, truth, answer, next } = await setup();
    for (let i = 0; i < 300; i++) await write.create();
    const check = async () => {
      const all = await seqs();
      for (let q = 0; q < 25; q++) {
        const b = queryBox();
        const live = next() < 0.5;
        const members = [all[Math.floor(next() * all.length)]!, 99_999];
        expect(await answer(live, b, members)).toEqual(await truth(live, b, members));
      }
    };
    await check();
    for (const writes of [1, 20, 350, 4]) {
      for (let w = 0; w < writes; w++) {
        const all = await seqs();
        const seq = all[Math.floor(next() * all.length)]!;
        const kind = next();
        if (kind < 0.25) await write.create();
        else if (kind < 0.5) await write.move(seq);
        else if (kind < 0.65) await write.rename(seq);
        else if (kind < 0.8) await write.switchWorld(seq);
        else await write.remove(seq);
      }
      await check();
    }
  }, 60_000);

  it("never skips a change whose transaction commits after a later one's reader looked", async () => {
    const { pool, write, answer } = await setup();
    const slow = await pool().connect();
    try {
      // A writer takes the next number and holds it, uncommitted.
      await slow.query("BEGIN");
      await write.create(slow, true);
      // Another writer waits for it (the counter's row), so nothing after it is visible either.
      let laterDone = false;
      const later = write.create(pool(), true).then(() => (laterDone = true));
      // (Numbers from a sequence would let it commit now, and a reader would skip the first.)
      await new Promise((r) => setTimeout(r, 300));
      expect(laterDone).toBe(false);
      const before = (await answer(true, WHOLE, [])).length;
      await slow.query("COMMIT");
      await later;
      // Both are seen, the one committed first included.
      expect((await answer(true, WHOLE, [])).length).toBe(before + 2);
    } finally {
      slow.release();
    }
  });
});
