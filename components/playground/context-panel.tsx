"use client";

import type { UseMutationResult } from "@tanstack/react-query";
import { ErrorNote } from "@/components/ui/error-note";
import type { Geofence, Place, RegionObject } from "@/lib/types";
import { type LngLat, latLngText, parseLatLngText } from "@/lib/position";

export interface ContextAnswer {
  context: {
    geofences: Geofence[];
    place?: Place;
    country?: RegionObject;
    state?: RegionObject;
    postalCode?: RegionObject;
    dma?: RegionObject;
  };
}

export interface ReverseAnswer {
  addresses: {
    formattedAddress?: string;
    layer: string;
    latitude?: number;
    longitude?: number;
    distance?: number;
  }[];
}

type Address = ReverseAnswer["addresses"][number];

const region = (r?: RegionObject) => (r ? `${r.name}${r.code ? ` (${r.code})` : ""}` : "—");

/** The picked point's context and address; coordinates can be typed too. */
export function ContextPanel({
  point,
  onPick,
  context,
  reverse,
}: {
  point: LngLat | null;
  onPick: (point: LngLat) => void;
  context: UseMutationResult<ContextAnswer["context"], Error, LngLat>;
  reverse: UseMutationResult<Address | null, Error, LngLat>;
}) {
  return (
    <section aria-labelledby="context-title" className="space-y-2">
      <h2 id="context-title" className="text-lg font-semibold">
        Context
      </h2>
      <p className="text-sm text-slate-600">Click the map, or type coordinates.</p>
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const text = String(new FormData(e.currentTarget).get("coordinates") ?? "");
          const typed = parseLatLngText(text);
          if (typed) onPick(typed);
        }}
      >
        <input
          name="coordinates"
          aria-label="Coordinates"
          placeholder="latitude, longitude"
          className="min-w-0 flex-1 rounded border border-slate-300 px-2 py-1.5 text-sm"
        />
        <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">
          Get context
        </button>
      </form>
      {context.isPending && <p className="text-sm text-slate-500">Asking…</p>}
      <ErrorNote error={context.error ?? reverse.error} />
      {context.data && point && (
        <dl aria-label="Context result" className="grid grid-cols-[6rem_1fr] gap-y-1 text-sm">
          <dt className="text-slate-500">Point</dt>
          <dd>{latLngText(point, 5).replace(",", ", ")}</dd>
          <dt className="text-slate-500">Address</dt>
          <dd>
            {reverse.data?.formattedAddress ?? "—"}
            {reverse.data && (
              <span className="text-slate-500">
                {" "}
                · {reverse.data.layer}
                {reverse.data.distance ? ` · ${Math.round(reverse.data.distance)} m` : ""}
              </span>
            )}
          </dd>
          <dt className="text-slate-500">Place</dt>
          <dd>{context.data.place?.name ?? "—"}</dd>
          <dt className="text-slate-500">Country</dt>
          <dd>{region(context.data.country)}</dd>
          <dt className="text-slate-500">State</dt>
          <dd>{region(context.data.state)}</dd>
          <dt className="text-slate-500">Postal code</dt>
          <dd>{region(context.data.postalCode)}</dd>
          <dt className="text-slate-500">DMA</dt>
          <dd>{region(context.data.dma)}</dd>
          <dt className="text-slate-500">Geofences</dt>
          <dd>{context.data.geofences.map((g) => g.description).join(", ") || "none"}</dd>
        </dl>
      )}
    </section>
  );
}
