"use client";

import { useQuery } from "@tanstack/react-query";
import type L from "leaflet";
import { useEffect, useId, useState } from "react";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";
import type { GeoAddress } from "@/lib/types";
import { type LngLat, leafletPoint } from "@/lib/position";

/** How far in to zoom on an answer of each layer. */
const ZOOM: Record<string, number> = {
  address: 18,
  street: 17,
  place: 17,
  postalCode: 14,
  locality: 13,
  county: 10,
  state: 7,
  country: 5,
};

/** Waiting this long after the last keystroke before asking (autocomplete). */
const DEBOUNCE_MS = 200;

export const addressPoint = (a: GeoAddress): LngLat | null =>
  a.latitude !== undefined && a.longitude !== undefined ? [a.longitude, a.latitude] : null;

/** What the list shows of an answer: its line, layer and confidence, and how far it is. */
function AnswerLine({ a }: { a: GeoAddress }) {
  return (
    <>
      <span className="block truncate">
        {a.placeLabel && a.layer === "place" ? `${a.placeLabel} · ` : ""}
        {a.formattedAddress}
      </span>
      <span className="block text-xs text-slate-500">
        {a.layer} · {a.confidence}
        {a.distance !== undefined ? ` · ${formatDistance(a.distance)}` : ""}
      </span>
    </>
  );
}

const formatDistance = (m: number) => (m < 1000 ? `${Math.round(m)} m` : `${(m / 1000).toFixed(1)} km`);

/**
 * The answers to what is typed: suggestions (autocomplete, DEBOUNCE_MS after the last
 * keystroke) until Enter, then forward geocoding of what was submitted; both near the map's centre.
 */
function useAnswers(map: L.Map | null, text: string, submitted: string | null) {
  const [typed, setTyped] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setTyped(text.trim() ? text : ""), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);
  const near = () => {
    const c = map?.getCenter() ?? { lat: 0, lng: 0 };
    return `${c.lat.toFixed(5)},${c.lng.toFixed(5)}`;
  };
  const suggestions = useQuery({
    queryKey: ["autocomplete", typed],
    enabled: !!typed && submitted === null,
    queryFn: () =>
      call<{ addresses: GeoAddress[] }>(
        "GET",
        `/v1/search/autocomplete?${new URLSearchParams({ query: typed, near: near(), limit: "8" })}`,
      ).then((r) => r.addresses),
    staleTime: 30_000,
  });
  const found = useQuery({
    queryKey: ["forward", submitted],
    enabled: submitted !== null,
    queryFn: () =>
      call<{ addresses: GeoAddress[] }>(
        "GET",
        `/v1/geocode/forward?${new URLSearchParams({ query: submitted!, near: near(), limit: "10" })}`,
      ).then((r) => r.addresses),
  });
  return { suggestions, found };
}

/**
 * The map's search box: suggestions while typing (GET /v1/search/autocomplete near the map's
 * centre), Enter for forward geocoding (GET /v1/geocode/forward) with every answer listed by
 * layer and confidence. Choosing an answer moves the map to it; `onResults` gives the answers
 * to draw and the one chosen.
 */
export function AddressSearch({
  map,
  onResults,
}: {
  map: L.Map | null;
  onResults: (results: GeoAddress[], chosen: GeoAddress | null) => void;
}) {
  const listId = useId();
  const [text, setText] = useState("");
  const [submitted, setSubmitted] = useState<string | null>(null);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const { suggestions, found } = useAnswers(map, text, submitted);
  const list = (submitted !== null ? found.data : suggestions.data) ?? [];

  function choose(a: GeoAddress, all: GeoAddress[]) {
    const point = addressPoint(a);
    if (point) map?.flyTo(leafletPoint(point), ZOOM[a.layer] ?? 15, { duration: 0.6 });
    onResults(all, a);
    setOpen(false);
  }

  // Forward results: all drawn, the map on the best one, the list kept open to compare them.
  useEffect(() => {
    if (submitted === null || !found.data) return;
    const [best] = found.data;
    const point = best && addressPoint(best);
    if (point) map?.flyTo(leafletPoint(point), ZOOM[best.layer] ?? 15, { duration: 0.6 });
    onResults(found.data, best ?? null);
    // onResults and map are the parent's; only new answers matter here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [found.data, submitted]);

  return (
    <div className="w-80 max-w-[calc(100vw-5rem)] rounded bg-white shadow-md">
      <form
        role="search"
        aria-label="Search addresses"
        onSubmit={(e) => {
          e.preventDefault();
          if (active >= 0 && list[active]) choose(list[active], list);
          else if (text.trim()) {
            setSubmitted(text.trim());
            setOpen(true);
          }
        }}
      >
        <input
          type="search"
          role="combobox"
          aria-label="Address or place"
          aria-expanded={open && list.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
          placeholder="Search an address or place"
          value={text}
          maxLength={256}
          onChange={(e) => {
            setText(e.target.value);
            setSubmitted(null);
            setActive(-1);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown") {
              e.preventDefault();
              setOpen(true);
              setActive((i) => Math.min(i + 1, list.length - 1));
            } else if (e.key === "ArrowUp") {
              e.preventDefault();
              setActive((i) => Math.max(i - 1, -1));
            } else if (e.key === "Escape") {
              setOpen(false);
              setActive(-1);
            }
          }}
          className="w-full rounded px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-blue-500"
        />
      </form>
      {open && (
        <AnswerList
          listId={listId}
          list={list}
          active={active}
          submitted={submitted}
          query={submitted !== null ? found : suggestions}
          onChoose={(a) => choose(a, list)}
        />
      )}
    </div>
  );
}

/** The answers listed: suggestions, or the results for what was submitted. */
function AnswerList({
  listId,
  list,
  active,
  submitted,
  query,
  onChoose,
}: {
  listId: string;
  list: GeoAddress[];
  active: number;
  submitted: string | null;
  query: { isLoading: boolean; error: unknown; data?: GeoAddress[] };
  onChoose: (a: GeoAddress) => void;
}) {
  return (
    <div className="border-t border-slate-100">
      {submitted !== null && (
        <p className="px-3 pt-2 text-xs font-medium text-slate-600">
          {query.isLoading ? "Searching…" : `Results for “${submitted}”`}
        </p>
      )}
      <ErrorNote error={query.error} />
      <ul id={listId} role="listbox" aria-label={submitted !== null ? "Search results" : "Suggestions"}>
        {list.map((a, i) => (
          <li
            key={`${a.layer}-${a.formattedAddress}-${i}`}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => {
              e.preventDefault(); // keep the input's focus
              onChoose(a);
            }}
            className={`cursor-pointer px-3 py-1.5 text-sm ${i === active ? "bg-blue-50" : "hover:bg-slate-50"}`}
          >
            <AnswerLine a={a} />
          </li>
        ))}
      </ul>
      {submitted !== null && query.data?.length === 0 && (
        <p className="px-3 py-2 text-sm text-slate-500">Nothing found.</p>
      )}
    </div>
  );
}
