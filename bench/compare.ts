import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Measurement } from "./load";

/**
 * `--compare` (tracking): SQLite and PostgreSQL in one run. Each engine's side is a child process
 * running the tracking suite on a server and data of its own (seeded as usual); their rounds
 * alternate, one side idle while the other is measured (SQLite first in odd rounds, PostgreSQL
 * first in even ones), and each round's throughputs are compared. This machine's speed drifts by
 * ±20% over minutes: two runs one after the other compare two states of the machine as much as
 * two engines, rounds side by side much less so.
 */

/** What a side tells the parent: ready for the next step (and waiting for it), or a measurement. */
export type PacedMessage = { ready: string } | { measured: Measurement };

interface Side {
  measured: Measurement[];
  /** resolves when the side is ready for its next step (the step's name), or has exited (null) */
  next(): Promise<string | null>;
  go(): void;
}

function startSide(engine: "SQLite" | "PostgreSQL", flags: string[]): Side {
  const env = { ...process.env };
  if (engine === "SQLite") {
    delete env.TEST_POSTGRES_URL;
    delete env.TEST_ENGINE;
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
  child.on("exit", (code) => {
    if (code !== 0) {
      console.error(`${engine}'s side exited with ${code}`);
      process.exit(1);
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

export async function compareEngines(flags: string[], rounds: number): Promise<void> {
  if (!process.env.TEST_POSTGRES_URL) {
    console.error("--compare needs TEST_POSTGRES_URL (a PostgreSQL server to compare SQLite with)");
    process.exit(1);
  }
  // Built once here: two sides building at once would collide.
  const { buildIfStale } = await import("../scripts/build");
  buildIfStale();
  const sqlite = startSide("SQLite", flags);
  const postgres = startSide("PostgreSQL", flags);
  // Each side seeds its data on its own schedule, then waits: warmed up one after the other.
  await Promise.all([sqlite.next(), postgres.next()]);
  for (const side of [sqlite, postgres]) {
    side.go();
    await side.next();
  }
  for (let round = 1; round <= rounds; round++) {
    for (const side of round % 2 ? [sqlite, postgres] : [postgres, sqlite]) {
      side.go();
      await side.next();
    }
  }
  // The latency runs (1 connection), one side after the other, then each side ends.
  for (const side of [sqlite, postgres]) {
    side.go();
    await side.next();
  }

  const tracked = (side: Side, round: number) =>
    side.measured.find((m) => m.name.startsWith("POST /v1/track (") && m.name.endsWith(`, round ${round}`));
  const rows: { round: number; sqlite: Measurement; postgres: Measurement }[] = [];
  for (let round = 1; round <= rounds; round++) {
    const s = tracked(sqlite, round);
    const p = tracked(postgres, round);
    if (s && p) rows.push({ round, sqlite: s, postgres: p });
  }
  const ratio = (r: (typeof rows)[number]) => r.postgres.rps / r.sqlite.rps;
  const cpu = (m: Measurement) => (m.cpuMs ?? 0) + (m.dbCpuMs ?? 0);
  const lines = [
    "| round | SQLite updates/s | PostgreSQL updates/s | PostgreSQL / SQLite | CPU ms/update, SQLite | CPU ms/update, PostgreSQL (app + database) |",
    "|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.round} | ${r.sqlite.rps} | ${r.postgres.rps} | ${ratio(r).toFixed(2)} | ${cpu(r.sqlite).toFixed(2)} | ` +
        `${cpu(r.postgres).toFixed(2)} (${r.postgres.cpuMs} + ${r.postgres.dbCpuMs}) |`,
    ),
  ];
  const sorted = rows.map(ratio).sort((a, b) => a - b);
  const median = sorted.length
    ? sorted.length % 2
      ? sorted[(sorted.length - 1) / 2]!
      : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2
    : NaN;
  console.log(`\nSQLite and PostgreSQL, round for round (${rounds} rounds, alternating which goes first):\n`);
  console.log(lines.join("\n"));
  console.log(
    `\nPostgreSQL / SQLite: ${rows.map((r) => ratio(r).toFixed(2)).join(", ")} (median ${median.toFixed(2)}).`,
  );
  const dir = path.join(import.meta.dirname, "results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `compare-tracking-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ suite: "tracking", compare: true, flags, rows, median }, null, 2));
  console.log(`Results saved to ${path.relative(process.cwd(), file)}`);
}
