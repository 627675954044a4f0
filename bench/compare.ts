import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { type Measurement, threadsText } from "./load";
import { WORKLOADS, type Workload } from "./suite";
import { WORKLOAD_NAMES } from "./tracking";

/**
 * Two sides of the tracking suite in one run, round for round: `--compare` SQLite and PostgreSQL;
 * `--compare-setting NAME=VALUE` the server as configured and with one setting changed (what
 * METRICS=on costs against METRICS=off, or the access log against LOG_LEVEL=warn). Each side is a
 * child process running the tracking suite on a server and data of its own (seeded as usual);
 * their rounds alternate, one side idle while the other is measured (the first side first in odd
 * rounds, the second in even ones), and each round's throughputs are compared. This machine's
 * speed drifts by ±20% over minutes: two runs one after the other compare two states of the
 * machine as much as two setups, rounds side by side much less so.
 */

/** What a side tells the parent: ready for the next step (and waiting for it), or a measurement. */
export type PacedMessage = { ready: string } | { measured: Measurement };

interface Side {
  measured: Measurement[];
  /** resolves when the side is ready for its next step (the step's name), or has exited (null) */
  next(): Promise<string | null>;
  go(): void;
}

/** One side: its name in the report, and its environment (undefined: a variable removed). */
export interface SideSpec {
  label: string;
  env: Record<string, string | undefined>;
}

/** The sides running, and those this run stopped because the other failed. */
const sides = new Set<ChildProcess>();
const stopped = new WeakSet<ChildProcess>();

function startSide({ label: engine, env: changes }: SideSpec, flags: string[]): Side {
  const env = { ...process.env };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const child = spawn(
    process.execPath,
    [...process.execArgv, process.argv[1]!, "tracking", ...flags, "--paced"],
    {
      env,
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    },
  );
  createInterface({ input: child.stdout! }).on("line", (line) => console.log(`[${engine}] ${line}`));
  const measured: Measurement[] = [];
  let waiting: ((step: string | null) => void) | null = null;
  const pending: (string | null)[] = [];
  const deliver = (step: string | null) => {
    if (waiting) {
      const w = waiting;
      waiting = null;
      w(step);
    } else pending.push(step);
  };
  child.on("message", (m: PacedMessage) => {
    if ("measured" in m) measured.push(m.measured);
    else deliver(m.ready);
  });
  sides.add(child);
  child.on("exit", (code) => {
    sides.delete(child);
    if (stopped.has(child)) return;
    if (code !== 0) {
      console.error(`${engine}'s side exited with ${code}`);
      // The other side stops its server before it exits (bench/run.ts), then this run ends.
      for (const other of sides) {
        stopped.add(other);
        other.kill("SIGTERM");
      }
      Promise.all([...sides].map((other) => new Promise((r) => other.once("exit", r)))).finally(() =>
        process.exit(1),
      );
      return;
    }
    deliver(null);
  });
  return {
    measured,
    next: () =>
      pending.length ? Promise.resolve(pending.shift()!) : new Promise((resolve) => (waiting = resolve)),
    go: () => child.send("go"),
  };
}

/** `--compare`: SQLite, then PostgreSQL (TEST_POSTGRES_URL). */
export async function compareEngines(flags: string[], rounds: number): Promise<void> {
  if (!process.env.TEST_POSTGRES_URL) {
    console.error("--compare needs TEST_POSTGRES_URL (a PostgreSQL server to compare SQLite with)");
    process.exit(1);
  }
  await compareSides(
    { label: "SQLite", env: { TEST_POSTGRES_URL: undefined, TEST_ENGINE: undefined } },
    { label: "PostgreSQL", env: {} },
    flags,
    rounds,
  );
}

/** `--compare-setting NAME=VALUE`: the server with the setting, then as configured. */
export async function compareSetting(setting: string, flags: string[], rounds: number): Promise<void> {
  const [, name, value] = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(setting) ?? [];
  if (!name) {
    console.error(`--compare-setting takes NAME=VALUE (METRICS=off, LOG_LEVEL=warn), not ${setting}`);
    process.exit(1);
  }
  await compareSides(
    { label: `${name}=${value}`, env: { [name]: value } },
    { label: "as configured", env: {} },
    flags,
    rounds,
  );
}

async function compareSides(
  first: SideSpec,
  second: SideSpec,
  flags: string[],
  rounds: number,
): Promise<void> {
  // Built once here: two sides building at once would collide.
  const { buildIfStale } = await import("../scripts/build");
  await buildIfStale();
  const A = first.label;
  const B = second.label;
  const firstSide = startSide(first, flags);
  const secondSide = startSide(second, flags);
  // Each side seeds its data on its own schedule, then waits before each step (warm-up, round N,
  // after autovacuum, latency): a step both take runs on one side, then the other, SQLite first
  // except in even rounds; a step only one side takes (PostgreSQL's after autovacuum) runs alone.
  let steps = await Promise.all([firstSide.next(), secondSide.next()]);
  while (steps[0] !== null || steps[1] !== null) {
    const [s, p] = steps;
    const round = Number(/^round (\d+)$/.exec(s ?? p ?? "")?.[1] ?? 1);
    if (s !== null && s === p) {
      const order = round % 2 ? [0, 1] : [1, 0];
      for (const k of order) {
        const side = k ? secondSide : firstSide;
        side.go();
        steps[k] = await side.next();
      }
    } else {
      // The sides' steps differ: the one that is not at the other's next step goes alone.
      const k = s === null || (p !== null && s === "latency") ? 1 : 0;
      const side = k ? secondSide : firstSide;
      side.go();
      steps[k] = await side.next();
    }
    steps = [...steps];
  }

  const rows: { workload: Workload; round: number; first: Measurement; second: Measurement }[] = [];
  for (const workload of WORKLOADS) {
    const tracked = (side: Side, round: number) =>
      side.measured.find(
        (m) =>
          m.name.startsWith(`POST /v1/track ${WORKLOAD_NAMES[workload]} (`) &&
          m.name.endsWith(`, round ${round}`),
      );
    for (let round = 1; round <= rounds; round++) {
      const s = tracked(firstSide, round);
      const p = tracked(secondSide, round);
      if (s && p) rows.push({ workload, round, first: s, second: p });
    }
  }
  const ratio = (r: (typeof rows)[number]) => r.second.rps / r.first.rps;
  const failed = (r: (typeof rows)[number]) => r.first.errors > 0 || r.second.errors > 0;
  const cpu = (m: Measurement) => (m.cpuMs ?? 0) + (m.dbCpuMs ?? 0);
  const summaries: Record<string, { min: number; median: number; spread: number; failed: number }> = {};
  for (const workload of WORKLOADS) {
    const mine = rows.filter((r) => r.workload === workload);
    if (!mine.length) continue;
    const lines = [
      `| round | ${A} updates/s | ${B} updates/s | ${B} / ${A} | CPU ms/update, ${A} | CPU ms/update, ${B} (app + database) | threads' CPU (busy) ms/update, ${A} | ${B} |`,
      "|---:|---:|---:|---:|---:|---:|---|---|",
      ...mine.map(
        (r) =>
          `| ${r.round} | ${r.first.rps} | ${r.second.rps} | ${failed(r) ? "failed" : ratio(r).toFixed(2)} | ` +
          `${cpu(r.first).toFixed(2)} | ${cpu(r.second).toFixed(2)}${r.second.dbCpuMs === undefined ? "" : ` (${r.second.cpuMs} + ${r.second.dbCpuMs})`} | ` +
          `${threadsText(r.first)} | ${threadsText(r.second)} |`,
      ),
    ];
    const counted = mine
      .filter((r) => !failed(r))
      .map(ratio)
      .sort((a, b) => a - b);
    console.log(
      `\n${WORKLOAD_NAMES[workload]}: ${A} and ${B}, round for round (alternating which goes first):\n`,
    );
    console.log(lines.join("\n"));
    if (counted.length) {
      summaries[workload] = {
        min: counted[0]!,
        median: counted[Math.floor(counted.length / 2)]!,
        spread: counted.at(-1)! - counted[0]!,
        failed: mine.length - counted.length,
      };
      const { min, median, spread } = summaries[workload];
      console.log(
        `\n${B} / ${A}, ${WORKLOAD_NAMES[workload]}: min ${min.toFixed(2)}, median ${median.toFixed(2)}, ` +
          `spread ${spread.toFixed(2)} over ${counted.length} rounds` +
          (mine.length > counted.length ? ` (${mine.length - counted.length} failed, not counted)` : "") +
          ".",
      );
    } else console.log(`\n${WORKLOAD_NAMES[workload]}: every round failed.`);
  }
  const dir = path.join(import.meta.dirname, "results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `compare-tracking-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    JSON.stringify({ suite: "tracking", compare: [A, B], flags, rows, summaries }, null, 2),
  );
  console.log(`Results saved to ${path.relative(process.cwd(), file)}`);
}
