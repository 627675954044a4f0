import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { serve, startFreshServer } from "../scripts/fresh-server";
import { Bundle } from "../server/bundles/file";
import { importOsm } from "../server/imports/osm-import";
import { roadGraphOf } from "../server/routing/graph-bundle";
import { type TestOsm, writeOsmPbf } from "../tests/support/osm-pbf";

/**
 * npm run bench:graph-memory [-- --grid N] — the app process's memory with 1 and with 3 routing
 * workers on the shared Andorra extract, or on a grid of N × N streets: with the graphs in shared memory, each worker after
 * the first adds its own derived structures (the edge index, components) and its runtime, not
 * another copy of the graph and its hierarchies, whose size is printed beside.
 */

const { values } = parseArgs({ options: { grid: { type: "string" } } });
const EXTRACT = path.resolve("../shared/data/osm/andorra-2021.osm.pbf");
const geodata = mkdtempSync(path.join(tmpdir(), "graph-memory-"));
let source = EXTRACT;
if (values.grid) {
  // A square grid of residential streets, n × n junctions 100 m apart (near Andorra, so the same
  // probe routes): a road graph as big as asked.
  const n = Number(values.grid);
  const nodes: TestOsm["nodes"] = [];
  const ways: TestOsm["ways"] = [];
  const id = (i: number, j: number) => i * n + j + 1;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) nodes.push({ id: id(i, j), lon: 1.5 + j * 0.0012, lat: 42.5 + i * 0.0009 });
  for (let i = 0; i < n; i++) {
    ways.push({
      id: 2 * i + 1,
      refs: Array.from({ length: n }, (_, j) => id(i, j)),
      tags: { highway: "residential" },
    });
    ways.push({
      id: 2 * i + 2,
      refs: Array.from({ length: n }, (_, j) => id(j, i)),
      tags: { highway: "residential" },
    });
  }
  source = path.join(geodata, "grid.osm.pbf");
  writeOsmPbf(source, { nodes, ways, relations: [] });
} else if (!existsSync(EXTRACT)) {
  console.log(`${EXTRACT} is absent: nothing measured.`);
  process.exit(0);
}
const summary = await importOsm(source, { dir: geodata });
const graph = roadGraphOf(new Bundle(summary.file))!;
const arrays: unknown[] = [
  ...Object.values(graph),
  ...Object.values(graph.seconds),
  ...Object.values(graph.hierarchies ?? {}).flatMap((h) => Object.values(h as object)),
];
const bytes = arrays.reduce<number>((sum, a) => sum + (ArrayBuffer.isView(a) ? a.byteLength : 0), 0);
console.log(
  `${values.grid ? `A ${values.grid} × ${values.grid} grid` : "Andorra"}: road graph with its hierarchies, ${(bytes / 1e6).toFixed(1)} MB of typed arrays`,
);

/** Resident memory of a process and its children, in MB. */
function rssMb(pid: number): number {
  let children = "";
  try {
    children = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" });
  } catch {
    // no child process: ps says so by its status
  }
  const pids = [
    pid,
    ...children
      .split("\n")
      .map((s) => Number(s.trim()))
      .filter((n) => n > 0),
  ];
  let kb = 0;
  for (const p of pids) {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
    kb += Number(m?.[1] ?? 0);
  }
  return kb / 1024;
}

const fresh = await startFreshServer();
try {
  for (const workers of [1, 3]) {
    const app = await serve(fresh.databaseUrl, {
      env: { GEODATA_DIR: geodata, ROUTING_WORKERS: String(workers) },
    });
    for (let i = 0; ; i++) {
      const res = await fetch(
        `${app.url}/v1/route/distance?origin=42.5063,1.5218&destination=42.5096,1.5387&modes=car`,
        {
          headers: { authorization: fresh.keys.secret },
        },
      );
      const body = (await res.json()) as { routes?: { car?: { distance?: unknown } } };
      if (body.routes?.car?.distance) break;
      if (i > 200) throw new Error("the server did not route");
      await new Promise((r) => setTimeout(r, 100));
    }
    // Every worker routes (and so prepares the graph) before the reading.
    await Promise.all(
      Array.from({ length: 30 }, () =>
        fetch(
          `${app.url}/v1/route/distance?origin=42.5063,1.5218&destination=42.54,1.55&modes=car,foot,bike`,
          {
            headers: { authorization: fresh.keys.secret },
          },
        ).then((r) => r.text()),
      ),
    );
    await new Promise((r) => setTimeout(r, 3000));
    console.log(`ROUTING_WORKERS=${workers}: app process ${rssMb(app.pid).toFixed(0)} MB resident`);
    await app.stop();
  }
} finally {
  await fresh.stop();
}
