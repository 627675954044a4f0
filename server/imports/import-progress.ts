/** What an OSM import reports while it runs (its steps and their shares of the work) and at its end. */

export interface ImportProgress {
  /** 1: relations, 2: nodes and ways, 3: the road graph (contracting it per mode), 4: the text index */
  pass: 1 | 2 | 3 | 4;
  /** 0..1 over the whole import, each step by its share of the time (STEP_SHARE) */
  fraction: number;
  nodes: number;
  ways: number;
  relations: number;
}

export interface ImportSummary {
  name: string;
  file: string;
  places: number;
  regions: number;
  addresses: number;
  streets: number;
  nodes: number;
  ways: number;
  relations: number;
  skippedRelations: number;
  seconds: number;
  /** each step's time, and the process's peak memory (resident) by its end */
  steps: ImportStep[];
}

export interface ImportStep {
  step: string;
  seconds: number;
  peakBytes: number;
}

const STEP_NAMES = ["", "relations", "nodes and ways", "road graph", "text index"] as const;

/**
 * Where each step starts in the progress (0..1), by its share of the time measured on imports of
 * 1 to 100 copies of Liechtenstein (docs/performance.md): the road graph's contraction is most of
 * it, so the ETA printed from this progress holds across the steps.
 */
export const STEP_SHARE = [0, 0.06, 0.25, 0.92] as const;

/** Records when each step ends (the next begins) and the peak memory by then. */
export function stepRecorder(started: number) {
  const steps: ImportStep[] = [];
  let current = 0;
  let since = started;
  const end = () => {
    const now = performance.now();
    if (current) {
      steps.push({
        step: STEP_NAMES[current]!,
        seconds: (now - since) / 1000,
        peakBytes: process.resourceUsage().maxRSS * 1024,
      });
    }
    since = now;
  };
  return {
    steps,
    at(pass: number) {
      if (pass === current) return;
      end();
      current = pass;
    },
    finish: end,
  };
}
