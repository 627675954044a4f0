"use client";

import { ErrorNote } from "@/components/dashboard/error-note";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { call } from "@/lib/api-client";

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

interface AccountRow {
  id: string;
  email: string;
  role: string;
  createdAt: string;
  disabled: boolean;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");
const cell = "px-3 py-2 text-left";

export function KeysAdmin() {
  return (
    <div className="mx-auto max-w-5xl space-y-10 p-6">
      <Keys />
      <PublishableSetting />
      <Accounts />
    </div>
  );
}

function Keys() {
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
        Secret keys work on every endpoint and stay on servers; publishable keys are for apps and SDKs
        (tracking, context). Keys are stored hashed: a new key is shown once.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(new FormData(e.currentTarget));
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
          disabled={create.isPending}
          className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white disabled:opacity-50"
        >
          Create key
        </button>
      </form>
      <ErrorNote error={create.error} />
      {created && (
        <div role="status" className="space-y-1 rounded border border-amber-300 bg-amber-50 p-3 text-sm">
          <p className="font-medium">New key, shown only this once. Store it now:</p>
          <code aria-label="New key" className="block font-mono break-all">
            {created}
          </code>
          <div className="flex gap-3">
            <button
              type="button"
              className="underline"
              onClick={() => void navigator.clipboard?.writeText(created)}
            >
              Copy
            </button>
            <button type="button" className="underline" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      )}
      {keys.isLoading ? (
        <p className="text-sm text-slate-500">Loading keys…</p>
      ) : keys.error ? (
        <ErrorNote error={keys.error} />
      ) : (
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
            {keys.data?.map((k) => (
              <tr key={k.id} className="border-t border-slate-100">
                <td className={`${cell} font-mono text-xs`}>{k.prefix}…</td>
                <td className={cell}>{k.kind}</td>
                <td className={cell}>{k.live ? "live" : "test"}</td>
                <td className={cell}>{k.name ?? "—"}</td>
                <td className={cell}>{when(k.createdAt)}</td>
                <td className={cell}>{when(k.lastUsedAt)}</td>
                <td className={cell}>
                  {k.revokedAt ? (
                    <span className="text-slate-500">revoked</span>
                  ) : confirm === k.id ? (
                    <span className="flex gap-2">
                      <button
                        type="button"
                        onClick={() => revoke.mutate(k.id)}
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
      )}
    </section>
  );
}

function Accounts() {
  const queryClient = useQueryClient();
  const accounts = useQuery({
    queryKey: ["accounts"],
    queryFn: () => call<{ accounts: AccountRow[] }>("GET", "/api/accounts").then((r) => r.accounts),
  });
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null);
  const create = useMutation({
    mutationFn: (form: FormData) =>
      call<{ account: AccountRow; password: string }>("POST", "/api/accounts", {
        email: form.get("email"),
        role: form.get("role"),
      }),
    onSuccess: (r) => {
      setCreated({ email: r.account.email, password: r.password });
      void queryClient.invalidateQueries({ queryKey: ["accounts"] });
    },
  });
  const disable = useMutation({
    mutationFn: (id: string) => call("DELETE", `/api/accounts/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["accounts"] }),
  });
  return (
    <section aria-labelledby="accounts-title" className="space-y-4">
      <h2 id="accounts-title" className="text-2xl font-semibold">
        Accounts
      </h2>
      <p className="text-sm text-slate-600">
        Admins do everything; analysts draw geofences and follow users; reviewers verify events.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(new FormData(e.currentTarget));
        }}
        className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3"
      >
        <label className="space-y-1 text-sm font-medium">
          <span className="block">Email</span>
          <input name="email" type="email" required className="rounded border border-slate-300 px-2 py-1.5" />
        </label>
        <label className="space-y-1 text-sm font-medium">
          <span className="block">Role</span>
          <select name="role" className="rounded border border-slate-300 px-2 py-1.5">
            <option value="reviewer">Reviewer</option>
            <option value="analyst">Analyst</option>
            <option value="admin">Admin</option>
          </select>
        </label>
        <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">
          Create account
        </button>
      </form>
      <ErrorNote error={create.error ?? disable.error} />
      {created && (
        <p role="status" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm">
          {created.email} can sign in with the password <code className="font-mono">{created.password}</code>{" "}
          (shown once).
        </p>
      )}
      <table className="w-full rounded border border-slate-200 bg-white text-sm">
        <thead className="bg-slate-50 text-slate-600">
          <tr>
            <th className={cell}>Email</th>
            <th className={cell}>Role</th>
            <th className={cell}>Created</th>
            <th className={cell}>State</th>
          </tr>
        </thead>
        <tbody>
          {accounts.data?.map((a) => (
            <tr key={a.id} className="border-t border-slate-100">
              <td className={cell}>{a.email}</td>
              <td className={cell}>{a.role}</td>
              <td className={cell}>{when(a.createdAt)}</td>
              <td className={cell}>
                {a.disabled ? (
                  "disabled"
                ) : (
                  <button
                    type="button"
                    onClick={() => disable.mutate(a.id)}
                    className="underline"
                    aria-label={`Disable ${a.email}`}
                  >
                    Disable
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Whether publishable keys may call geocoding, search and routing (off by default). */
function PublishableSetting() {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ["settings"],
    queryFn: () =>
      call<{ settings: { publishableSearch: boolean } }>("GET", "/api/settings").then((r) => r.settings),
  });
  const change = useMutation({
    mutationFn: (publishableSearch: boolean) => call("PATCH", "/api/settings", { publishableSearch }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["settings"] }),
  });
  return (
    <section aria-labelledby="settings-title" className="space-y-2">
      <h2 id="settings-title" className="text-xl font-semibold">
        Publishable keys
      </h2>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-1"
          disabled={settings.isLoading || change.isPending}
          checked={settings.data?.publishableSearch ?? false}
          onChange={(e) => change.mutate(e.target.checked)}
        />
        <span>
          Let publishable keys call geocoding, search (geofences, places) and routing, so browser SDKs can use
          them. User search always needs a secret key. Off by default.
        </span>
      </label>
      <ErrorNote error={settings.error ?? change.error} />
    </section>
  );
}
