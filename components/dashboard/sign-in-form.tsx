"use client";

import { ErrorNote } from "@/components/dashboard/error-note";
import { useState } from "react";
import { call, errorText } from "@/lib/api-client";

export function SignInForm({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(form: FormData) {
    setBusy(true);
    setError(null);
    try {
      await call("POST", "/api/session", { email: form.get("email"), password: form.get("password") });
      window.location.href = next;
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
