import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { gathering } from "./gather";

describe("gathering batches", () => {
  let ran: number[][] = [];
  /** how many items the test says are on their way */
  let coming = 0;
  const run = async (batch: number[]) => {
    ran.push(batch);
  };
  const options = { upTo: 4, waitMs: 10, max: 64, coming: () => coming };
  beforeEach(() => {
    ran = [];
    coming = 0;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterEach(() => vi.useRealTimers());
  /** Lets `ms` pass (the clock is fake), then what is due run (batches start on setImmediate). */
  const pass = async (ms: number) => {
    await vi.advanceTimersByTimeAsync(ms);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it("runs at once when too few are on their way to fill a batch, with what came meanwhile", async () => {
    const g = gathering(run, options);
    coming = 2;
    g.add(1);
    g.add(2);
    await pass(0);
    expect(ran).toEqual([[1, 2]]);
    coming = 0;
    g.add(3);
    await pass(0);
    expect(ran).toEqual([[1, 2], [3]]);
  });

  it("waits while enough are on their way to fill a batch, until it is full or they cannot fill it", async () => {
    const g = gathering(run, options);
    coming = 3;
    g.add(1);
    await pass(5);
    expect(ran).toEqual([]);
    coming = 2;
    g.add(2);
    await pass(0);
    expect(ran).toEqual([]);
    coming = 1;
    g.add(3);
    await pass(0);
    expect(ran).toEqual([]);
    coming = 0;
    g.add(4);
    await pass(0);
    expect(ran).toEqual([[1, 2, 3, 4]]);
    coming = 3;
    g.add(5);
    // One of those on their way gave up (a bad request): the batch cannot be full, it runs.
    coming = 1;
    g.add(6);
    await pass(0);
    expect(ran.at(-1)).toEqual([5, 6]);
  });

  it("waits at most waitMs", async () => {
    const g = gathering(run, options);
    coming = 10;
    g.add(1);
    await pass(9);
    expect(ran).toEqual([]);
    await pass(1);
    expect(ran).toEqual([[1]]);
  });

  it("takes at most max in a batch, and goes on after a batch that failed", async () => {
    let fail = true;
    const g = gathering(
      async (batch: number[]) => {
        ran.push(batch);
        if (fail) throw new Error("refused");
      },
      { ...options, max: 3 },
    );
    for (const i of [1, 2, 3, 4, 5]) g.add(i);
    await pass(0);
    fail = false;
    await pass(0);
    expect(ran).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });
});
