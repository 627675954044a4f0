import { beforeEach, describe, expect, it } from "vitest";
import { forgetProcessOnce } from "../../process-once";
import { geofencesForSearch } from "./geofence-index";
import type { Queryable } from "./sql";

/**
 * The searches' refresh of the index of geofences (./geofence-index.ts): searches that ask before
 * it is sent share one statement, and it sees what was committed before any of them asked. A
 * stand-in for the pool answers the two statements and counts them (no database needed).
 */

const WHOLE = { minLng: -180, minLat: -90, maxLng: 180, maxLat: 90 };

function database() {
  const sent: string[] = [];
  /** committed changes: n, and the geofence's seq */
  const committed: { n: number; seq: number }[] = [];
  const client = {
    query: async ({ text, values }: { text: string; values: unknown[] }) => {
      const all = text.includes('"GeofenceChangeCounter"');
      sent.push(all ? "all" : "since");
      const after = all ? Infinity : (values[0] as number);
      const geofence = (seq: number) => ({
        seq,
        live: false,
        tag: null,
        enabled: true,
        minLng: 0,
        minLat: 0,
        maxLng: 1,
        maxLat: 1,
        version: 1,
      });
      if (all) return { rows: [{ last: committed.at(-1)?.n ?? 0, seq: null }] };
      return {
        rows: committed
          .filter((c) => c.n > after)
          .map((c) => ({ n: c.n, changed: c.seq, ...geofence(c.seq) })),
      };
    },
  };
  return { client: client as unknown as Queryable, sent, committed };
}

describe("PostgreSQL: the searches' refresh of the index of geofences", () => {
  beforeEach(() => forgetProcessOnce("postgresql-geofence-index"));

  it("is one statement for the searches of one turn, sent after each asked", async () => {
    const db = database();
    await geofencesForSearch(db.client);
    expect(db.sent).toEqual(["all"]);

    // Three searches in one turn; a geofence committed after they asked, before it is sent.
    const asked = [1, 2, 3].map(() => geofencesForSearch(db.client));
    db.committed.push({ n: 1, seq: 7 });
    const indexes = await Promise.all(asked);
    expect(db.sent).toEqual(["all", "since"]);
    for (const index of indexes) expect(index.inBox(false, WHOLE).map((g) => g.seq)).toEqual([7]);

    // A search after that refresh was sent has one of its own, and sees what came since.
    db.committed.push({ n: 2, seq: 8 });
    const later = await geofencesForSearch(db.client);
    expect(db.sent).toEqual(["all", "since", "since"]);
    expect(
      later
        .inBox(false, WHOLE)
        .map((g) => g.seq)
        .sort(),
    ).toEqual([7, 8]);
  });
});
