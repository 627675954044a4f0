"use client";

import { Select, TextField } from "@/components/ui/field";
import { EVENT_TYPES, EVENT_TYPE_NAMES } from "@/lib/types";

export interface EventFilter {
  show: "unverified" | "all";
  type: string;
  confidence: string;
  /** hours back from now ("" for any time) */
  since: string;
  about: string;
}

export const NO_FILTER: EventFilter = { show: "unverified", type: "", confidence: "", since: "", about: "" };

/**
 * The review queue's filters. Show, type, confidence and time are asked of the server; the text
 * narrows the page the server sent (the queue says when that page is not everything).
 */
export function EventFilters({
  value,
  onChange,
}: {
  value: EventFilter;
  onChange: (f: EventFilter) => void;
}) {
  const set = (change: Partial<EventFilter>) => onChange({ ...value, ...change });
  return (
    <div className="flex flex-wrap gap-2">
      <Select
        label="Show"
        value={value.show}
        onChange={(e) => set({ show: e.target.value as EventFilter["show"] })}
      >
        <option value="unverified">Unverified</option>
        <option value="all">All events</option>
      </Select>
      <Select label="Type" value={value.type} onChange={(e) => set({ type: e.target.value })}>
        <option value="">All types</option>
        {EVENT_TYPES.map((t) => (
          <option key={t} value={t}>
            {EVENT_TYPE_NAMES[t]}
          </option>
        ))}
      </Select>
      <Select
        label="Confidence"
        value={value.confidence}
        onChange={(e) => set({ confidence: e.target.value })}
      >
        <option value="">Any confidence</option>
        <option value="high">High</option>
        <option value="medium">Medium</option>
        <option value="low">Low</option>
      </Select>
      <Select label="Since" value={value.since} onChange={(e) => set({ since: e.target.value })}>
        <option value="">Any time</option>
        <option value="1">Last hour</option>
        <option value="24">Last 24 hours</option>
        <option value="168">Last 7 days</option>
      </Select>
      <TextField
        label="Geofence, place or region"
        value={value.about}
        onChange={(e) => set({ about: e.target.value })}
        className="w-40"
      />
    </div>
  );
}
