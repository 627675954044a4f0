import { describe, expect, it } from "vitest";
import { freeInstants } from "./instants";

/** A world's taken instants, counting how often they are asked about. */
function world(taken: number[] = []) {
  const held = new Set(taken);
  const w = {
    asked: 0,
    taken: async (t: Date) => {
      w.asked++;
      return held.has(t.getTime());
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
});
