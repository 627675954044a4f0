import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { databaseFile } from "../server/config/database-url";
import { importOsm } from "../server/imports/osm-import";
import type { Position } from "../server/geo/distance";
import { Bundle } from "../server/bundles/file";
import { roadGraphOf } from "../server/routing/graph-bundle";
import { SNAP_REACH_M, routeModes } from "../server/routing/engine";
import type { RoadGraph } from "../server/routing/graph";
import { arcsOfEdges, edgeIndex, snap } from "../server/routing/snap";
import { dijkstra } from "../server/routing/search";
import type { Mode } from "../server/routing/profiles";
import { isochrones } from "../server/routing/isochrone";
import { type TracePoint, matchTrace } from "../server/routing/match";
import { noisyTrip } from "../tests/support/traces";
import { rng } from "./geofence-data";
import { type PgRouting, startPgRouting } from "./pgrouting";
import type { Bench } from "./suite";
import { median, percentile, summary } from "./timings";

/**
 * Route distance and matrix on the shared andorra-2013 extract (the issue's) and monaco-2016,
 * imported into the server's geodata folder. Per mode, random trips between junctions (of the
 * valley of Andorra la Vella and Escaldes, about 5 × 3 km; of Monaco): in-process (what a
 * routing worker runs: snapping and the search), the same trips through pgRouting's
 * pgr_dijkstra (bench/pgrouting.ts) with the ratio and how far the two routers' distances agree,
 * and in Andorra through HTTP next to the no-op route. Then 25 × 25 matrices, optimized trips
 * of 10 locations, directions, map matching of 1,000-fix traces, and 15-minute isochrones by car.
 */

const EXTRACT = path.resolve("../shared/data/osm/andorra-2013.osm.pbf");
const VALLEY: [number, number, number, number] = [1.5, 42.5, 1.56, 42.53];
const TRIPS = 2000;
const MODES: Mode[] = ["car", "bike", "foot"];

interface Area {
  name: string;
  extract: string;
  /** where the trips start and end: [minLng, minLat, maxLng, maxLat] */
  box: [number, number, number, number];
  /** a trip known to be routed by car: the server has picked the import up once it is */
  probe: string;
  /** measured through the API too (the other areas: in-process and against pgRouting only) */
  http: boolean;
}

const AREAS: Area[] = [
  { name: "Andorra", extract: EXTRACT, box: VALLEY, probe: "42.5063,1.5218|42.5096,1.5387", http: true },
  {
    name: "Monaco",
    extract: path.resolve("../shared/data/osm/monaco-2016.osm.pbf"),
    box: [7.41, 43.727, 7.44, 43.75],
    probe: "43.7384,7.4246|43.7311,7.4197",
    http: false,
  },
];

export async function routingSuite(b: Bench): Promise<void> {
  if (!existsSync(EXTRACT)) {
    b.note(`Routing: ${EXTRACT} is absent; the routing benchmark did not run.`);
    return;
  }
  const geodata = path.join(path.dirname(databaseFile(b.server.databaseUrl)), "geodata");
  mkdirSync(geodata, { recursive: true });
  // In-process queries read the same imports.
  process.env.GEODATA_DIR = geodata;
  const secret = { authorization: b.server.keys.secret };
  let valley: RoadGraph | undefined;
  for (const area of AREAS.filter((a) => existsSync(a.extract))) {
    const summary = await importOsm(area.extract, { dir: geodata });
    const [origin, destination] = area.probe.split("|");
    for (let i = 0; ; i++) {
      const res = await fetch(
        `${b.server.url}/v1/route/distance?origin=${origin}&destination=${destination}&modes=car`,
        { headers: secret },
      );
      const body = (await res.json()) as { routes?: { car?: { distance?: unknown } } };
      if (body.routes?.car?.distance) break;
      if (i > 100) throw new Error(`the server did not pick up the ${area.name} import`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const graph = roadGraphOf(new Bundle(summary.file))!;
    await routeArea(b, area, graph, secret);
    if (area.http) valley = graph;
  }
  if (!valley) return;
  // Matrices between random junctions in the valley that cars may leave.
  const g = valley;
  const junctions: string[] = [];
  for (let v = 0; v < g.lng.length; v++) {
    const [lng, lat] = [g.lng[v]!, g.lat[v]!];
    if (lng < VALLEY[0] || lng > VALLEY[2] || lat < VALLEY[1] || lat > VALLEY[3]) continue;
    let drivable = false;
    for (let a = g.firstArc[v]!; a < g.firstArc[v + 1]!; a++) drivable ||= g.seconds.car[a] !== Infinity;
    if (drivable) junctions.push(`${lat},${lng}`);
  }
  const pick = rng(5);
  const list = (n = 25) =>
    Array.from({ length: n }, () => junctions[Math.floor(pick() * junctions.length)]).join("|");
  await b.run({
    name: "GET /v1/route/matrix 25×25 mode=car (Andorra)",
    url: b.server.url,
    headers: secret,
    connections: 1,
    duration: b.duration,
    next: () => ({ path: `/v1/route/matrix?origins=${list()}&destinations=${list()}&mode=car` }),
  });
  await b.run({
    name: "GET /v1/route/optimize 10 locations mode=car (Andorra)",
    url: b.server.url,
    headers: secret,
    connections: 1,
    duration: b.duration,
    next: () => ({ path: `/v1/route/optimize?locations=${list(10)}&mode=car` }),
  });
  const index = edgeIndex(g);
  const arcs = arcsOfEdges(g);
  // Isochrones: 15 minutes by car from junctions of the valley (the whole country is within
  // reach of some), in-process and through the API.
  const isoMs: number[] = [];
  for (let i = 0; i < 40; i++) {
    const [lat, lng] = junctions[Math.floor(pick() * junctions.length)]!.split(",").map(Number);
    const from = snap(g, index, arcs, lng!, lat!, "car", SNAP_REACH_M);
    if (!from) continue;
    const t0 = performance.now();
    isochrones(g, "car", from, [15]);
    isoMs.push(performance.now() - t0);
  }
  b.note(`Isochrone 15 min by car (Andorra), in-process (${isoMs.length} origins): ${summary(isoMs)}.`);
  // Directions between two random junctions, and map matching of 1,000-fix traces (a route of
  // the valley driven at 30 km/h, a fix every 5 to 10 s with 5 to 30 m of noise).
  await b.run({
    name: "GET /v1/route/directions 2 locations mode=car (Andorra)",
    url: b.server.url,
    headers: secret,
    connections: 1,
    duration: b.duration,
    next: () => ({ path: `/v1/route/directions?locations=${list(2)}&mode=car` }),
  });
  const traceRandom = rng(9);
  const traces: TracePoint[][] = [];
  while (traces.length < 5) {
    const trace: TracePoint[] = [];
    while (trace.length < 1000) trace.push(...noisyTrip(g, "car", traceRandom, VALLEY, 3000).trace);
    traces.push(trace.slice(0, 1000));
  }
  const matchMs: number[] = [];
  for (const trace of traces) {
    const t0 = performance.now();
    matchTrace(g, index, arcs, "car", trace);
    matchMs.push(performance.now() - t0);
  }
  b.note(
    `Map matching 1,000 fixes by car (Andorra), in-process (${traces.length} traces): ${summary(matchMs)}.`,
  );
  let nextTrace = 0;
  await b.run({
    name: "POST /v1/route/match 1,000 fixes mode=car (Andorra)",
    url: b.server.url,
    headers: { ...secret, "content-type": "application/json" },
    connections: 1,
    duration: b.duration,
    next: () => {
      const trace = traces[nextTrace++ % traces.length]!;
      const path = trace.map((p) => ({ coordinates: [p.lng, p.lat], accuracy: p.accuracy }));
      return {
        method: "POST",
        path: "/v1/route/match",
        body: JSON.stringify({ path, roadAttributes: "names" }),
      };
    },
  });
  await b.run({
    name: "GET /v1/route/isochrone minutes=15 mode=car (Andorra)",
    url: b.server.url,
    headers: secret,
    connections: 1,
    duration: b.duration,
    next: () => ({ path: `/v1/route/isochrone?origin=${list(1)}&minutes=15&mode=car` }),
  });
}

/**
 * One area's trips per mode: in-process, through pgRouting (when it can run) with the ratio
 * and the agreement, and through the API when the area says so.
 */
async function routeArea(b: Bench, area: Area, graph: RoadGraph, secret: Record<string, string>) {
  let peer: PgRouting | undefined;
  try {
    const started = await startPgRouting(area.extract, (line) =>
      console.log(`  pgRouting (${area.name}): ${line}`),
    );
    if (typeof started === "string") b.note(`Routing: no pgRouting peer in this run: ${started}.`);
    else peer = started;
  } catch (e) {
    b.note(`Routing: the pgRouting peer failed to start: ${(e as Error).message.split("\n")[0]}`);
  }
  type Junction = [number, number, number];
  const position = (p: Junction): Position => [p[1], p[2]];
  const [minLng, minLat, maxLng, maxLat] = area.box;
  try {
    for (const mode of MODES) {
      const pick = rng(13);
      // Trips between the peer's junctions (so that both routers start where the other does),
      // or between random points when there is no peer.
      const junctions = peer ? await peer.vertices(mode, area.box) : [];
      const point = (): Junction =>
        junctions.length
          ? junctions[Math.floor(pick() * junctions.length)]!
          : [-1, minLng + pick() * (maxLng - minLng), minLat + pick() * (maxLat - minLat)];
      const trips: [Junction, Junction][] = [];
      while (trips.length < TRIPS) {
        const [a, c] = [point(), point()];
        if (a[1] !== c[1] || a[2] !== c[2]) trips.push([a, c]);
      }
      const label = `Routing ${mode} (${area.name})`;

      // In-process: what a routing worker runs for the request.
      for (const [a, c] of trips.slice(0, 200)) routeModes(position(a), position(c), [mode]);
      const ours: (number | undefined)[] = [];
      const ms: number[] = [];
      for (const [a, c] of trips) {
        const t0 = performance.now();
        const [r] = routeModes(position(a), position(c), [mode]);
        ms.push(performance.now() - t0);
        ours.push(r && "leg" in r ? r.leg.meters : undefined);
      }
      b.note(`${label}, in-process (${TRIPS} trips): ${summary(ms)}.`);

      if (peer) {
        for (const [a, c] of trips.slice(0, 50)) await peer.route(mode, a[0], c[0]);
        const theirs: (number | undefined)[] = [];
        const peerMs: number[] = [];
        for (const [a, c] of trips) {
          const t0 = performance.now();
          theirs.push(await peer.route(mode, a[0], c[0]));
          peerMs.push(performance.now() - t0);
        }
        b.note(
          `${label}, pgRouting pgr_dijkstra on the same trips: ${summary(peerMs)}; ` +
            `in-process is ${(median(peerMs) / median(ms)).toFixed(0)}× faster at p50.`,
        );
        b.note(`${label}, as answered, against pgRouting: ${agreement(ours, theirs)}.`);
        // The networks alone: the shortest routes (length as the cost) on both sides, without
        // turn restrictions (pgr_dijkstra has none), so that speed tables do not enter.
        const network = shortestOn(graph, mode);
        const ourShortest: (number | undefined)[] = [];
        const theirShortest: (number | undefined)[] = [];
        for (const [a, c] of trips.slice(0, 500)) {
          ourShortest.push(network(position(a), position(c)));
          theirShortest.push(await peer.shortest(mode, a[0], c[0]));
        }
        b.note(`${label}, shortest routes, against pgRouting's: ${agreement(ourShortest, theirShortest)}.`);
      }

      if (!area.http) continue;
      let next = 0;
      await b.runBoth({
        name: `GET /v1/route/distance modes=${mode} (${area.name}, trips between junctions)`,
        url: b.server.url,
        headers: secret,
        next: () => {
          const [a, c] = trips[next++ % trips.length]!;
          return {
            path: `/v1/route/distance?origin=${a[2]},${a[1]}&destination=${c[2]},${c[1]}&modes=${mode}`,
          };
        },
      });
    }
  } finally {
    await peer?.stop();
  }
}

/**
 * The shortest route (meters) between two points on an import's graph for a mode: the
 * plain Dijkstra over a copy of the graph whose times are the arcs' lengths, without turn
 * restrictions.
 */
function shortestOn(g: RoadGraph, mode: Mode): (a: Position, b: Position) => number | undefined {
  const secs = g.seconds[mode].map((t, arc) => (t === Infinity ? Infinity : g.edgeLength[g.edgeOf[arc]!]!));
  const lengths: RoadGraph = {
    ...g,
    seconds: { ...g.seconds, [mode]: secs },
    turnBans: new Uint32Array(0),
    restrictedVia: new Uint8Array(g.lng.length),
    hierarchies: {},
  };
  const index = edgeIndex(g);
  const arcs = arcsOfEdges(g);
  return (a, b) => {
    const from = snap(g, index, arcs, a[0], a[1], mode, SNAP_REACH_M);
    const to = snap(g, index, arcs, b[0], b[1], mode, SNAP_REACH_M);
    return from && to ? dijkstra(lengths, mode, from, to)?.meters : undefined;
  };
}

/**
 * How the two routers' distances compare on the trips both route: the median difference, the
 * share within 5%, and the trips only one of them routes.
 */
function agreement(ours: (number | undefined)[], theirs: (number | undefined)[]): string {
  const diffs: number[] = [];
  let onlyOurs = 0;
  let onlyTheirs = 0;
  ours.forEach((m, i) => {
    const t = theirs[i];
    if (m !== undefined && t !== undefined && t > 0) diffs.push(Math.abs(m - t) / t);
    else if (m !== undefined && t === undefined) onlyOurs++;
    else if (m === undefined && t !== undefined) onlyTheirs++;
  });
  const sorted = diffs.sort((a, b) => a - b);
  const within = sorted.filter((d) => d <= 0.05).length;
  return (
    `${diffs.length} trips routed by both: median difference ${(100 * percentile(sorted, 0.5)).toFixed(1)}%, ` +
    `${((100 * within) / Math.max(1, diffs.length)).toFixed(0)}% within 5%; ` +
    `routed only here ${onlyOurs}, only by pgRouting ${onlyTheirs}`
  );
}
