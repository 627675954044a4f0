import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeSyntheticExtract } from "./synthetic-osm";

/**
 * Country-sized imports: `npm run bench -- import --synthetic N[,N…]` writes N copies
 * of a shared extract side by side (./synthetic-osm.ts; kept in node_modules/.cache/synthetic,
 * never in the repo) and imports each with `npm run import` in a child process, as a user would,
 * reporting the time and peak memory of the whole import and of each of its steps.
 */

const SHARED = path.resolve("../shared/data/osm");
const CACHE = path.resolve("node_modules/.cache/synthetic");

interface ImportRun {
  copies: number;
  pbfMb: number;
  nodes: number;
  ways: number;
  seconds: number;
  peakMb: number;
  places: number;
  addresses: number;
  streets: number;
  steps: string;
}

/** The synthetic extract of `copies` copies of `source`, written once and kept. */
async function syntheticFile(source: string, copies: number): Promise<string> {
  const name = path.basename(source, ".osm.pbf");
  const file = path.join(CACHE, `${name}-x${copies}.osm.pbf`);
  if (existsSync(file)) return file;
  mkdirSync(CACHE, { recursive: true });
  let shown = -1;
  const s = await writeSyntheticExtract(source, copies, file, (f) => {
    const tenth = Math.floor(f * 10);
    if (tenth > shown && process.stdout.isTTY) {
      shown = tenth;
      process.stdout.write(`\r  writing ${copies} copies of ${name}: ${tenth * 10}%`);
    }
  });
  console.log(
    `\r  wrote ${copies} copies of ${name} in ${s.seconds.toFixed(0)} s: ${s.nodes.toLocaleString("en")} nodes, ` +
      `${s.ways.toLocaleString("en")} ways, ${(statSync(file).size / 1e6).toFixed(0)} MB → ${file}`,
  );
  return file;
}

/** `npm run import FILE` in a child process; its summary lines parsed. */
function runImport(file: string, geodataDir: string): Promise<Omit<ImportRun, "copies" | "pbfMb">> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/import.ts", file], {
      env: { ...process.env, GEODATA_DIR: geodataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    // The import's own progress (with its ETA) goes on to this terminal.
    child.stderr.on("data", (d: Buffer) => process.stderr.write(`  ${d.toString().trimEnd()}\n`));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`import exited with ${code}:\n${out}`));
      const m = /in ([\d.]+) s: (\d+) places, (\d+) addresses, (\d+) streets, .*peak memory (\d+) MB/s.exec(
        out,
      );
      const steps = /Steps: (.*)\./.exec(out)?.[1] ?? "";
      const counts = /Read ([\d,]+) nodes, ([\d,]+) ways/.exec(out);
      if (!m) return reject(new Error(`unexpected import output:\n${out}`));
      resolve({
        seconds: Number(m[1]),
        places: Number(m[2]),
        addresses: Number(m[3]),
        streets: Number(m[4]),
        peakMb: Number(m[5]),
        nodes: counts ? Number(counts[1]!.replace(/,/g, "")) : 0,
        ways: counts ? Number(counts[2]!.replace(/,/g, "")) : 0,
        steps,
      });
    });
  });
}

export async function importSuite(options: { synthetic: string; source: string }): Promise<void> {
  const source = path.join(SHARED, `${options.source}.osm.pbf`);
  if (!existsSync(source)) {
    console.log(`Import: ${source} is absent; the import benchmark did not run.`);
    return;
  }
  const sizes = options.synthetic.split(",").map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 2000)) {
    console.error("--synthetic takes copy counts from 1 to 2000, comma-separated: --synthetic 1,20,100");
    process.exitCode = 1;
    return;
  }
  console.log(
    `\nimport: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 1e9)} GB, copies of ${options.source}`,
  );
  const runs: ImportRun[] = [];
  for (const copies of sizes) {
    const file = await syntheticFile(source, copies);
    const dir = mkdtempSync(path.join(os.tmpdir(), "bench-import-"));
    try {
      const r = await runImport(file, dir);
      const run = { copies, pbfMb: Math.round(statSync(file).size / 1e6), ...r };
      runs.push(run);
      console.log(
        `  ${copies} copies (${run.pbfMb} MB): ${run.seconds.toFixed(0)} s, peak ${run.peakMb} MB. ${run.steps}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const lines = [
    "| copies | PBF | nodes | ways | time | peak memory | addresses | streets |",
    "| -----: | --: | ----: | ---: | ---: | ----------: | --------: | ------: |",
    ...runs.map(
      (r) =>
        `| ${r.copies} | ${r.pbfMb} MB | ${r.nodes.toLocaleString("en")} | ${r.ways.toLocaleString("en")} | ` +
        `${r.seconds.toFixed(0)} s | ${r.peakMb} MB | ${r.addresses.toLocaleString("en")} | ${r.streets.toLocaleString("en")} |`,
    ),
  ];
  console.log(`\n${lines.join("\n")}\n`);
  for (const r of runs) console.log(`${r.copies} copies, steps: ${r.steps}`);
  const dir = path.join(import.meta.dirname, "results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `import-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ suite: "import", ...options, runs }, null, 2));
  console.log(`\nResults saved to ${path.relative(process.cwd(), file)}`);
}
