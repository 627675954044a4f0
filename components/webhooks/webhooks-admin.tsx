"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";
import { EVENT_TYPE_NAMES } from "@/lib/types";
import { cell, when } from "../dashboard/admin-format";
import { DeliveriesPanel } from "./deliveries-panel";

export interface WebhookRow {
  _id: string;
  url: string;
  live: boolean;
  mode: "single" | "multiple";
  types: string[] | null;
  enabled: boolean;
  createdAt: string;
  failureRate: number;
  pending: number;
  failing: boolean;
}

const input = "rounded border border-slate-300 px-2 py-1.5";

/**
 * Webhooks (docs/webhooks.md): make one (its signing token is shown once), see each one's recent
 * failure rate and whether it is failing, enable, disable, test or delete it, and open its
 * deliveries to see what happened and send one again.
 */
export function WebhooksAdmin() {
  const queryClient = useQueryClient();
  const hooks = useQuery({
    queryKey: ["webhooks"],
    queryFn: () => call<{ webhooks: WebhookRow[] }>("GET", "/api/webhooks").then((r) => r.webhooks),
    refetchInterval: 5000,
  });
  const [created, setCreated] = useState<{ url: string; token: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["webhooks"] });
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      call<{ webhook: WebhookRow; token: string }>("POST", "/api/webhooks", body),
    onSuccess: (r) => {
      setCreated({ url: r.webhook.url, token: r.token });
      refresh();
    },
  });
  const act = useMutation({
    mutationFn: ({ method, path, body }: { method: string; path: string; body?: unknown }) =>
      call(method, path, body),
    onSuccess: refresh,
  });
  return (
    <section aria-labelledby="webhooks-title" className="max-w-6xl space-y-4">
      <h1 id="webhooks-title" className="text-2xl font-semibold">
        Webhooks
      </h1>
      <p className="text-sm text-slate-600">
        Events are sent to these URLs as they happen, in Radar&apos;s format, signed; a refused one is tried
        again for 24 hours. Test webhooks get the events of test keys, live ones those of live keys.
      </p>
      <CreateWebhookForm busy={create.isPending} onCreate={(body) => create.mutate(body)} />
      <ErrorNote error={create.error ?? act.error} />
      {created && (
        <div role="status" className="space-y-1 rounded border border-amber-300 bg-amber-50 p-3 text-sm">
          <p className="font-medium">Signing token for {created.url}, shown only this once:</p>
          <code aria-label="Signing token" className="block font-mono break-all">
            {created.token}
          </code>
          <button type="button" className="underline" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      {hooks.isLoading ? (
        <p className="text-sm text-slate-500">Loading webhooks…</p>
      ) : hooks.error ? (
        <ErrorNote error={hooks.error} />
      ) : (
        <WebhookTable hooks={hooks.data ?? []} open={open} setOpen={setOpen} act={(a) => act.mutate(a)} />
      )}
      {open && <DeliveriesPanel webhookId={open} />}
    </section>
  );
}

/** The form that makes a webhook: URL, world, mode, and the event types (none ticked: all). */
function CreateWebhookForm({
  busy,
  onCreate,
}: {
  busy: boolean;
  onCreate: (body: Record<string, unknown>) => void;
}) {
  return (
    <form
      aria-label="New webhook"
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const types = f.getAll("types").map(String);
        onCreate({
          url: f.get("url"),
          live: f.get("world") === "live",
          mode: f.get("mode"),
          ...(types.length && { types }),
        });
      }}
      className="space-y-3 rounded border border-slate-200 bg-white p-3 text-sm"
    >
      <div className="flex flex-wrap items-end gap-3">
        <label className="min-w-72 flex-1 space-y-1 font-medium">
          <span className="block">URL</span>
          <input
            name="url"
            type="url"
            required
            placeholder="https://example.com/hook"
            className={`${input} w-full`}
          />
        </label>
        <label className="space-y-1 font-medium">
          <span className="block">Data</span>
          <select name="world" className={input}>
            <option value="test">Test</option>
            <option value="live">Live</option>
          </select>
        </label>
        <label className="space-y-1 font-medium">
          <span className="block">Mode</span>
          <select name="mode" className={input}>
            <option value="single">One event per request</option>
            <option value="multiple">Up to 5 events per request</option>
          </select>
        </label>
        <button
          type="submit"
          disabled={busy}
          className="rounded bg-slate-900 px-3 py-1.5 text-white disabled:opacity-50"
        >
          Create webhook
        </button>
      </div>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
        <legend className="mb-1 font-medium">Event types (none ticked: all)</legend>
        {Object.entries(EVENT_TYPE_NAMES).map(([type, name]) => (
          <label key={type} className="flex items-center gap-1">
            <input type="checkbox" name="types" value={type} />
            {name}
          </label>
        ))}
      </fieldset>
    </form>
  );
}

type Act = (a: { method: string; path: string; body?: unknown }) => void;

/** Each webhook with its state and failure rate, and what can be done with it. */
function WebhookTable({
  hooks,
  open,
  setOpen,
  act,
}: {
  hooks: WebhookRow[];
  open: string | null;
  setOpen: (id: string | null) => void;
  act: Act;
}) {
  if (!hooks.length) return <p className="text-sm text-slate-500">No webhooks yet.</p>;
  return (
    <table className="w-full rounded border border-slate-200 bg-white text-sm">
      <thead className="bg-slate-50 text-slate-600">
        <tr>
          <th className={cell}>URL</th>
          <th className={cell}>Data</th>
          <th className={cell}>Mode</th>
          <th className={cell}>Types</th>
          <th className={cell}>State</th>
          <th className={cell}>Failures</th>
          <th className={cell}>Created</th>
          <th className={cell}>Actions</th>
        </tr>
      </thead>
      <tbody>
        {hooks.map((w) => (
          <tr key={w._id} className={`border-t border-slate-100 ${open === w._id ? "bg-slate-50" : ""}`}>
            <td className={`${cell} font-mono text-xs break-all`}>{w.url}</td>
            <td className={cell}>{w.live ? "live" : "test"}</td>
            <td className={cell}>{w.mode}</td>
            <td className={cell}>{w.types?.join(", ") ?? "all"}</td>
            <td className={cell}>
              {w.enabled ? "enabled" : "disabled"}
              {w.failing && <span className="ml-2 rounded bg-red-100 px-1.5 text-red-800">failing</span>}
            </td>
            <td className={cell}>
              {Math.round(w.failureRate * 100)}% · {w.pending} pending
            </td>
            <td className={cell}>{when(w.createdAt)}</td>
            <td className={cell}>
              <WebhookActions w={w} open={open === w._id} setOpen={setOpen} act={act} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function WebhookActions({
  w,
  open,
  setOpen,
  act,
}: {
  w: WebhookRow;
  open: boolean;
  setOpen: (id: string | null) => void;
  act: Act;
}) {
  const [confirm, setConfirm] = useState(false);
  const path = `/api/webhooks/${w._id}`;
  const button = "underline";
  return (
    <span className="flex flex-wrap gap-2">
      <button type="button" className={button} onClick={() => setOpen(open ? null : w._id)}>
        {open ? "Hide deliveries" : "Deliveries"}
      </button>
      <button type="button" className={button} onClick={() => act({ method: "POST", path: `${path}/test` })}>
        Send test
      </button>
      <button
        type="button"
        className={button}
        onClick={() => act({ method: "PATCH", path, body: { enabled: !w.enabled } })}
      >
        {w.enabled ? "Disable" : "Enable"}
      </button>
      {confirm ? (
        <>
          <button
            type="button"
            className="text-red-700 underline"
            onClick={() => act({ method: "DELETE", path })}
          >
            Confirm delete
          </button>
          <button type="button" className={button} onClick={() => setConfirm(false)}>
            Keep
          </button>
        </>
      ) : (
        <button
          type="button"
          className="text-red-700 underline"
          aria-label={`Delete ${w.url}`}
          onClick={() => setConfirm(true)}
        >
          Delete
        </button>
      )}
    </span>
  );
}
