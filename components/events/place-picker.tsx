"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { LocationEvent, Place } from "@/lib/types";

/**
 * For place events: which of the detected place and its alternatives the user was really at.
 * Accepting with a place sends it as verifiedPlaceId, which steers later detections there.
 */
export function PlacePicker({ event, onVerify }: { event: LocationEvent; onVerify: (place: Place) => void }) {
  const options = [event.place!, ...(event.alternatePlaces ?? [])];
  if (event.verifiedPlace && !options.some((p) => p._id === event.verifiedPlace!._id)) {
    options.push(event.verifiedPlace);
  }
  const [chosen, setChosen] = useState(event.verifiedPlace?._id ?? event.place!._id);
  return (
    <fieldset className="rounded border border-slate-200 bg-white p-3 text-sm">
      <legend className="px-1 font-medium">Where was the user?</legend>
      <div className="space-y-1">
        {options.map((p, i) => (
          <label key={p._id} className="flex items-center gap-2">
            <input
              type="radio"
              name="verified-place"
              value={p._id}
              checked={chosen === p._id}
              onChange={() => setChosen(p._id)}
            />
            <span>
              {p.name} <span className="text-slate-500">({p.categories[0]})</span>
              {i === 0 && <span className="text-slate-500"> · detected</span>}
            </span>
          </label>
        ))}
      </div>
      <Button tone="accept" className="mt-2" onClick={() => onVerify(options.find((p) => p._id === chosen)!)}>
        Accept at this place
      </Button>
    </fieldset>
  );
}
