import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { databaseFile } from "../server/config/database-url";
import { Bundle } from "../server/bundles/file";
import { type AddressRecord } from "../server/geodata/feature-records";
import { features } from "../server/geodata/features";
import { destination, haversine } from "../server/geo/distance";
import { routeModes } from "../server/routing/engine";
import { importOsm } from "../server/imports/osm-import";
import { rng } from "./geofence-data";
import { sequentialAgainstConfig } from "./against-config";
import type { Bench } from "./suite";
import { summary } from "./timings";

/**
 * Forward geocoding and autocomplete over HTTP on the shared Liechtenstein extract, imported into
 * the server's geodata folder: its addresses written in four forms (as `npm run eval:geocode`
 * writes them), and the first five letters of their streets typed 1 km away from them; then, at
 * the same addresses, what a country-sized import must also answer at once: reverse geocoding and
 * context over HTTP, car routes between addresses up to 10 km apart in-process, and 25×25 car
 * matrices over HTTP. The no-op route measured in the same run is the floor.
 */

type Address = AddressRecord & { street: string };

const LIECHTENSTEIN = path.resolve("../shared/data/osm/liechtenstein-2021.osm.pbf");

/**
 * `extract`: another extract holding Liechtenstein's copy 0 (`--extract`, e.g. the synthetic
 * copies of `npm run bench -- import --synthetic 100`: a country's worth of the same streets);
 * `bundle`: that extract already imported (`--bundle`, a file `npm run import` wrote), linked into
 * the server's geodata folder instead of imported again.
 */
export async function geocodingSuite(b: Bench, extract = LIECHTENSTEIN, bundle?: string): Promise<void> {
  const EXTRACT = path.resolve(extract);
  const given = bundle && path.resolve(bundle);
  if (!existsSync(given || EXTRACT)) {
    b.note(`Geocoding: ${given || EXTRACT} is absent; the geocoding benchmark did not run.`);
    return;
  }
  const geodata = path.join(path.dirname(databaseFile(b.server.databaseUrl)), "geodata");
  mkdirSync(geodata, { recursive: true });
  // In-process routes read the same import.
  process.env.GEODATA_DIR = geodata;
  let imported: string;
  if (given) symlinkSync(given, (imported = path.join(geodata, path.basename(given))));
  else imported = (await importOsm(EXTRACT, { dir: geodata })).file;
  const file = new Bundle(imported);
  const rows = features(file).streetAddresses();
  file.close();
  const secret = { authorization: b.server.keys.secret };
  const get = async (p: string) =>
    (await (await fetch(`${b.server.url}${p}`, { headers: secret })).json()) as {
      addresses?: { layer: string }[];
    };
  for (
    let i = 0;
    (await get("/v1/geocode/forward?query=Mitteldorf%201%20Vaduz")).addresses?.[0]?.layer !== "address";
    i++
  ) {
    if (i > 300) throw new Error("the server did not pick up the Liechtenstein import");
    await new Promise((r) => setTimeout(r, 200));
  }

  const pick = rng(11);
  const any = () => rows[Math.floor(pick() * rows.length)]!;
  const forms = [
    (r: Address) => `${r.street} ${r.number}, ${r.city ?? r.postcode ?? ""}`,
    (r: Address) => `${r.number} ${r.street} ${r.postcode ?? r.city ?? ""}`,
    (r: Address) => `${r.street} ${r.number} ${r.postcode ?? ""} ${r.city ?? ""}`.toLowerCase(),
    (r: Address) => `${r.street} ${r.number}, ${[r.postcode, r.city].filter(Boolean).join(" ")}`,
  ];
  let form = 0;
  const forward = () =>
    `/v1/geocode/forward?query=${encodeURIComponent(forms[form++ % forms.length]!(any()))}`;
  const autocomplete = () => {
    const r = any();
    const [lng, lat] = destination(r.lng, r.lat, 1000, pick() * 360);
    const query = encodeURIComponent(r.street.slice(0, 5));
    return `/v1/search/autocomplete?query=${query}&near=${lat.toFixed(6)},${lng.toFixed(6)}`;
  };
  const name = path.basename(given || EXTRACT).replace(/\.(osm\.pbf|sqlite)$/, "");
  const forwardName = `GET /v1/geocode/forward (${rows.length.toLocaleString("en")} ${name} addresses, 4 forms)`;
  const autocompleteName = "GET /v1/search/autocomplete (a street's first 5 letters, 1 km away)";
  // The floor the goals are set against: a route that checks the key and answers.
  await b.runBoth({
    name: "GET /v1/config (key check)",
    url: b.server.url,
    headers: secret,
    next: () => ({ path: "/v1/config" }),
  });
  await b.runBoth({
    name: forwardName,
    url: b.server.url,
    headers: secret,
    next: () => ({ path: forward() }),
  });
  await b.runBoth({
    name: autocompleteName,
    url: b.server.url,
    headers: secret,
    next: () => ({ path: autocomplete() }),
  });
  b.note(await sequentialAgainstConfig(b, forwardName, secret, forward, 1000));
  b.note(await sequentialAgainstConfig(b, autocompleteName, secret, autocomplete, 1000));
  await aroundAddresses(b, rows, secret);
  // One query: autocannon stalls when this scenario rotates between towns (docs/performance.md).
  await b.runBoth({
    name: "GET /v1/geocode/forward?query=Springfield, IL (worldwide: embedded cities and states)",
    url: b.server.url,
    headers: secret,
    next: () => ({ path: `/v1/geocode/forward?query=${encodeURIComponent("Springfield, IL")}` }),
  });
}

/**
 * Reverse geocoding and context near the addresses (within 20 m), car routes between two of them
 * up to 10 km apart in-process (what a routing worker runs for a request), and 25×25 car matrices
 * between addresses within 5 km of one over HTTP.
 */
async function aroundAddresses(b: Bench, rows: Address[], secret: Record<string, string>) {
  const pick = rng(23);
  const any = () => rows[Math.floor(pick() * rows.length)]!;
  const near = (r: Address, meters: number) => {
    const [lng, lat] = destination(r.lng, r.lat, pick() * meters, pick() * 360);
    return `${lat.toFixed(6)},${lng.toFixed(6)}`;
  };
  for (const [route, name] of [
    ["/v1/geocode/reverse", "GET /v1/geocode/reverse"],
    ["/v1/context", "GET /v1/context"],
  ] as const) {
    await b.runBoth({
      name: `${name} (within 20 m of an address)`,
      url: b.server.url,
      headers: secret,
      next: () => ({ path: `${route}?coordinates=${near(any(), 20)}` }),
    });
  }
  /** A random address within `meters` of `r` (another copy's are hundreds of km away). */
  const around = (r: Address, meters: number) => {
    for (;;) {
      const other = any();
      if (other !== r && haversine(r.lng, r.lat, other.lng, other.lat) <= meters) return other;
    }
  };
  const trips = Array.from({ length: 1200 }, () => {
    const a = any();
    return [a, around(a, 10_000)] as const;
  });
  for (const [a, c] of trips.slice(0, 200)) routeModes([a.lng, a.lat], [c.lng, c.lat], ["car"]);
  const ms: number[] = [];
  let routed = 0;
  for (const [a, c] of trips.slice(200)) {
    const t0 = performance.now();
    const [r] = routeModes([a.lng, a.lat], [c.lng, c.lat], ["car"]);
    ms.push(performance.now() - t0);
    if (r && "leg" in r) routed++;
  }
  b.note(
    `Car routes between addresses up to 10 km apart, in-process (${ms.length} trips, ${routed} routed): ${summary(ms)}.`,
  );
  // Addresses with a road cars may use within 1 km (a mountain hut's is refused with a 400).
  const drivable = (r: Address) => {
    const [x] = routeModes([r.lng, r.lat], [r.lng, r.lat], ["car"]);
    return !(x && "unrouted" in x && x.unrouted === "origin-far");
  };
  const byCar = () => {
    for (;;) {
      const r = any();
      if (drivable(r)) return r;
    }
  };
  const matrix = () => {
    const center = byCar();
    const point = () => {
      for (;;) {
        const r = around(center, 5000);
        if (drivable(r)) return near(r, 0);
      }
    };
    const list = () => Array.from({ length: 25 }, point).join("|");
    return `/v1/route/matrix?origins=${list()}&destinations=${list()}&mode=car`;
  };
  // The first matrix loads the road graph into the routing workers: waited for, and checked.
  const first = (await (await fetch(`${b.server.url}${matrix()}`, { headers: secret })).json()) as {
    matrix?: { duration?: { value?: number } }[][];
  };
  const cells = first.matrix?.flat() ?? [];
  b.note(
    `Matrix 25×25 by car: the first answer (loading the graph) had ${cells.filter((c) => c.duration?.value !== undefined).length} of 625 cells routed.`,
  );
  await b.run({
    name: "GET /v1/route/matrix 25×25 mode=car (addresses within 5 km of one)",
    url: b.server.url,
    headers: secret,
    connections: 1,
    duration: b.duration,
    next: () => ({ path: matrix() }),
  });
}
