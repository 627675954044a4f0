import { EVENT_TYPE_NAMES, type LocationEvent } from "@/lib/types";

export type Verdict = 1 | -1 | 0;
export const VERDICT = { 1: "accepted", [-1]: "rejected", 0: "unverified" } as const;

/** "user.entered_geofence" → "Entered geofence"; a type this dashboard does not know, in words. */
export const label = (type: string) => {
  const known = (EVENT_TYPE_NAMES as Record<string, string>)[type];
  if (known) return known;
  const words = type.replace(/^user\./, "").split("_");
  return words[0]![0]!.toUpperCase() + words.join(" ").slice(1);
};

/** What an event is about, in words: its geofence, place or region. */
export const subject = (e: LocationEvent) => e.geofence?.description ?? e.place?.name ?? e.region?.name ?? "";

/** When the user was there, with the date, in the reader's zone and language. */
export const when = (iso: string) => new Date(iso).toLocaleString();
