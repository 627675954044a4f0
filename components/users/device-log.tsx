"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { call } from "@/lib/api-client";

interface LogLine {
  level: string;
  message: string;
  type?: string;
  createdAt: string;
}

const LEVEL_COLOR: Record<string, string> = {
  error: "text-red-700",
  warning: "text-amber-700",
  info: "text-slate-700",
  debug: "text-slate-500",
};
const SHOWN = 10;

/**
 * What the user's device's SDK logged (POST /v1/logs), newest first: what support staff read
 * when a device stopped tracking. The newest ten, and the rest on demand.
 */
export function DeviceLog({ userId }: { userId: string }) {
  const [all, setAll] = useState(false);
  const logs = useQuery({
    queryKey: ["user-logs", userId],
    queryFn: () => call<{ logs: LogLine[] }>("GET", `/api/users/${userId}/logs`).then((r) => r.logs),
  });
  if (!logs.data) return null;
  const lines = all ? logs.data : logs.data.slice(0, SHOWN);
  return (
    <section aria-label="Device log" className="space-y-1">
      <h3 className="font-medium">Device log</h3>
      {lines.length === 0 ? (
        <p className="text-sm text-slate-500">The device&apos;s SDK has sent no logs.</p>
      ) : (
        <ol className="space-y-0.5 font-mono text-xs">
          {lines.map((l, i) => (
            <li key={i} className={LEVEL_COLOR[l.level] ?? ""}>
              {new Date(l.createdAt).toLocaleString()} {l.level.toUpperCase()} {l.message}
            </li>
          ))}
        </ol>
      )}
      {!all && logs.data.length > SHOWN && (
        <button type="button" onClick={() => setAll(true)} className="text-sm text-slate-600 underline">
          Show all {logs.data.length} lines
        </button>
      )}
    </section>
  );
}
