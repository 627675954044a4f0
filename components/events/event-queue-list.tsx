"use client";

import { useEffect, useRef } from "react";
import { CONFIDENCE, type LocationEvent } from "@/lib/types";
import { VERDICT, label, subject, when } from "./words";

/**
 * The queue's rows. The current event is marked (aria-current) and kept in view as J/K move
 * it; a checkbox picks an event for a verdict on several at once.
 */
export function EventQueueList({
  events,
  currentId,
  picked,
  onOpen,
  onPick,
}: {
  events: LocationEvent[];
  currentId: string | undefined;
  picked: ReadonlySet<string>;
  onOpen: (id: string) => void;
  onPick: (id: string) => void;
}) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (!currentId) return;
    list.current
      ?.querySelector(`[data-event-id="${CSS.escape(currentId)}"]`)
      ?.scrollIntoView({ block: "nearest" });
  }, [currentId]);

  return (
    <ul ref={list}>
      {events.map((e, i) => {
        const current = e._id === currentId;
        return (
          <li
            key={e._id}
            data-event-id={e._id}
            aria-current={current || undefined}
            className={`flex items-center gap-2 border-b border-slate-100 px-3 py-2 text-sm ${current ? "bg-blue-50" : ""}`}
          >
            <input
              type="checkbox"
              aria-label={`Select event ${i + 1}`}
              checked={picked.has(e._id)}
              onChange={() => onPick(e._id)}
            />
            <button type="button" onClick={() => onOpen(e._id)} className="min-w-0 flex-1 text-left">
              <span className="block truncate font-medium">
                {label(e.type)} {subject(e)}
              </span>
              <span className="block text-xs text-slate-500">
                {e.user.userId ?? e.user.deviceId} · {CONFIDENCE[e.confidence]} confidence ·{" "}
                {when(e.createdAt)}
                {e.verification !== 0 && ` · ${VERDICT[e.verification]}`}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
