/** The parts of osrm-text-instructions (CommonJS, untyped) that server/routing/instructions.ts uses. */
declare module "osrm-text-instructions" {
  export interface OsrmStep {
    maneuver: {
      type: string;
      modifier?: string;
      exit?: number;
      bearing_before: number;
      bearing_after: number;
      location: [number, number];
    };
    name: string;
    ref?: string;
    mode: string;
    driving_side?: "left" | "right";
  }
  export interface Compiler {
    compile(
      language: string,
      step: OsrmStep,
      options?: { legCount?: number; legIndex?: number; waypointName?: string },
    ): string;
  }
  export default function osrmTextInstructions(version: "v5"): Compiler;
}

declare module "osrm-text-instructions/languages.js" {
  export const supportedCodes: string[];
}
