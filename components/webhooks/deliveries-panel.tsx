"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";
import { cell, when } from "../dashboard/admin-format";

interface DeliveryRow {
  _id: string;
  createdAt: string;
  types: string[];
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
}

const SIZE = 50;

/** A webhook's deliveries, newest first, paged by the server; any can be sent again. */
export function DeliveriesPanel({ webhookId }: { webhookId: string }) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const deliveries = useQuery({
    queryKey: ["webhook-deliveries", webhookId, page],
    placeholderData: keepPreviousData,
    refetchInterval: 3000,
    queryFn: () =>
      call<{ deliveries: DeliveryRow[]; total: number }>(
        "GET",
        `/api/webhooks/${webhookId}/deliveries?page=${page}&size=${SIZE}`,
      ),
  });
  const redeliver = useMutation({
    mutationFn: (id: string) => call("POST", `/api/webhooks/deliveries/${id}/redeliver`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["webhook-deliveries", webhookId] }),
  });
  const total = deliveries.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / SIZE));
  return (
    <section aria-label="Deliveries" className="space-y-2">
      <h2 className="text-lg font-semibold">Deliveries</h2>
      <ErrorNote error={deliveries.error ?? redeliver.error} />
      {deliveries.data && deliveries.data.deliveries.length === 0 ? (
        <p className="text-sm text-slate-500">
          Nothing sent yet: events of this webhook&apos;s world and types appear here.
        </p>
      ) : (
        <table className="w-full rounded border border-slate-200 bg-white text-sm">
          <thead className="bg-slate-50 text-slate-600">
            <tr>
              <th className={cell}>Made</th>
              <th className={cell}>Events</th>
              <th className={cell}>Status</th>
              <th className={cell}>Answer</th>
              <th className={cell}>Attempts</th>
              <th className={cell}>Next try</th>
              <th className={cell} />
            </tr>
          </thead>
          <tbody>
            {deliveries.data?.deliveries.map((d) => (
              <tr key={d._id} className="border-t border-slate-100">
                <td className={cell}>{when(d.createdAt)}</td>
                <td className={cell}>{d.types.join(", ")}</td>
                <td className={cell}>{d.status}</td>
                <td className={`${cell} break-all`}>{d.lastStatus ?? d.lastError ?? "—"}</td>
                <td className={cell}>{d.attempts}</td>
                <td className={cell}>{d.nextAttemptAt ? when(d.nextAttemptAt) : "—"}</td>
                <td className={cell}>
                  <button type="button" className="underline" onClick={() => redeliver.mutate(d._id)}>
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="flex items-center gap-2 text-sm">
        <Button size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          Previous
        </Button>
        <Button size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
          Next
        </Button>
        <span className="text-slate-600">
          {total.toLocaleString("en")} deliveries · page {page} of {pages}
        </span>
      </div>
    </section>
  );
}
