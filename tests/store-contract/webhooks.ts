import { describe, expect, it } from "vitest";
import type { Storage } from "../../server/storage/port";
import type { SenderTurn } from "../../server/storage/webhooks";
import type { AttemptOutcome, ClaimedDelivery, DeliveryWrite } from "../../server/storage/webhook-records";
import { T0, at, unique } from "./engine";

const ok: AttemptOutcome = { delivered: true, status: 200 };
const refused = (retryAt: Date | null): AttemptOutcome => ({
  delivered: false,
  status: 500,
  error: "HTTP 500",
  retryAt,
});

/**
 * Webhooks' queues at the port: what a sender's turn holds, in which order, and what recording an
 * outcome does. Each test makes webhooks of its own and gives room only to them.
 */
export function webhooksContract(store: () => Storage): void {
  describe("webhooks", () => {
    const hooks = async (count: number) => {
      const made = [];
      for (let k = 0; k < count; k++)
        made.push(
          await store().webhooks.create({
            id: unique("webhook"),
            live: false,
            url: "http://example.com/",
            mode: "single",
            types: null,
            enabled: true,
            token: "k",
            createdAt: T0,
            updatedAt: T0,
          }),
        );
      return made.map((w) => w.seq);
    };
    const owe = async (webhookSeq: number, userId: string, count = 1) => {
      const list: DeliveryWrite[] = [];
      for (let k = 0; k < count; k++) {
        const id = unique("delivery");
        const d = {
          id,
          webhookSeq,
          live: false,
          userId,
          types: "user.entered_geofence",
          eventIds: id,
          body: "{}",
          nextAttemptAt: T0,
          createdAt: T0,
        };
        await store().webhooks.enqueue(d);
        list.push(d);
      }
      return list;
    };
    const turn = (mine: number[], t: Partial<SenderTurn>) =>
      store().webhooks.turn({
        owner: "contract-sender",
        done: [],
        written: [],
        resolved: [],
        known: new Set(),
        now: T0,
        holdUntil: at(30_000),
        total: 64,
        room: (seq) => (mine.includes(seq) ? 32 : 0),
        orphans: false,
        aliveUntil: null,
        split: () => [],
        ...t,
      });
    const claim = async (mine: number[], now = T0, more: Partial<SenderTurn> = {}) =>
      (await turn(mine, { now, holdUntil: new Date(now.getTime() + 30_000), ...more })).claimed;
    const finish = (mine: number[], d: ClaimedDelivery, outcome: AttemptOutcome, now = T0) =>
      turn(mine, { done: [{ delivery: d, at: now, outcome }], now, total: 0 });

    it("hands out each queue's first request, one at a time per queue, in the order made", async () => {
      const mine = await hooks(1);
      const w = mine[0]!;
      const a = await owe(w, "ua", 3);
      const b = await owe(w, "ub", 1);
      const first = await claim(mine);
      expect(first.map((d) => d.id).sort()).toEqual([a[0]!.id, b[0]!.id].sort());
      expect(first[0]).toMatchObject({
        url: "http://example.com/",
        token: "k",
        status: "pending",
        attempts: 0,
      });
      // Held: nothing more of those queues while their first is out.
      expect(await claim(mine)).toEqual([]);
      await finish(
        mine,
        first.find((d) => d.userId === "ua")!,
        ok,
      );
      expect((await claim(mine)).map((d) => d.id)).toEqual([a[1]!.id]);
      expect(await store().webhooks.deliveryById(a[0]!.id)).toMatchObject({
        status: "delivered",
        attempts: 1,
        lastStatus: 200,
      });
    });

    it("keeps a queue waiting for its retry out of the way of the others, and goes on when given up", async () => {
      const mine = await hooks(1);
      const w = mine[0]!;
      const down = await owe(w, "down", 5);
      const [head] = await claim(mine);
      expect(head!.id).toBe(down[0]!.id);
      await finish(mine, head!, refused(at(60_000)));
      const other = await owe(w, "up");
      const taken = await claim(mine);
      expect(taken.map((d) => d.id)).toEqual([other[0]!.id]);
      await finish(mine, taken[0]!, ok);
      expect(await claim(mine, at(59_999))).toEqual([]);
      // Due again at its retry time, with its attempt counted.
      const retried = await claim(mine, at(60_000));
      expect(retried.map((d) => [d.id, d.attempts])).toEqual([[head!.id, 1]]);
      await finish(mine, retried[0]!, refused(null), at(60_000));
      expect(await store().webhooks.deliveryById(head!.id)).toMatchObject({ status: "failed", attempts: 2 });
      expect((await claim(mine, at(60_000))).map((d) => d.id)).toEqual([down[1]!.id]);
    });

    it("gives each webhook no more than its room and the turn no more than its total, nothing to a disabled one", async () => {
      const mine = await hooks(3);
      const [one, two, off] = mine as [number, number, number];
      const offId = (await store().webhooks.list()).find((h) => h.seq === off)!.id;
      expect(await store().webhooks.setEnabled(offId, false, T0)).toBe(true);
      for (let u = 0; u < 10; u++) for (const w of mine) await owe(w, `r${u}`);
      const got = await claim(mine, T0, { room: (seq) => (mine.includes(seq) ? 4 : 0) });
      const per = (w: number) => got.filter((d) => d.webhookSeq === w).length;
      expect([per(one), per(two), per(off)]).toEqual([4, 4, 0]);
      expect(await claim(mine, T0, { total: 3 })).toHaveLength(3);
    });

    it("records an outcome once: a late answer on an attempt already recorded is left out", async () => {
      const mine = await hooks(1);
      const [first, second] = await owe(mine[0]!, "twice", 2);
      const [d] = await claim(mine);
      await finish(mine, d!, ok);
      await finish(mine, d!, refused(null));
      expect(await store().webhooks.deliveryById(first!.id)).toMatchObject({
        status: "delivered",
        attempts: 1,
      });
      expect((await claim(mine)).map((x) => x.id)).toEqual([second!.id]);
    });

    it("counts what is owed, lists a webhook's deliveries newest first, and prunes only finished ones", async () => {
      const mine = await hooks(1);
      const w = mine[0]!;
      const owed = await owe(w, "old", 3);
      expect(await store().webhooks.countDeliveries(w)).toBe(3);
      expect((await store().webhooks.deliveries(w, 2)).map((d) => d.id)).toEqual([owed[2]!.id, owed[1]!.id]);
      const before = await store().webhooks.depth();
      const [d] = await claim(mine);
      await finish(mine, d!, ok);
      expect((await store().webhooks.depth()).queued).toBe(before.queued - 1);
      expect(await store().webhooks.prune(at(1), 100)).toBeGreaterThanOrEqual(1);
      expect(await store().webhooks.deliveryById(owed[0]!.id)).toBeNull();
      expect(await store().webhooks.countDeliveries(w)).toBe(2);
    });

    it("counts the senders alive, and deleting a webhook takes its queues", async () => {
      const before = await store().webhooks.sendersAlive(T0);
      await turn([], { owner: unique("sender"), total: 0, aliveUntil: at(15_000) });
      expect(await store().webhooks.sendersAlive(T0)).toBe(before + 1);
      expect(await store().webhooks.sendersAlive(at(15_000))).toBe(0);
      const mine = await hooks(1);
      const [d] = await owe(mine[0]!, "deleted");
      const id = (await store().webhooks.list()).find((h) => h.seq === mine[0])!.id;
      expect(await store().webhooks.delete(id)).toBe(true);
      expect(await store().webhooks.deliveryById(d!.id)).toBeNull();
      expect(await store().webhooks.delete(id)).toBe(false);
    });
  });
}
