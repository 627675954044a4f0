"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";
import { cell, when } from "./admin-format";

interface AccountRow {
  id: string;
  email: string;
  role: string;
  createdAt: string;
  disabled: boolean;
}

const ROLE_NAMES: Record<string, string> = { admin: "Admin", analyst: "Analyst", reviewer: "Reviewer" };

/**
 * Dashboard accounts: create one with a role (a generated password is shown once), change a
 * role, disable (after a confirmation) and enable again. The admin's own account is left alone.
 */
export function AccountsAdmin({ selfId }: { selfId: string }) {
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
  const [confirming, setConfirming] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: (c: { account: AccountRow; role?: string; disabled?: boolean }) =>
      call<{ account: AccountRow }>("PATCH", `/api/accounts/${c.account.id}`, {
        ...(c.role !== undefined && { role: c.role }),
        ...(c.disabled !== undefined && { disabled: c.disabled }),
      }),
    onSuccess: ({ account }, c) => {
      setConfirming(null);
      setDone(
        c.role !== undefined
          ? `${account.email} is now ${ROLE_NAMES[account.role] ?? account.role}.`
          : account.disabled
            ? `${account.email} is disabled and signed out everywhere.`
            : `${account.email} can sign in again.`,
      );
      void queryClient.invalidateQueries({ queryKey: ["accounts"] });
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: ["accounts"] }),
  });
  return (
    <section aria-labelledby="accounts-title" className="space-y-4">
      <h2 id="accounts-title" className="text-2xl font-semibold">
        Accounts
      </h2>
      <p className="text-sm text-slate-600">
        Admins do everything; analysts draw geofences and follow users; reviewers verify events.
      </p>
      <CreateAccountForm onCreate={(form) => create.mutate(form)} />
      <ErrorNote error={create.error ?? change.error} />
      {done && !change.error && (
        <p role="status" className="text-sm text-slate-700">
          {done}
        </p>
      )}
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
            <AccountRowView
              key={a.id}
              account={a}
              self={a.id === selfId}
              busy={change.isPending}
              confirming={confirming === a.id}
              setConfirming={(on) => setConfirming(on ? a.id : null)}
              change={(c) => change.mutate({ account: a, ...c })}
            />
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The form that makes an account with a role. */
function CreateAccountForm({ onCreate }: { onCreate: (form: FormData) => void }) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onCreate(new FormData(e.currentTarget));
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
  );
}

/** One account: its role (changeable), creation, and state (disable after a confirmation, enable). */
function AccountRowView({
  account,
  self,
  busy,
  confirming,
  setConfirming,
  change,
}: {
  account: AccountRow;
  /** the admin's own account, left alone */
  self: boolean;
  busy: boolean;
  confirming: boolean;
  setConfirming: (on: boolean) => void;
  change: (c: { role?: string; disabled?: boolean }) => void;
}) {
  return (
    <tr className="border-t border-slate-100">
      <td className={cell}>
        {account.email}
        {self && <span className="text-slate-500"> (you)</span>}
      </td>
      <td className={cell}>
        {self ? (
          ROLE_NAMES[account.role]
        ) : (
          <select
            aria-label={`Role of ${account.email}`}
            value={account.role}
            disabled={busy}
            onChange={(e) => change({ role: e.target.value })}
            className="rounded border border-slate-300 px-1 py-0.5"
          >
            {Object.entries(ROLE_NAMES).map(([value, name]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
          </select>
        )}
      </td>
      <td className={cell}>{when(account.createdAt)}</td>
      <td className={cell}>
        <span className="mr-2">{account.disabled ? "Disabled" : "Active"}</span>
        {!self &&
          (account.disabled ? (
            <button
              type="button"
              onClick={() => change({ disabled: false })}
              className="underline"
              aria-label={`Enable ${account.email}`}
            >
              Enable
            </button>
          ) : confirming ? (
            <span role="group" aria-label={`Confirm disabling ${account.email}`}>
              Signs {account.email} out everywhere.{" "}
              <button
                type="button"
                onClick={() => change({ disabled: true })}
                className="font-medium text-red-700 underline"
              >
                Disable
              </button>{" "}
              <button type="button" onClick={() => setConfirming(false)} className="underline">
                Cancel
              </button>
            </span>
          ) : (
            <button
              type="button"
              onClick={() => setConfirming(true)}
              className="underline"
              aria-label={`Disable ${account.email}`}
            >
              Disable
            </button>
          ))}
      </td>
    </tr>
  );
}
