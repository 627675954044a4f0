import osrmTextInstructions from "osrm-text-instructions";
import { supportedCodes } from "osrm-text-instructions/languages.js";
import type { Step } from "./directions";

/**
 * The text of each step (docs/routing.md#directions), by Project OSRM's osrm-text-instructions
 * in any of its languages ("Turn left onto Avinguda Meritxell", "Biegen Sie links ab auf …",
 * "Tournez à gauche sur …"): the steps are OSRM's maneuvers, so its phrasing fits them as they are.
 */

const compiler = osrmTextInstructions("v5");

/** The languages instructions are written in (the library's codes: "en", "de", "fr", "pt-BR", …). */
export const INSTRUCTION_LANGUAGES: readonly string[] = supportedCodes;

/** The step's instruction in `language`; `leg` of `legs` says which destination an arrival is. */
export function instructionOf(step: Step, language: string, leg: number, legs: number): string {
  return compiler.compile(
    language,
    {
      maneuver: {
        type: step.type,
        ...(step.modifier && { modifier: step.modifier }),
        ...(step.exit !== undefined && { exit: step.exit }),
        bearing_before: step.bearingBefore,
        bearing_after: step.bearingAfter,
        location: step.location,
      },
      name: step.name,
      ...(step.ref && { ref: step.ref }),
      mode:
        step.mode === "ferry"
          ? "ferry"
          : step.mode === "foot"
            ? "walking"
            : step.mode === "bike"
              ? "cycling"
              : "driving",
      driving_side: "right",
    },
    { legCount: legs, legIndex: leg },
  );
}
