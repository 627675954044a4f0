import { describe, expect, it } from "vitest";
import { freeInstants } from "./instants";

/**
 * A world's taken instants, counting the instants asked about and the questions. An instant found
 * free is locked by the asker (as PostgreSQL's try-lock does) and taken for later questions.
 */
function world(taken: number[] = []) {
  const held = new Set(taken);
  const w = {
    asked: 0,
    calls: 0,
    taken: async (ts: readonly Date[]) => {
      w.calls++;
      w.asked += ts.length;
      // Answered later, as a database does: other requests run meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      return ts.map((t) => held.has(t.getTime()) || (held.add(t.getTime()), false));
    },
    take: (ts: Date[]) => ts.forEach((t) => held.add(t.getTime())),
  };
  return w;
}

describe("distinct instants", () => {
  it("gives the instant itself, or the next free ones, in order", async () => {
    const w = world([100, 101, 103]);
    expect((await freeInstants("a", new Date(100), 3, w.taken)).map(Number)).toEqual([102, 104, 105]);
    expect((await freeInstants("b", new Date(50), 1, w.taken)).map(Number)).toEqual([50]);
  });

  it("starts after the run it handed out instead of probing each instant of it again", async () => {
    const w = world();
    // 9 events per update, updates 1 ms apart: the run grows ahead of the updates' instants.
    for (let k = 0; k < 200; k++) w.take(await freeInstants("c", new Date(1000 + k), 9, w.taken));
    w.asked = 0;
    const next = await freeInstants("c", new Date(1200), 9, w.taken);
    expect(next.map(Number)).toEqual(Array.from({ length: 9 }, (_, i) => 1000 + 1800 + i));
    expect(w.asked).toBeLessThanOrEqual(10);
  });

  it("gives an instant free in another database, as probing would", async () => {
    await freeInstants("d", new Date(5000), 9, world().taken);
    expect((await freeInstants("d", new Date(5000), 1, world().taken)).map(Number)).toEqual([5000]);
  });

  it("gives updates decided side by side disjoint instants, each asking once", async () => {
    const w = world();
    // Sixteen updates at one instant, none committed before the others ask (PostgreSQL runs
    // them in parallel transactions): the world knows none of them.
    const given = await Promise.all(
      Array.from({ length: 16 }, () => freeInstants("f", new Date(7000), 9, w.taken)),
    );
    const all = given.flat().map(Number);
    expect(new Set(all).size).toBe(16 * 9);
    for (const ts of given) expect(ts.map(Number)).toEqual([...ts.map(Number)].sort((x, y) => x - y));
    expect(w.calls).toBe(16);
  });

  it("asks again after the run when candidates are taken elsewhere, in one question each", async () => {
    // Another process took 9001-9003 and 9006.
    const w = world([9001, 9002, 9003, 9006]);
    expect((await freeInstants("g", new Date(9000), 4, w.taken)).map(Number)).toEqual([
      9000, 9004, 9005, 9007,
    ]);
    expect(w.calls).toBe(3);
  });

  it("leaves the run alone for an old instant (offline replay)", async () => {
    const w = world();
    for (let k = 0; k < 50; k++) w.take(await freeInstants("h", new Date(20_000 + k), 9, w.taken));
    expect((await freeInstants("h", new Date(10), 2, w.taken)).map(Number)).toEqual([10, 11]);
    w.calls = 0;
    const next = await freeInstants("h", new Date(20_060), 1, w.taken);
    expect(next.map(Number)).toEqual([20_000 + 450]);
    expect(w.calls).toBe(1);
  });
});
