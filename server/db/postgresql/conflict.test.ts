import { describe, expect, it } from "vitest";
import { usePostgresDatabase } from "./test-database.fixture";

/**
 * A deadlock PostgreSQL ends by rolling one transaction back reaches the client as 503 with
 * Retry-After (try again), not as a 500, whichever way the transaction ran: through Prisma (the
 * routes' writes) or through the driver (the adapter's own SQL). Needs TEST_POSTGRES_URL (a role
 * that may create databases, as .ci/run sets); skipped without it.
 */

const adminUrl = process.env.TEST_POSTGRES_URL;

describe.skipIf(!adminUrl)("a transaction rolled back to end a deadlock", () => {
  usePostgresDatabase(adminUrl!, { migrate: false });

  /**
   * Two transactions that take two locks in opposite orders, the second 200 ms after the first:
   * PostgreSQL rolls one back (the first to wait, after its deadlock_timeout). Its error.
   */
  async function deadlock(run: (first: number, second: number) => Promise<unknown>): Promise<unknown> {
    const outcomes = await Promise.allSettled([
      run(101, 102),
      new Promise((r) => setTimeout(r, 100)).then(() => run(102, 101)),
    ]);
    const failed = outcomes.filter((o) => o.status === "rejected");
    expect(failed).toHaveLength(1);
    return (failed[0] as PromiseRejectedResult).reason;
  }
  const pause = () => new Promise((r) => setTimeout(r, 300));

  async function expect503(error: unknown) {
    const { isRetryableConflict } = await import("../../errors");
    const { errorResponse } = await import("../../http/handler");
    expect(isRetryableConflict(error)).toBe(true);
    const res = errorResponse(error);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect((await res.json()).meta.message).toMatch(/retry/);
  }

  it("through Prisma", async () => {
    const { prisma } = await import("../client");
    const error = await deadlock((a, b) =>
      prisma.$transaction(async (tx) => {
        await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(${a})::text`);
        await pause();
        await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(${b})::text`);
      }),
    );
    await expect503(error);
  }, 20_000);

  it("through the driver", async () => {
    const { inTransaction, rows } = await import("./sql");
    const error = await deadlock((a, b) =>
      inTransaction(async (client) => {
        await rows(`SELECT pg_advisory_xact_lock(${a})::text`, [], client);
        await pause();
        await rows(`SELECT pg_advisory_xact_lock(${b})::text`, [], client);
      }),
    );
    await expect503(error);
  }, 20_000);

  it("leaves other errors a 500", async () => {
    const { errorResponse } = await import("../../http/handler");
    const { rows } = await import("./sql");
    const error = await rows(`SELECT 1/0`).catch((e: unknown) => e);
    expect(errorResponse(error).status).toBe(500);
  });
});
