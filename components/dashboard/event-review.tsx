"use client";

import { ErrorNote } from "@/components/dashboard/error-note";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useCallback, useEffect, useMemo, useState } from "react";
import { call, errorText } from "@/lib/api-client";
import { CONFIDENCE, EVENT_TYPES, type LocationEvent, type Place } from "@/lib/types";
import type { TileConfig } from "../map/basemap";

const EventMap = dynamic(() => import("../map/event-map"), {
  ssr: false,
  loading: () => <div className="h-64 rounded bg-slate-100" />,
});

type Verdict = 1 | -1 | 0;
const VERDICT = { 1: "accepted", [-1]: "rejected", 0: "unverified" } as const;

/**
 * The review queue: unverified events, newest first. Keys: A accept, R reject, U unverify,
 * J / ↓ next, K / ↑ previous, X select for a bulk verdict.
 */
/** How many events the queue reads at once (the newest matching the server-side filters). */
const PAGE = 1000;

export function EventReview({ tiles, canVerify }: { tiles: TileConfig; canVerify: boolean }) {
  const queryClient = useQueryClient();
  const [type, setType] = useState("");
  const [about, setAbout] = useState("");
  const [confidence, setConfidence] = useState("");
  const [show, setShow] = useState<"unverified" | "all">("unverified");
  const [index, setIndex] = useState(0);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [message, setMessage] = useState<string | null>(null);

  // Verification and type are filtered by the server (GET /v1/events), so an older unverified
  // event is not hidden behind newer verified ones; confidence and text within the page read.
  const serverFilter = new URLSearchParams({
    limit: String(PAGE),
    ...(show === "unverified" && { verification: "unverified" }),
    ...(type && { types: type }),
  }).toString();
  const events = useQuery({
    queryKey: ["events", serverFilter],
    queryFn: () =>
      call<{ events: LocationEvent[]; meta: { hasMore?: boolean } }>("GET", `/v1/events?${serverFilter}`),
    refetchInterval: 10_000,
  });
  const queue = useMemo(() => {
    const needle = about.trim().toLowerCase();
    return (events.data?.events ?? []).filter(
      (e) =>
        (show === "all" || e.verification === 0) &&
        (!type || e.type === type) &&
        (!confidence || String(e.confidence) === confidence) &&
        (!needle ||
          [
            e.geofence?.description,
            e.geofence?.tag,
            e.geofence?.externalId,
            e.place?.name,
            ...(e.place?.categories ?? []),
            e.region?.name,
          ].some((v) => (v ?? "").toLowerCase().includes(needle))),
    );
  }, [events.data, type, about, confidence, show]);
  const types = EVENT_TYPES;
  const current = queue[Math.min(index, Math.max(queue.length - 1, 0))];

  const verify = useMutation({
    mutationFn: async ({ ids, verdict, place }: { ids: string[]; verdict: Verdict; place?: Place }) => {
      for (const id of ids) {
        await call("PUT", `/v1/events/${id}/verification`, {
          verification: verdict,
          ...(place && { verifiedPlaceId: place._id }),
        });
      }
      return { ids, verdict, place };
    },
    onSuccess: ({ ids, verdict, place }) => {
      setMessage(
        `${ids.length === 1 ? "Event" : `${ids.length} events`} ${VERDICT[verdict]}` +
          (place ? `: the user was at ${place.name}.` : "."),
      );
      setPicked(new Set());
      // Keep the view in step at once; the refetch confirms it.
      queryClient.setQueryData<{ events: LocationEvent[]; meta: { hasMore?: boolean } }>(
        ["events", serverFilter],
        (old) =>
          old && {
            ...old,
            events: old.events.map((e) =>
              ids.includes(e._id)
                ? { ...e, verification: verdict, ...(place && { verifiedPlace: place }) }
                : e,
            ),
          },
      );
      void queryClient.invalidateQueries({ queryKey: ["events"] });
    },
    onError: (e) => setMessage(errorText(e)),
  });

  const decide = useCallback(
    (verdict: Verdict, place?: Place) => {
      if (!current || !canVerify || verify.isPending) return;
      verify.mutate({ ids: [current._id], verdict, place });
      // In the unverified queue the event leaves the list, so the same index is the next one.
      if (show === "all") setIndex((i) => Math.min(i + 1, queue.length - 1));
    },
    [current, canVerify, verify, show, queue.length],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName) || e.metaKey || e.ctrlKey || e.altKey)
        return;
      const key = e.key.toLowerCase();
      if (key === "a") decide(1);
      else if (key === "r") decide(-1);
      else if (key === "u") decide(0);
      else if (key === "j" || key === "arrowdown") setIndex((i) => Math.min(i + 1, queue.length - 1));
      else if (key === "k" || key === "arrowup") setIndex((i) => Math.max(i - 1, 0));
      else if (key === "x" && current) {
        setPicked((p) => {
          const next = new Set(p);
          if (next.has(current._id)) next.delete(current._id);
          else next.add(current._id);
          return next;
        });
      } else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [decide, queue.length, current]);

  const select = "rounded border border-slate-300 px-2 py-1.5 text-sm";
  return (
    <div className="flex h-full flex-col lg:flex-row">
      <section
        aria-label="Event queue"
        className="flex max-h-[40%] w-full shrink-0 flex-col border-b border-slate-200 bg-white lg:max-h-none lg:w-[28rem] lg:border-r lg:border-b-0"
      >
        <div className="space-y-2 border-b border-slate-200 p-3">
          <h1 className="text-lg font-semibold">Event review</h1>
          <div className="flex flex-wrap gap-2">
            <select
              aria-label="Show"
              value={show}
              onChange={(e) => setShow(e.target.value as "unverified" | "all")}
              className={select}
            >
              <option value="unverified">Unverified</option>
              <option value="all">All events</option>
            </select>
            <select
              aria-label="Type"
              value={type}
              onChange={(e) => setType(e.target.value)}
              className={select}
            >
              <option value="">All types</option>
              {types.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
            <select
              aria-label="Confidence"
              value={confidence}
              onChange={(e) => setConfidence(e.target.value)}
              className={select}
            >
              <option value="">Any confidence</option>
              <option value="3">High</option>
              <option value="2">Medium</option>
              <option value="1">Low</option>
            </select>
            <input
              type="search"
              aria-label="Geofence or place"
              placeholder="Geofence or place"
              value={about}
              onChange={(e) => setAbout(e.target.value)}
              className={`${select} w-40`}
            />
          </div>
          {canVerify && picked.size > 0 && (
            <div className="flex items-center gap-2 text-sm">
              {picked.size} selected
              <button
                type="button"
                onClick={() => verify.mutate({ ids: [...picked], verdict: 1 })}
                className="rounded bg-emerald-700 px-2 py-1 text-white"
              >
                Accept selected
              </button>
              <button
                type="button"
                onClick={() => verify.mutate({ ids: [...picked], verdict: -1 })}
                className="rounded bg-red-700 px-2 py-1 text-white"
              >
                Reject selected
              </button>
            </div>
          )}
          <p className="text-xs text-slate-500">
            Keys: A accept · R reject · U unverify · J/↓ next · K/↑ previous · X select
          </p>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto">
          {events.isLoading ? (
            <p className="p-3 text-sm text-slate-500">Loading events…</p>
          ) : events.error ? (
            <ErrorNote error={events.error} className="p-3" />
          ) : queue.length === 0 ? (
            <p className="p-3 text-sm text-slate-500">
              {events.data?.meta.hasMore
                ? `None of the newest ${PAGE.toLocaleString("en")} matches; narrow the filters to reach older events.`
                : show === "unverified" && !type
                  ? "Nothing to review: every event is verified."
                  : "No events match."}
            </p>
          ) : (
            <ul>
              {events.data?.meta.hasMore && (
                <li className="border-b border-slate-100 px-3 py-2 text-xs text-amber-700">
                  The newest {PAGE.toLocaleString("en")} matching events are shown; older ones are not.
                </li>
              )}
              {queue.map((e, i) => (
                <li
                  key={e._id}
                  className={`flex items-center gap-2 border-b border-slate-100 px-3 py-2 text-sm ${e._id === current?._id ? "bg-blue-50" : ""}`}
                >
                  <input
                    type="checkbox"
                    aria-label={`Select event ${i + 1}`}
                    checked={picked.has(e._id)}
                    onChange={() =>
                      setPicked((p) => {
                        const next = new Set(p);
                        if (next.has(e._id)) next.delete(e._id);
                        else next.add(e._id);
                        return next;
                      })
                    }
                  />
                  <button type="button" onClick={() => setIndex(i)} className="min-w-0 flex-1 text-left">
                    <span className="block truncate font-medium">
                      {label(e.type)} {subject(e)}
                    </span>
                    <span className="block text-xs text-slate-500">
                      {e.user.userId ?? e.user.deviceId} · {CONFIDENCE[e.confidence]} confidence ·{" "}
                      {new Date(e.actualCreatedAt).toLocaleString()}
                      {e.verification !== 0 && ` · ${VERDICT[e.verification]}`}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
      <section aria-label="Event" className="min-w-0 flex-1 space-y-4 overflow-y-auto p-4">
        {current ? (
          <>
            <div className="flex flex-wrap items-center gap-3">
              <h2 className="text-xl font-semibold">
                {label(current.type)} {subject(current)}
              </h2>
              <span className="rounded bg-slate-100 px-2 py-0.5 text-sm">
                {CONFIDENCE[current.confidence]} confidence
              </span>
              <span className="rounded bg-slate-100 px-2 py-0.5 text-sm">
                {VERDICT[current.verification]}
              </span>
            </div>
            <EventMap event={current} tiles={tiles} />
            <dl className="grid grid-cols-[9rem_1fr] gap-y-1 text-sm">
              <dt className="text-slate-500">User</dt>
              <dd>{current.user.userId ?? current.user.deviceId}</dd>
              <dt className="text-slate-500">Accuracy</dt>
              <dd>±{Math.round(current.locationAccuracy)} m</dd>
              <dt className="text-slate-500">When</dt>
              <dd>{new Date(current.actualCreatedAt).toLocaleString()}</dd>
              {Math.abs(Date.parse(current.createdAt) - Date.parse(current.actualCreatedAt)) > 60_000 && (
                <>
                  <dt className="text-slate-500">Received</dt>
                  <dd>{new Date(current.createdAt).toLocaleString()}</dd>
                </>
              )}
              {current.duration !== undefined && (
                <>
                  <dt className="text-slate-500">Duration</dt>
                  <dd>{current.duration.toFixed(1)} min</dd>
                </>
              )}
              {current.geofence && (
                <>
                  <dt className="text-slate-500">Geofence</dt>
                  <dd>{`${current.geofence.tag ?? ""}/${current.geofence.externalId ?? ""}`}</dd>
                </>
              )}
              {current.place && (
                <>
                  <dt className="text-slate-500">Place</dt>
                  <dd>
                    {current.place.name} ({current.place.categories.join(", ")})
                  </dd>
                </>
              )}
              {current.verifiedPlace && (
                <>
                  <dt className="text-slate-500">Verified place</dt>
                  <dd>{current.verifiedPlace.name}</dd>
                </>
              )}
              {current.region && (
                <>
                  <dt className="text-slate-500">Region</dt>
                  <dd>
                    {current.region.name} {current.region.code ? `(${current.region.code})` : ""}
                  </dd>
                </>
              )}
            </dl>
            {current.geofence && <Prediction event={current} />}
            {canVerify && current.type === "user.entered_place" && current.place && (
              <PlacePicker key={current._id} event={current} onVerify={(place) => decide(1, place)} />
            )}
            {canVerify ? (
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  onClick={() => decide(1)}
                  className="rounded bg-emerald-700 px-4 py-2 text-sm text-white"
                >
                  Accept (A)
                </button>
                <button
                  type="button"
                  onClick={() => decide(-1)}
                  className="rounded bg-red-700 px-4 py-2 text-sm text-white"
                >
                  Reject (R)
                </button>
                <button
                  type="button"
                  onClick={() => decide(0)}
                  className="rounded border border-slate-300 px-4 py-2 text-sm"
                >
                  Unverify (U)
                </button>
              </div>
            ) : (
              <p className="text-sm text-slate-500">Your role can look at events but not verify them.</p>
            )}
          </>
        ) : (
          !events.isLoading && <p className="text-sm text-slate-500">Pick an event on the left.</p>
        )}
        {message && (
          <p role="status" className="text-sm text-slate-700">
            {message}
          </p>
        )}
      </section>
    </div>
  );
}

/** What an event is about, in words: its geofence, place or region. */
const subject = (e: LocationEvent) => e.geofence?.description ?? e.place?.name ?? e.region?.name ?? "";

/**
 * For place events: which of the detected place and its alternatives the user was really at.
 * Accepting with a place sends it as verifiedPlaceId, which steers later detections there.
 */
function PlacePicker({ event, onVerify }: { event: LocationEvent; onVerify: (place: Place) => void }) {
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
      <button
        type="button"
        onClick={() => onVerify(options.find((p) => p._id === chosen)!)}
        className="mt-2 rounded bg-emerald-700 px-3 py-1.5 text-white"
      >
        Accept at this place
      </button>
    </fieldset>
  );
}

const label = (type: string) => {
  const words = type.replace(/^user\./, "").split("_");
  return words[0]![0]!.toUpperCase() + words.join(" ").slice(1);
};

interface Outcome {
  probability: number;
  confidence: 1 | 2 | 3;
}

/** The class of events a verdict counts for (docs/confidence.md), in words. */
function where(event: LocationEvent, band: string): string {
  if (event.geofence) return `at this geofence's ${band === "edge" ? "edge" : "core"}`;
  if (event.place) return `at ${event.place.name}`;
  if (event.region) return `for ${event.region.name}`;
  return "like these";
}

/** What the confidence model will give later events like this one, for each verdict. */
function Prediction({ event }: { event: LocationEvent }) {
  const prediction = useQuery({
    queryKey: ["prediction", event._id, event.verification],
    queryFn: () =>
      call<{
        prediction: { band: string; unverified: Outcome; accepted: Outcome; rejected: Outcome } | null;
      }>("GET", `/api/events/${event._id}/prediction`).then((r) => r.prediction),
  });
  const p = prediction.data;
  if (!p) return null;
  const show = (o: Outcome) => `${CONFIDENCE[o.confidence]} (${Math.round(o.probability * 100)}%)`;
  return (
    <div
      aria-label="Predicted confidence"
      role="note"
      className="rounded border border-slate-200 bg-white p-3 text-sm"
    >
      <p className="font-medium">
        Later {label(event.type).toLowerCase()} events {where(event, p.band)}, like this one:
      </p>
      <ul className="mt-1 grid grid-cols-3 gap-2">
        <li>
          <span className="block text-slate-500">if accepted</span>
          {show(p.accepted)}
        </li>
        <li>
          <span className="block text-slate-500">if rejected</span>
          {show(p.rejected)}
        </li>
        <li>
          <span className="block text-slate-500">if left unverified</span>
          {show(p.unverified)}
        </li>
      </ul>
    </div>
  );
}
