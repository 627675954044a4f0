"use client";

import { useQuery } from "@tanstack/react-query";
import { call } from "@/lib/api-client";
import type { ConversionDay } from "@/lib/types";

const DAYS = 30;
const DAY_MS = 86_400_000;

/** Every UTC day from `since` to today, oldest first. */
function daysFrom(since: string): string[] {
  const first = Date.parse(`${since}T00:00:00Z`);
  return Array.from({ length: DAYS }, (_, i) => new Date(first + i * DAY_MS).toISOString().slice(0, 10));
}

/**
 * Conversions per day over the last 30 days (UTC), counted by the server, and each name's total
 * and revenue: what apps log with logConversion (POST /v1/events). Refetched every minute.
 */
export function ConversionsChart() {
  const data = useQuery({
    queryKey: ["conversions", DAYS],
    queryFn: () =>
      call<{ since: string; days: ConversionDay[] }>("GET", `/api/events/conversions?days=${DAYS}`),
    refetchInterval: 60_000,
  });
  if (!data.data) return null;
  const perDay = new Map<string, number>();
  const perName = new Map<string, { count: number; revenue: number }>();
  for (const d of data.data.days) {
    perDay.set(d.day, (perDay.get(d.day) ?? 0) + d.count);
    const n = perName.get(d.name) ?? { count: 0, revenue: 0 };
    perName.set(d.name, { count: n.count + d.count, revenue: n.revenue + d.revenue });
  }
  const days = daysFrom(data.data.since);
  const most = Math.max(1, ...perDay.values());
  return (
    <section aria-label="Conversions" className="space-y-2 border-t border-slate-200 pt-4">
      <h2 className="font-medium">Conversions, last {DAYS} days (UTC)</h2>
      {perName.size === 0 ? (
        <p className="text-sm text-slate-500">
          No conversions yet. Apps log them with the SDKs&apos; logConversion (POST /v1/events).
        </p>
      ) : (
        <>
          <div className="flex h-24 items-end gap-px" role="list" aria-label="Conversions per day">
            {days.map((day) => {
              const n = perDay.get(day) ?? 0;
              const label = `${day}: ${n} conversion${n === 1 ? "" : "s"}`;
              return (
                <div
                  key={day}
                  role="listitem"
                  aria-label={label}
                  title={label}
                  className="flex h-full flex-1 items-end bg-slate-100"
                >
                  <div
                    className="w-full rounded-t bg-emerald-600"
                    style={{ height: `${(100 * n) / most}%`, minHeight: n ? 2 : 0 }}
                  />
                </div>
              );
            })}
          </div>
          <div className="flex justify-between text-xs text-slate-500">
            <span>{days[0]}</span>
            <span>{days.at(-1)}</span>
          </div>
          <table className="w-full text-sm">
            <thead className="text-left text-slate-500">
              <tr>
                <th className="font-normal">Name</th>
                <th className="text-right font-normal">Count</th>
                <th className="text-right font-normal">Revenue</th>
              </tr>
            </thead>
            <tbody>
              {[...perName].map(([name, t]) => (
                <tr key={name}>
                  <td>{name}</td>
                  <td className="text-right">{t.count}</td>
                  <td className="text-right">{t.revenue ? t.revenue.toFixed(2) : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
