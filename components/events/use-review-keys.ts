"use client";

import { useEffect, useLayoutEffect, useRef } from "react";
import type { Place } from "@/lib/types";
import type { Verdict } from "./words";

/** Inputs where letters are text, not shortcuts (checkboxes and radios are not among them). */
const TYPING = new Set(["text", "search", "email", "number", "password", "url", "tel", "date", "time"]);

function typingIn(target: HTMLElement): boolean {
  if (target.isContentEditable || target.tagName === "TEXTAREA" || target.tagName === "SELECT") return true;
  return target.tagName === "INPUT" && TYPING.has((target as HTMLInputElement).type);
}

/**
 * The review queue's keyboard: A / R / U verdicts, J / K (and arrows) to move, X to select.
 * Works wherever focus is except while typing in a field; Esc leaves the field. The handlers
 * are read at the moment of the key press, so a key acts on what the screen shows then.
 */
export function useReviewKeys(actions: {
  decide: (verdict: Verdict, place?: Place) => void;
  move: (step: 1 | -1) => void;
  pickOpen: () => void;
}) {
  const latest = useRef(actions);
  // Layout effect: the handlers are swapped before the browser paints the screen they belong to.
  useLayoutEffect(() => {
    latest.current = actions;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      const target = e.target as HTMLElement;
      if (typingIn(target)) {
        if (e.key === "Escape") {
          // Leave the field as it is (a search field would clear itself) and return to the keys.
          e.preventDefault();
          target.blur();
        }
        return;
      }
      const key = e.key.toLowerCase();
      // Arrows keep their own meaning in a radio group (the place picker).
      if (key.startsWith("arrow") && (target as HTMLInputElement).type === "radio") return;
      const { decide, move, pickOpen } = latest.current;
      if (key === "a") decide(1);
      else if (key === "r") decide(-1);
      else if (key === "u") decide(0);
      else if (key === "j" || key === "arrowdown") move(1);
      else if (key === "k" || key === "arrowup") move(-1);
      else if (key === "x") pickOpen();
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
