"use client";

import { EVENT_TYPE_NAMES, type OverviewView } from "@/lib/types";
import { Panel } from "./panel";
import { count, hourOf } from "./format";

/** One color per type, in the order of their totals (the most frequent first). */
const COLORS = [
  "#2563eb",
  "#16a34a",
  "#ea580c",
  "#9333ea",
  "#0891b2",
  "#db2777",
  "#ca8a04",
  "#4b5563",
  "#65a30d",
  "#dc2626",
  "#7c3aed",
  "#0d9488",
];
const colorOf = (i: number) => COLORS[i % COLORS.length]!;
const nameOf = (type: string) => EVENT_TYPE_NAMES[type as keyof typeof EVENT_TYPE_NAMES] ?? type;

const W = 480;
const H = 140;
const GAP = 2;

/** Each type's total over the day, with its color in the chart. */
function TypeTotals({ types }: { types: OverviewView["events"]["types"] }) {
  return (
    <table className="self-start text-sm lg:w-72" aria-label="Events by type">
      <tbody>
        {types.map((t, k) => (
          <tr key={t.type}>
            <td className="py-0.5 pr-2">
              <span
                aria-hidden
                className="mr-2 inline-block size-3 rounded-sm align-middle"
                style={{ background: colorOf(k) }}
              />
              {nameOf(t.type)}
            </td>
            <td className="py-0.5 text-right tabular-nums">{count(t.total)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One hour's bar: its types stacked, the most frequent at the bottom. */
function HourBar(props: {
  hour: string;
  i: number;
  types: OverviewView["events"]["types"];
  total: number;
  most: number;
}) {
  const { i, types, most } = props;
  const bar = W / 24;
  const label = `${hourOf(props.hour)}: ${count(props.total)} event${props.total === 1 ? "" : "s"}`;
  const shown = types.filter((t) => t.counts[i]);
  // Each type's segment, stacked from the bottom.
  const segments: { type: string; k: number; y: number; h: number }[] = [];
  types.reduce((top, t, k) => {
    const n = t.counts[i]!;
    if (!n) return top;
    const h = Math.max((H * n) / most, 1);
    segments.push({ type: t.type, k, y: top - h, h });
    return top - h;
  }, H);
  return (
    <g role="listitem" aria-label={label}>
      <title>{[label, ...shown.map((t) => `${nameOf(t.type)}: ${count(t.counts[i]!)}`)].join("\n")}</title>
      <rect x={i * bar} y={0} width={bar} height={H} fill="transparent" />
      {segments.map((g) => (
        <rect key={g.type} x={i * bar + GAP / 2} y={g.y} width={bar - GAP} height={g.h} fill={colorOf(g.k)} />
      ))}
    </g>
  );
}

/** Events per hour over the last 24 hours, stacked by type, with each type's total beside. */
export function EventsChart({ events }: { events: OverviewView["events"] }) {
  const { hours, types } = events;
  const perHour = hours.map((_, i) => types.reduce((sum, t) => sum + t.counts[i]!, 0));
  const most = Math.max(1, ...perHour);
  return (
    <Panel
      title="Events per hour, last 24 hours"
      aside={<span className="text-sm text-slate-600">{count(events.total)} in all</span>}
    >
      {events.total === 0 ? (
        <p className="text-sm text-slate-500">
          No events in the last 24 hours. Devices make them by entering and leaving geofences (POST
          /v1/track).
        </p>
      ) : (
        <div className="flex flex-col gap-4 lg:flex-row">
          <div className="min-w-0 flex-1">
            <div className="flex justify-between text-xs text-slate-500">
              <span>{count(most)} an hour</span>
            </div>
            <svg
              viewBox={`0 0 ${W} ${H}`}
              className="h-40 w-full"
              preserveAspectRatio="none"
              role="list"
              aria-label="Events per hour"
            >
              <line x1={0} x2={W} y1={H - 0.5} y2={H - 0.5} stroke="#cbd5e1" />
              {hours.map((hour, i) => (
                <HourBar key={hour} hour={hour} i={i} types={types} total={perHour[i]!} most={most} />
              ))}
            </svg>
            <div className="flex justify-between text-xs text-slate-500">
              <span>{hourOf(hours[0]!)}</span>
              <span>{hourOf(hours[Math.floor(hours.length / 2)]!)}</span>
              <span>now</span>
            </div>
          </div>
          <TypeTotals types={types} />
        </div>
      )}
    </Panel>
  );
}
