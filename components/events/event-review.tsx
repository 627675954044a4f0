"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useState } from "react";
import { ErrorNote } from "@/components/ui/error-note";
import { Button } from "@/components/ui/button";
import { replaceQuery } from "@/lib/address";
import { call } from "@/lib/api-client";
import type { LocationEvent, Place } from "@/lib/types";
import type { TileConfig } from "../map/basemap";
import { EventDetails } from "./event-details";
import { type EventFilter, EventFilters, NO_FILTER } from "./event-filters";
import { EventQueueList } from "./event-queue-list";
import { useReviewKeys } from "./use-review-keys";
import { useVerdicts } from "./use-verdicts";
import type { Verdict } from "./words";
import { ConversionsChart } from "./conversions-chart";

/** How many events the queue reads at once (the newest matching the server-side filters). */
const PAGE = 1000;

type Page = { events: LocationEvent[]; meta: { hasMore?: boolean } };

/** The filters and the open event as the page's address says them (shareable links). */
function fromUrl(params: URLSearchParams): EventFilter & { event?: string } {
  const show = params.get("show") === "all" ? "all" : "unverified";
  return {
    show,
    type: params.get("type") ?? "",
    confidence: params.get("confidence") ?? "",
    since: params.get("since") ?? "",
    about: params.get("q") ?? "",
    event: params.get("event") ?? undefined,
  };
}

/**
 * The queue's events: the newest PAGE the server-side filters match (refetched every 10 s),
 * with the verdicts sent meanwhile applied and the text filter and "unverified" kept here.
 */
function useEventQueue(filter: EventFilter, apply: ReturnType<typeof useVerdicts>["apply"]) {
  // "Since" is hours back from when it was chosen, on the minute (so refetches ask the same).
  const [sinceAt, setSinceAt] = useState(() => Date.now());
  const createdAfter = filter.since
    ? new Date(Math.floor((sinceAt - Number(filter.since) * 3_600_000) / 60_000) * 60_000).toISOString()
    : "";
  const serverFilter = new URLSearchParams({
    limit: String(PAGE),
    // Conversions are not verified: the queue holds the events decided from locations.
    kind: "location",
    ...(filter.show === "unverified" && { verification: "unverified" }),
    ...(filter.type && { types: filter.type }),
    ...(filter.confidence && { confidence: filter.confidence }),
    ...(createdAfter && { createdAfter }),
  }).toString();
  // The export: every event the server-side filters match (not only the page read here).
  const exportFilter = new URLSearchParams(serverFilter);
  exportFilter.delete("limit");
  const events = useQuery({
    queryKey: ["events", serverFilter],
    queryFn: () => call<Page>("GET", `/v1/events?${serverFilter}`),
    refetchInterval: 10_000,
  });

  const queue = useMemo(() => {
    const needle = filter.about.trim().toLowerCase();
    return apply(events.data?.events ?? [], events.dataUpdatedAt).filter(
      (e) =>
        (filter.show === "all" || e.verification === 0) &&
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
  }, [events.data, events.dataUpdatedAt, apply, filter.about, filter.show]);

  return { events, queue, exportFilter, restartSince: () => setSinceAt(Date.now()) };
}

/**
 * The open event: the one with the tracked id; a linked event outside the queue is read by id;
 * if the tracked event left the queue (verified elsewhere), the one now at its place.
 */
function useOpenEvent(
  queue: LocationEvent[],
  currentId: string | undefined,
  linkedId: string | undefined,
  queueRead: boolean,
  apply: ReturnType<typeof useVerdicts>["apply"],
): LocationEvent | undefined {
  const at = queue.findIndex((e) => e._id === currentId);
  // Where the open event last was (state set during render: React's "previous value" pattern).
  const [lastAt, setLastAt] = useState(0);
  if (at >= 0 && at !== lastAt) setLastAt(at);
  const linked = useQuery({
    queryKey: ["event", linkedId],
    queryFn: () => call<{ event: LocationEvent }>("GET", `/v1/events/${linkedId}`).then((r) => r.event),
    enabled: Boolean(linkedId) && currentId === linkedId && at < 0 && queueRead,
    retry: false,
  });
  return at >= 0
    ? queue[at]
    : currentId === linkedId && linked.data
      ? apply([linked.data], linked.dataUpdatedAt)[0]
      : queue[Math.min(lastAt, queue.length - 1)];
}

/** The events selected (X), toggled one by one. */
function usePicked() {
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const pick = useCallback((id: string) => {
    setPicked((p) => {
      const next = new Set(p);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  return { picked, pick, setPicked };
}

/** Moving in the queue: one step (J/K), or past the events a verdict takes away. */
function useQueueMoves(queue: LocationEvent[], currentId: string | undefined, open: (id: string) => void) {
  /** After a verdict on `ids`, the event to open: the next one the verdict leaves in place. */
  const successor = useCallback(
    (ids: string[]) => {
      const i = queue.findIndex((e) => e._id === currentId);
      const gone = new Set(ids);
      const after = queue.slice(i + 1).find((e) => !gone.has(e._id));
      const before = queue.slice(0, Math.max(i, 0)).findLast((e) => !gone.has(e._id));
      return (after ?? before)?._id;
    },
    [queue, currentId],
  );

  const move = useCallback(
    (step: 1 | -1) => {
      const i = queue.findIndex((e) => e._id === currentId);
      const next = queue[Math.min(Math.max(i + step, 0), queue.length - 1)];
      if (next) open(next._id);
    },
    [queue, currentId, open],
  );

  return { successor, move };
}

/**
 * The review queue: unverified events, newest first. The open event is tracked by its id, so
 * events arriving above it never change what a key press acts on. Keys: A accept, R reject,
 * U unverify (on the selection when there is one, else on the open event), J / ↓ next,
 * K / ↑ previous, X select, Esc leaves a text field.
 */
export function EventReview({ tiles, canVerify }: { tiles: TileConfig; canVerify: boolean }) {
  const params = useSearchParams();
  const [initial] = useState(() => fromUrl(new URLSearchParams(params.toString())));
  const [filter, setFilter] = useState<EventFilter>({ ...NO_FILTER, ...initial });
  const [currentId, setCurrentId] = useState<string | undefined>(initial.event);
  const { picked, pick, setPicked } = usePicked();
  const { decide: send, apply, pending, message, setMessage } = useVerdicts();

  const { events, queue, exportFilter, restartSince } = useEventQueue(filter, apply);

  const current = useOpenEvent(queue, currentId, initial.event, events.isSuccess, apply);

  useEffect(() => {
    replaceQuery({
      show: filter.show !== "unverified" && filter.show,
      type: filter.type,
      confidence: filter.confidence,
      since: filter.since,
      q: filter.about,
      event: current?._id,
    });
  }, [filter, current?._id]);

  const { successor, move } = useQueueMoves(queue, current?._id, setCurrentId);

  const decide = useCallback(
    (verdict: Verdict, place?: Place, scope: "auto" | "open" = "auto") => {
      if (!canVerify) return setMessage("Your role can look at events but not verify them.");
      const selection = scope === "auto" && picked.size > 0;
      const ids = selection ? [...picked] : current ? [current._id] : [];
      if (ids.length === 0) return setMessage("Nothing to verify: no event is open.");
      send(ids, verdict, place);
      const onlyOpen = ids.length === 1 && ids[0] === current?._id;
      const leaves = filter.show === "unverified" && verdict !== 0;
      if (onlyOpen || (leaves && current && ids.includes(current._id))) setCurrentId(successor(ids));
      if (selection) setPicked(new Set());
    },
    [canVerify, picked, current, send, filter.show, successor, setMessage, setPicked],
  );

  useReviewKeys({ decide, move, pickOpen: () => current && pick(current._id) });

  const changeFilter = (f: EventFilter) => {
    if (f.since !== filter.since) restartSince();
    setFilter(f);
    setPicked(new Set());
  };

  return (
    <div className="flex h-full flex-col lg:flex-row">
      <section
        aria-label="Event queue"
        className="flex max-h-[40%] w-full shrink-0 flex-col border-b border-slate-200 bg-white lg:max-h-none lg:w-[28rem] lg:border-r lg:border-b-0"
      >
        <QueueHeader
          exportFilter={exportFilter}
          filter={filter}
          onFilter={changeFilter}
          selected={canVerify ? picked.size : 0}
          onDecide={decide}
          onClear={() => setPicked(new Set())}
        />
        <QueueBody
          events={events}
          queue={queue}
          filter={filter}
          currentId={current?._id}
          picked={picked}
          onOpen={setCurrentId}
          onPick={pick}
        />
      </section>
      <div className="min-w-0 flex-1 space-y-4 overflow-y-auto p-4">
        <section aria-label="Event" className="space-y-4">
          {current ? (
            <EventDetails
              event={current}
              tiles={tiles}
              canVerify={canVerify}
              onDecide={(verdict, place) => decide(verdict, place, "open")}
            />
          ) : (
            !events.isLoading && <p className="text-sm text-slate-500">Pick an event on the left.</p>
          )}
          {(message || pending > 0) && (
            <p role="status" className="text-sm text-slate-700">
              {pending > 0 ? `Saving ${pending === 1 ? "a verdict" : `${pending} verdicts`}… ` : ""}
              {message}
            </p>
          )}
        </section>
        <ConversionsChart />
      </div>
    </div>
  );
}

/** The queue's title, export link, filters, what is selected and the keys. */
function QueueHeader({
  exportFilter,
  filter,
  onFilter,
  selected,
  onDecide,
  onClear,
}: {
  exportFilter: URLSearchParams;
  filter: EventFilter;
  onFilter: (f: EventFilter) => void;
  /** how many events are selected (0 when the role may not verify) */
  selected: number;
  onDecide: (verdict: Verdict) => void;
  onClear: () => void;
}) {
  return (
    <div className="space-y-2 border-b border-slate-200 p-3">
      <div className="flex items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">Event review</h1>
        <a
          href={`/api/events/export?${exportFilter}`}
          download
          className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50"
        >
          Export CSV
        </a>
      </div>
      <EventFilters value={filter} onChange={onFilter} />
      {selected > 0 && (
        <div className="flex items-center gap-2 text-sm">
          {selected} selected
          <Button tone="accept" size="sm" onClick={() => onDecide(1)}>
            Accept selected
          </Button>
          <Button tone="reject" size="sm" onClick={() => onDecide(-1)}>
            Reject selected
          </Button>
          <Button size="sm" onClick={onClear}>
            Clear
          </Button>
        </div>
      )}
      <p className="text-xs text-slate-500">
        Keys: A accept · R reject · U unverify{selected > 0 && " (the selected events)"} · J/↓ next · K/↑
        previous · X select · Esc leaves a field
      </p>
    </div>
  );
}

/** The queue's events, or why there are none (loading, an error, nothing matching). */
function QueueBody({
  events,
  queue,
  filter,
  currentId,
  picked,
  onOpen,
  onPick,
}: {
  events: ReturnType<typeof useEventQueue>["events"];
  queue: LocationEvent[];
  filter: EventFilter;
  currentId?: string;
  picked: ReadonlySet<string>;
  onOpen: (id: string) => void;
  onPick: (id: string) => void;
}) {
  const narrowed = filter.type || filter.confidence || filter.since || filter.about;
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      {events.data?.meta.hasMore && (
        <p className="border-b border-slate-100 px-3 py-2 text-xs text-amber-700">
          The newest {PAGE.toLocaleString("en")} matching events are read
          {filter.about ? " and searched" : ""}; older ones are not shown. Narrow the filters to reach them.
        </p>
      )}
      {events.isLoading ? (
        <p className="p-3 text-sm text-slate-500">Loading events…</p>
      ) : events.error ? (
        <ErrorNote error={events.error} className="p-3" />
      ) : queue.length === 0 ? (
        <p className="p-3 text-sm text-slate-500">
          {events.data?.meta.hasMore
            ? "None of these match."
            : filter.show === "all"
              ? "No events match."
              : narrowed
                ? "Nothing to review: no unverified event matches."
                : "Nothing to review: every event is verified."}
        </p>
      ) : (
        <EventQueueList
          events={queue}
          currentId={currentId}
          picked={picked}
          onOpen={onOpen}
          onPick={onPick}
        />
      )}
    </div>
  );
}
