import type { FreshServer } from "../scripts/fresh-server";
import type { Area } from "./geofence-data";
import type { Measurement, Scenario } from "./load";

/** What a benchmark suite gets: a running server and a way to measure a scenario. */
export interface Bench {
  server: FreshServer;
  duration: number;
  connections: number;
  /** where the geofences and users are: sparse (a metro area) or dense (--dense: 79 km²) */
  area: Area;
  /** rounds of interleaved measurements, for suites that compare against the no-op route */
  rounds: number;
  /** measures a scenario, prints it and adds it to the report */
  run(s: Scenario): Promise<Measurement>;
  /** measures a read scenario at `connections` (throughput) and at 1 connection (latency) */
  runBoth(s: Omit<Scenario, "connections">): Promise<void>;
  /** a line printed with the results and saved with them */
  note(line: string): void;
  /** tracking on PostgreSQL: report its statements and its backends' waits over the rounds (--pg-stats) */
  pgStats?: boolean;
  /** tracking: the workloads measured (--workload) */
  workloads: readonly Workload[];
  /** tracking: also measure with two enabled webhooks (--webhooks) */
  webhooks?: boolean;
  /** tracking: users on trips against users on none (--trips) */
  trips?: boolean;
  /** a side of --compare: waits before each step until the other side is idle (bench/compare.ts) */
  pace?: (step: string) => Promise<void>;
}

/** The tracking workloads (bench/tracking.ts): what users send. */
export const WORKLOADS = ["short-moves", "first-seen", "long-jumps"] as const;
export type Workload = (typeof WORKLOADS)[number];
