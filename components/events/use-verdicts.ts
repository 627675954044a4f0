"use client";

import { useIsMutating, useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { call, errorText } from "@/lib/api-client";
import type { LocationEvent, Place } from "@/lib/types";
import { VERDICT, type Verdict } from "./words";

interface Local {
  verdict: Verdict;
  place?: Place;
  /** when the server confirmed it (ms); the overlay stays until data newer than that arrives */
  savedAt?: number;
}

const KEY = ["event-verification"];

/**
 * Verdicts as a reviewer gives them: each one is shown at once (laid over the fetched events)
 * and sent in order, one after another, so quick key presses are queued, not lost. A verdict the
 * server refuses is taken back and said.
 */
export function useVerdicts() {
  const queryClient = useQueryClient();
  const [local, setLocal] = useState<ReadonlyMap<string, Local>>(new Map());
  const [message, setMessage] = useState<string | null>(null);
  const pending = useIsMutating({ mutationKey: KEY });

  const edit = (fn: (next: Map<string, Local>) => void) =>
    setLocal((old) => {
      const next = new Map(old);
      fn(next);
      return next;
    });

  const send = useMutation({
    mutationKey: KEY,
    // One scope: TanStack Query runs these mutations one at a time, in the order given.
    scope: { id: "event-verification" },
    mutationFn: async ({ ids, verdict, place }: { ids: string[]; verdict: Verdict; place?: Place }) => {
      for (const id of ids) {
        await call("PUT", `/v1/events/${id}/verification`, {
          verification: verdict,
          ...(place && { verifiedPlaceId: place._id }),
        });
      }
    },
    onSuccess: (_, { ids, verdict, place }) => {
      const savedAt = Date.now();
      edit((next) => ids.forEach((id) => next.set(id, { verdict, place, savedAt })));
      setMessage(
        `${ids.length === 1 ? "Event" : `${ids.length} events`} ${VERDICT[verdict]}` +
          (place ? `: the user was at ${place.name}.` : "."),
      );
      void queryClient.invalidateQueries({ queryKey: ["events"] });
    },
    onError: (e, { ids }) => {
      edit((next) => ids.forEach((id) => next.delete(id)));
      setMessage(`Not saved: ${errorText(e)}`);
      void queryClient.invalidateQueries({ queryKey: ["events"] });
    },
  });

  const { mutate } = send;
  const decide = useCallback(
    (ids: string[], verdict: Verdict, place?: Place) => {
      if (ids.length === 0) return;
      edit((next) => ids.forEach((id) => next.set(id, { verdict, place })));
      mutate({ ids, verdict, place });
    },
    [mutate],
  );

  /** The events as the reviewer should see them: fetched, with the verdicts given here laid over. */
  const apply = useCallback(
    (events: LocationEvent[], fetchedAt: number) =>
      events.map((e) => {
        const mine = local.get(e._id);
        if (!mine || (mine.savedAt !== undefined && fetchedAt > mine.savedAt)) return e;
        return { ...e, verification: mine.verdict, ...(mine.place && { verifiedPlace: mine.place }) };
      }),
    [local],
  );

  return { decide, apply, pending, message, setMessage };
}
