"use client";

import { useMutation } from "@tanstack/react-query";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";
import type { Place } from "@/lib/types";
import { type LngLat, latLngText } from "@/lib/position";

export interface PlaceQuery {
  near: LngLat;
  radius: string;
  categories: string;
  chains: string;
  groups: string;
  limit: string;
}

/** Place search near the picked point (GET /v1/search/places); the answer goes to the map too. */
export function PlaceSearchPanel({
  point,
  onResults,
}: {
  point: LngLat | null;
  onResults: (found: { query: PlaceQuery; places: Place[] } | null) => void;
}) {
  const places = useMutation({
    mutationFn: (q: PlaceQuery) => {
      const params = new URLSearchParams({ near: latLngText(q.near) });
      for (const k of ["radius", "categories", "chains", "groups", "limit"] as const) {
        if (q[k].trim()) params.set(k, q[k].trim());
      }
      return call<{ places: Place[] }>("GET", `/v1/search/places?${params}`).then((r) => r.places);
    },
    onSuccess: (found, query) => onResults({ query, places: found }),
    onError: () => onResults(null),
  });
  return (
    <section aria-labelledby="places-title" className="space-y-2">
      <h2 id="places-title" className="text-lg font-semibold">
        Place search
      </h2>
      <p className="text-sm text-slate-600">
        Near the point picked on the map; searches the imported places (npm run import).
      </p>
      <form
        className="grid grid-cols-2 gap-2 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          if (!point) return;
          const f = new FormData(e.currentTarget);
          const get = (k: string) => String(f.get(k) ?? "");
          const q: PlaceQuery = {
            near: point,
            radius: get("radius"),
            categories: get("categories"),
            chains: get("chains"),
            groups: get("groups"),
            limit: get("limit"),
          };
          places.mutate(q);
        }}
      >
        {(
          [
            ["radius", "Radius (m)", "1000"],
            ["limit", "Limit", "100"],
            ["categories", "Categories", "coffee-shop,bakery"],
            ["chains", "Chains", "starbucks"],
            ["groups", "Groups", "airports"],
          ] as const
        ).map(([name, label, placeholder]) => (
          <label key={name} className="space-y-0.5">
            <span className="block text-slate-600">{label}</span>
            <input
              name={name}
              placeholder={placeholder}
              className="w-full rounded border border-slate-300 px-2 py-1"
            />
          </label>
        ))}
        <button
          type="submit"
          disabled={!point}
          className="self-end rounded bg-slate-900 px-3 py-1.5 text-white disabled:opacity-50"
        >
          Search places
        </button>
      </form>
      {!point && <p className="text-xs text-slate-500">Pick a point on the map first.</p>}
      <ErrorNote error={places.error} />
      {places.data && (
        <ol aria-label="Places found" className="list-decimal space-y-0.5 pl-5 text-sm">
          {places.data.length === 0 && <li className="list-none text-slate-500">No places there.</li>}
          {places.data.map((p) => (
            <li key={p._id}>
              {p.name}{" "}
              <span className="text-slate-500">
                · {p.categories[0]} · {Math.round(p.distance ?? 0)} m
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
