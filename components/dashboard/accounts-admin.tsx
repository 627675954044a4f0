"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorNote } from "@/components/dashboard/error-note";
import { call } from "@/lib/api-client";
import { cell, when } from "./admin-format";

interface AccountRow {
  id: string;
  email: string;
  role: string;
  createdAt: string;
  disabled: boolean;
}

/** Dashboard accounts: create one with a role (a generated password is shown once), disable. */
export function AccountsAdmin() {
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
