"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { call, errorText } from "@/lib/api-client";
import { HOME_FOR_ROLE } from "@/lib/types";

export function Nav(props: {
  links: { href: string; label: string }[];
  email: string;
  role: string;
  live: boolean;
}) {
  const path = usePathname();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);

  async function switchWorld(live: boolean) {
    try {
      await call("PATCH", "/api/session", { live });
      window.location.reload();
    } catch (e) {
      setError(errorText(e));
    }
  }

  async function signOut() {
    await call("DELETE", "/api/session").catch(() => undefined);
    router.replace("/login");
    router.refresh();
  }

  return (
    <header className="flex flex-wrap items-center gap-x-6 gap-y-2 border-b border-slate-200 bg-white px-4 py-2">
      <Link href={HOME_FOR_ROLE[props.role] ?? "/map"} className="font-semibold">
        Location platform
      </Link>
      <nav aria-label="Dashboard" className="flex flex-wrap gap-1">
        {props.links.map((l) => (
          <Link
            key={l.href}
            href={l.href}
            aria-current={path.startsWith(l.href) ? "page" : undefined}
            className={`rounded px-3 py-1.5 text-sm ${
              path.startsWith(l.href) ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"
            }`}
          >
            {l.label}
          </Link>
        ))}
      </nav>
      <div className="ml-auto flex items-center gap-3 text-sm">
        {error && (
          <span role="alert" className="text-red-700">
            {error}
          </span>
        )}
        <label className="flex items-center gap-2">
          <span className="text-slate-600">Data</span>
          <select
            aria-label="Data"
            value={props.live ? "live" : "test"}
            onChange={(e) => void switchWorld(e.target.value === "live")}
            className={`rounded border px-2 py-1 ${props.live ? "border-amber-400 bg-amber-50" : "border-slate-300"}`}
          >
            <option value="test">Test</option>
            <option value="live">Live</option>
          </select>
        </label>
        <span className="text-slate-600" title={props.role}>
          {props.email} · {props.role}
        </span>
        <button
          type="button"
          onClick={() => void signOut()}
          className="rounded border border-slate-300 px-3 py-1 hover:bg-slate-100"
        >
          Sign out
        </button>
      </div>
    </header>
  );
}
