import { describe, expect, it } from "vitest";
import { usePostgresDatabase } from "./test-database.fixture";

/**
 * The process's connections: settings a thread gives after the pool exists (importing the Prisma
 * client makes it) still reach its connections, and a transaction whose queries are pipelined
 * behind BEGIN keeps them inside it. Needs TEST_POSTGRES_URL; skipped without it.
 */

const adminUrl = process.env.TEST_POSTGRES_URL;

describe.skipIf(!adminUrl)("the PostgreSQL pool", () => {
  usePostgresDatabase(adminUrl!, { migrate: false });

  it("takes a thread's settings given after it was made: fewer connections, plans made once", async () => {
    const { limitPoolSize, pool, trackingConnections } = await import("./pool");
    const made = pool();
    limitPoolSize(2);
    trackingConnections();
    expect(pool()).toBe(made);
    const { rows } = await import("./sql");
    const [plans] = await rows<{ plan_cache_mode: string }>("SHOW plan_cache_mode");
    expect(plans!.plan_cache_mode).toBe("force_generic_plan");
    // Three clients asked of a pool of two: the third waits for one to be released.
    const first = await made.connect();
    const second = await made.connect();
    const third: { client?: { release(): void } } = {};
    const waiting = made.connect().then((c) => {
      third.client = c;
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(third.client).toBeUndefined();
    first.release();
    await waiting;
    expect(third.client).toBeDefined();
    second.release();
    third.client!.release();
  });

  it("runs queries sent behind BEGIN inside the transaction, and rolls them back with it", async () => {
    const { inTransaction, rows } = await import("./sql");
    await rows(`CREATE TABLE "PipelineProbe" ("n" int)`);
    const failed = await inTransaction(
      async (client) => {
        // Asked together, before BEGIN has answered: one round trip, in order.
        await Promise.all([
          rows(`INSERT INTO "PipelineProbe" VALUES (1)`, [], client),
          rows(`INSERT INTO "PipelineProbe" VALUES (2)`, [], client),
        ]);
        const inside = await rows<{ n: number }>(
          `SELECT count(*)::int AS n FROM "PipelineProbe"`,
          [],
          client,
        );
        expect(inside[0]!.n).toBe(2);
        throw new Error("undo");
      },
      ["probe"],
    ).catch((e: Error) => e.message);
    expect(failed).toBe("undo");
    const after = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM "PipelineProbe"`);
    expect(after[0]!.n).toBe(0);
  });
});
