"use client";

import { ErrorNote } from "@/components/ui/error-note";
import { useState } from "react";
import { call, errorText } from "@/lib/api-client";
import { HOME_FOR_ROLE } from "@/lib/types";

/** Signs in, then goes to `next`, or to the account's role's home page. */
export function SignInForm({ next }: { next: string | null }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(form: FormData) {
    setBusy(true);
    setError(null);
    try {
      const { account } = await call<{ account: { role: string } }>("POST", "/api/session", {
        email: form.get("email"),
        password: form.get("password"),
      });
      window.location.href = next ?? HOME_FOR_ROLE[account.role] ?? "/map";
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit(new FormData(e.currentTarget));
      }}
      className="space-y-4"
    >
      <label className="block space-y-1 text-sm font-medium">
        <span>Email</span>
        <input
          name="email"
          type="email"
          required
          autoComplete="username"
          className="w-full rounded border border-slate-300 px-3 py-2 font-normal"
        />
      </label>
      <label className="block space-y-1 text-sm font-medium">
        <span>Password</span>
        <input
          name="password"
          type="password"
          required
          autoComplete="current-password"
          className="w-full rounded border border-slate-300 px-3 py-2 font-normal"
        />
      </label>
      <ErrorNote error={error} boxed />
      <button
        type="submit"
        disabled={busy}
        className="w-full rounded bg-slate-900 px-3 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-50"
      >
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
