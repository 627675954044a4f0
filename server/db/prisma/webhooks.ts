import type { WebhookStore } from "../../storage/webhooks";
import type { StoredDelivery, StoredWebhook } from "../../storage/webhook-records";
import { prisma } from "../client";
import type { WriteLock } from "./common";

type WebhookRow = Awaited<ReturnType<typeof prisma.webhook.findFirstOrThrow>>;
type DeliveryRow = Awaited<ReturnType<typeof prisma.webhookDelivery.findFirstOrThrow>>;

const webhookOf = ({ token: _token, ...w }: WebhookRow): StoredWebhook => ({
  ...w,
  mode: w.mode as StoredWebhook["mode"],
  types: w.types ? w.types.split(",") : null,
});

const deliveryOf = (d: DeliveryRow): StoredDelivery => ({
  ...d,
  status: d.status as StoredDelivery["status"],
});

/**
 * Webhooks and the dashboard's view of their deliveries. Each engine's adapter adds the outbox
 * itself (enqueue, a sender's turn, prune: ./sqlite/webhooks.ts, ./postgresql/webhooks.ts), which
 * the sender runs many times a second.
 */
export function webhookStore(
  lock: WriteLock,
): Omit<WebhookStore, "enqueue" | "turn" | "prune" | "sendersAlive"> {
  return {
    async create({ types, ...w }) {
      const row = await lock(() =>
        prisma.webhook.create({ data: { ...w, types: types?.join(",") ?? null } }),
      );
      return webhookOf(row);
    },
    list: async () => (await prisma.webhook.findMany({ orderBy: { seq: "asc" } })).map(webhookOf),
    async byId(id) {
      const row = await prisma.webhook.findUnique({ where: { id } });
      return row ? webhookOf(row) : null;
    },
    async setEnabled(id, enabled, at) {
      const { count } = await lock(() =>
        prisma.webhook.updateMany({ where: { id }, data: { enabled, updatedAt: at } }),
      );
      return count > 0;
    },
    async delete(id) {
      return lock(async () => {
        const row = await prisma.webhook.findUnique({ where: { id }, select: { seq: true } });
        if (!row) return false;
        // The webhook first: no sender takes its queues once it is gone.
        const [removed] = await prisma.$transaction([
          prisma.webhook.deleteMany({ where: { id } }),
          prisma.webhookQueue.deleteMany({ where: { webhookSeq: row.seq } }),
          prisma.webhookDelivery.deleteMany({ where: { webhookSeq: row.seq } }),
        ]);
        return removed.count > 0;
      });
    },
    async deliveries(webhookSeq, take, skip = 0) {
      const rows = await prisma.webhookDelivery.findMany({
        where: { webhookSeq },
        orderBy: { seq: "desc" },
        take,
        skip,
      });
      return rows.map(deliveryOf);
    },
    countDeliveries: (webhookSeq) => prisma.webhookDelivery.count({ where: { webhookSeq } }),
    async deliveryById(id) {
      const row = await prisma.webhookDelivery.findUnique({ where: { id } });
      return row ? deliveryOf(row) : null;
    },
    async depth() {
      const [outbox, queues] = await Promise.all([
        prisma.webhookOutbox.count(),
        prisma.webhookQueue.aggregate({ _sum: { pending: true } }),
      ]);
      return { outbox, queued: queues._sum.pending ?? 0 };
    },
  };
}
