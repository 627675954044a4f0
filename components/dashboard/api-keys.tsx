"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";
import { cell, when } from "./admin-format";

interface KeyRow {
  id: string;
  kind: "secret" | "publishable";
  live: boolean;
  name: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** API keys: create (the key is shown once), see when each was last used, revoke. */
export function ApiKeys() {
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: ["keys"],
    queryFn: () => call<{ keys: KeyRow[] }>("GET", "/api/keys").then((r) => r.keys),
  });
  const [created, setCreated] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (form: FormData) =>
      call<{ key: string }>("POST", "/api/keys", {
        kind: form.get("kind"),
        live: form.get("world") === "live",
        name: String(form.get("name") ?? "") || undefined,
      }),
    onSuccess: (r) => {
      setCreated(r.key);
      void queryClient.invalidateQueries({ queryKey: ["keys"] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => call("DELETE", `/api/keys/${id}`),
    onSuccess: () => {
      setConfirm(null);
      void queryClient.invalidateQueries({ queryKey: ["keys"] });
    },
  });
  return (
    <section aria-labelledby="keys-title" className="space-y-4">
      <h1 id="keys-title" className="text-2xl font-semibold">
        API keys
      </h1>
      <p className="text-sm text-slate-600">
        Secret keys work on every endpoint and stay on servers. Publishable keys ship inside apps and web
        pages, so anyone can have one: they call what devices call (tracking, trips, context), within rate
        limits, and a device is answered only its own data. Keys are stored hashed: a new key is shown once.
      </p>
      <CreateKeyForm busy={create.isPending} onCreate={(form) => create.mutate(form)} />
      <ErrorNote error={create.error} />
      {created && <NewKey value={created} onDone={() => setCreated(null)} />}
      {keys.isLoading ? (
        <p className="text-sm text-slate-500">Loading keys…</p>
      ) : keys.error ? (
        <ErrorNote error={keys.error} />
      ) : (
        <KeyTable
          keys={keys.data ?? []}
          confirm={confirm}
          setConfirm={setConfirm}
          revoke={(id) => revoke.mutate(id)}
        />
      )}
    </section>
  );
}

/** The form that makes a key: its kind, test or live data, and a name. */
function CreateKeyForm({ busy, onCreate }: { busy: boolean; onCreate: (form: FormData) => void }) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onCreate(new FormData(e.currentTarget));
      }}
      className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3"
    >
      <label className="space-y-1 text-sm font-medium">
        <span className="block">Kind</span>
        <select name="kind" className="rounded border border-slate-300 px-2 py-1.5">
          <option value="secret">Secret</option>
          <option value="publishable">Publishable</option>
        </select>
      </label>
      <label className="space-y-1 text-sm font-medium">
        <span className="block">Data</span>
        <select name="world" className="rounded border border-slate-300 px-2 py-1.5">
          <option value="test">Test</option>
          <option value="live">Live</option>
        </select>
      </label>
      <label className="space-y-1 text-sm font-medium">
        <span className="block">Name</span>
        <input
          name="name"
          placeholder="What it is for"
          className="rounded border border-slate-300 px-2 py-1.5"
        />
      </label>
      <button
        type="submit"
        disabled={busy}
        className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white disabled:opacity-50"
      >
        Create key
      </button>
    </form>
  );
}

/** A new key, shown only this once. */
function NewKey({ value, onDone }: { value: string; onDone: () => void }) {
  return (
    <div role="status" className="space-y-1 rounded border border-amber-300 bg-amber-50 p-3 text-sm">
      <p className="font-medium">New key, shown only this once. Store it now:</p>
      <code aria-label="New key" className="block font-mono break-all">
        {value}
      </code>
      <div className="flex gap-3">
        <button
          type="button"
          className="underline"
          onClick={() => void navigator.clipboard?.writeText(value)}
        >
          Copy
        </button>
        <button type="button" className="underline" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

/** The keys, each with when it was last used and a revoke button (confirmed first). */
function KeyTable({
  keys,
  confirm,
  setConfirm,
  revoke,
}: {
  keys: KeyRow[];
  confirm: string | null;
  setConfirm: (id: string | null) => void;
  revoke: (id: string) => void;
}) {
  return (
    <table className="w-full overflow-hidden rounded border border-slate-200 bg-white text-sm">
      <thead className="bg-slate-50 text-slate-600">
        <tr>
          <th className={cell}>Key</th>
          <th className={cell}>Kind</th>
          <th className={cell}>Data</th>
          <th className={cell}>Name</th>
          <th className={cell}>Created</th>
          <th className={cell}>Last used</th>
          <th className={cell}>State</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => (
          <tr key={k.id} className="border-t border-slate-100">
            <td className={`${cell} font-mono text-xs`}>{k.prefix}…</td>
            <td className={cell}>{k.kind}</td>
            <td className={cell}>{k.live ? "live" : "test"}</td>
            <td className={cell}>{k.name ?? "—"}</td>
            <td className={cell}>{when(k.createdAt)}</td>
            <td className={cell}>{when(k.lastUsedAt)}</td>
            <td className={cell}>
              {k.revokedAt ? (
                <span className="text-slate-500" title="Requests with it are refused everywhere within 1 s">
                  revoked
                </span>
              ) : confirm === k.id ? (
                <span className="flex gap-2">
                  <button
                    type="button"
                    onClick={() => revoke(k.id)}
                    className="rounded bg-red-700 px-2 py-0.5 text-white"
                  >
                    Confirm revoke
                  </button>
                  <button type="button" onClick={() => setConfirm(null)} className="underline">
                    Keep
                  </button>
                </span>
              ) : (
                <button
                  type="button"
                  aria-label={`Revoke ${k.name ?? k.prefix}`}
                  onClick={() => setConfirm(k.id)}
                  className="rounded border border-red-300 px-2 py-0.5 text-red-700"
                >
                  Revoke
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
