import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { databaseFile } from "../server/config/database-url";
import type { ImportWriter } from "../server/imports/import-file";
import { reverseGeocode } from "../server/geocode/reverse";
import { writeImport } from "../server/imports/import-file";
import { placeAt } from "../server/geodata/places";
import { postcodeFromAddresses } from "../server/geodata/postcodes";
import { regionsAt } from "../server/geodata/regions";
import { encodePolygons } from "../server/geo/rings";
import { CATEGORIES } from "../server/geodata/taxonomy";
import { rng } from "./geofence-data";
import type { Bench } from "./suite";

/**
 * Geodata: the import of each shared extract (time and peak memory, in a child process as
 * `npm run import` runs it), then context, place search, reverse and IP geocoding over HTTP with
 * 1,000 and 100,000 synthetic places and as many addresses in a 20 km square (a city's density
 * at 100,000), with streets every 110 m, 400 postal-code areas and a country around them.
 */

const EXTRACTS = ["monaco-2016", "andorra-2021", "liechtenstein-2021", "beatty-nevada"];
const SHARED = path.resolve("../shared/data/osm");
const AREA = { minLng: 8.4, minLat: 47.3, maxLng: 8.66, maxLat: 47.48 };
const SLUGS = Object.values(CATEGORIES).flatMap((values) => Object.values(values).map((v) => v[0]));

function importExtracts(b: Bench) {
  if (!existsSync(SHARED)) {
    b.note(`Import: ${SHARED} is absent; the import benchmark did not run.`);
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), "bench-import-"));
  const lines = [
    "| extract | size | time | peak memory | places | addresses | streets | regions |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const name of EXTRACTS) {
    const file = path.join(SHARED, `${name}.osm.pbf`);
    if (!existsSync(file)) continue;
    const out = execFileSync(process.execPath, ["--import", "tsx", "scripts/import.ts", file], {
      env: { ...process.env, GEODATA_DIR: dir },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const m =
      /in ([\d.]+) s: (\d+) places, (\d+) addresses, (\d+) streets, (\d+) regions.*peak memory (\d+) MB/s.exec(
        out,
      );
    if (!m) throw new Error(`unexpected import output: ${out}`);
    const size = `${(statSync(file).size / 1e6).toFixed(1)} MB`;
    const row = `| ${name} | ${size} | ${m[1]} s | ${m[6]} MB | ${m[2]} | ${m[3]} | ${m[4]} | ${m[5]} |`;
    console.log(`  import ${row}`);
    lines.push(row);
  }
  b.note(`Import (npm run import, child process):\n\n${lines.join("\n")}`);
  if (existsSync(path.join(dir, "liechtenstein-2021.sqlite"))) timePostcodes(b, dir);
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Liechtenstein maps no postal-code boundaries: every point's postal code comes from the
 * addresses near it (server/geodata/postcodes.ts), on every context request and tracked update.
 */
function timePostcodes(b: Bench, dir: string) {
  const previous = process.env.GEODATA_DIR;
  process.env.GEODATA_DIR = dir;
  try {
    const pick = rng(7);
    const point = (): [number, number] => [9.47 + pick() * 0.17, 47.05 + pick() * 0.22];
    b.note(
      `In-process, Liechtenstein import, ${LOOKUPS} random points in its bounding box: postal code ` +
        `from the addresses ${timeLookups(point, postcodeFromAddresses)}; all regions of a point ` +
        `(as context and tracking ask) ${timeLookups(point, regionsAt)}`,
    );
  } finally {
    if (previous === undefined) delete process.env.GEODATA_DIR;
    else process.env.GEODATA_DIR = previous;
  }
}

/** Writes a synthetic import of `count` places into the server's geodata folder. */
/** Streets every this many degrees across the square, both ways: about 110 m apart. */
const STREET_STEP = 0.001;

function writeSynthetic(geodata: string, count: number) {
  return writeImport({ dir: geodata, name: "synthetic", source: "synthetic" }, async (w) => {
    fillSynthetic(w, count);
    return {};
  });
}

function fillSynthetic(w: ImportWriter, count: number) {
  const r = rng(count);
  for (let i = 0; i < count; i++) {
    const lng = AREA.minLng + r() * (AREA.maxLng - AREA.minLng);
    const lat = AREA.minLat + r() * (AREA.maxLat - AREA.minLat);
    const slug = SLUGS[i % SLUGS.length]!;
    w.place({
      oid: "1" + i.toString(16).padStart(23, "0"),
      name: `Place ${i}`,
      categories: [slug],
      ...(i % 20 === 0 && { chain: { slug: `chain-${i % 7}`, name: `Chain ${i % 7}` } }),
      lng,
      lat,
      bbox: { minLng: lng, maxLng: lng, minLat: lat, maxLat: lat },
    });
    // As many house numbers as places, each on the nearest east-west street.
    w.address({ number: String(1 + (i % 300)), street: `Street ${Math.round(lat / STREET_STEP)}`, lng, lat });
  }
  for (let lat = AREA.minLat; lat <= AREA.maxLat; lat += STREET_STEP) {
    const line = Float64Array.from([AREA.minLng, lat, AREA.maxLng, lat]);
    w.street({
      name: `Street ${Math.round(lat / STREET_STEP)}`,
      kind: "residential",
      line,
      bbox: { minLng: AREA.minLng, maxLng: AREA.maxLng, minLat: lat, maxLat: lat },
    });
  }
  for (let lng = AREA.minLng; lng <= AREA.maxLng; lng += STREET_STEP) {
    const line = Float64Array.from([lng, AREA.minLat, lng, AREA.maxLat]);
    w.street({
      name: `Avenue ${Math.round(lng / STREET_STEP)}`,
      kind: "residential",
      line,
      bbox: { minLng: lng, maxLng: lng, minLat: AREA.minLat, maxLat: AREA.maxLat },
    });
  }
  const square = (minLng: number, minLat: number, maxLng: number, maxLat: number) =>
    Float64Array.from([minLng, minLat, maxLng, minLat, maxLng, maxLat, minLng, maxLat, minLng, minLat]);
  const n = 20;
  const dLng = (AREA.maxLng - AREA.minLng) / n;
  const dLat = (AREA.maxLat - AREA.minLat) / n;
  for (let x = 0; x < n; x++) {
    for (let y = 0; y < n; y++) {
      const bbox = {
        minLng: AREA.minLng + x * dLng,
        minLat: AREA.minLat + y * dLat,
        maxLng: AREA.minLng + (x + 1) * dLng,
        maxLat: AREA.minLat + (y + 1) * dLat,
      };
      const code = String(8000 + x * n + y);
      w.region({
        type: "postalCode",
        name: code,
        code,
        osm: `synthetic/${code}`,
        area: 1e6,
        shape: encodePolygons([[square(bbox.minLng, bbox.minLat, bbox.maxLng, bbox.maxLat)]]),
        bbox,
      });
    }
  }
  const all = {
    minLng: AREA.minLng - 0.1,
    minLat: AREA.minLat - 0.1,
    maxLng: AREA.maxLng + 0.1,
    maxLat: AREA.maxLat + 0.1,
  };
  w.region({
    type: "country",
    name: "Switzerland",
    code: "CH",
    osm: "synthetic/country",
    area: 1e10,
    shape: encodePolygons([[square(all.minLng, all.minLat, all.maxLng, all.maxLat)]]),
    bbox: all,
  });
}

/**
 * The lookups behind context and reverse geocoding, timed in this process on the same files the
 * server reads: what a request costs beyond the framework's own floor (the no-op route).
 */
function timeInProcess(b: Bench, label: string, point: () => [number, number]) {
  b.note(
    `In-process (${label}), ${LOOKUPS} random points: context's place and regions ` +
      `${timeLookups(point, (lng, lat) => (placeAt(lng, lat), regionsAt(lng, lat)))}; reverse geocoding ` +
      `${timeLookups(point, (lng, lat) => reverseGeocode([lng, lat]))}`,
  );
}

const LOOKUPS = 5000;

/** p50 and p99 of a lookup at LOOKUPS random points (the first call, which loads data, untimed). */
function timeLookups(point: () => [number, number], fn: (lng: number, lat: number) => unknown): string {
  fn(...point());
  const times: number[] = [];
  for (let i = 0; i < LOOKUPS; i++) {
    const [lng, lat] = point();
    const t = performance.now();
    fn(lng, lat);
    times.push((performance.now() - t) * 1000);
  }
  times.sort((x, y) => x - y);
  return `p50 ${times[LOOKUPS / 2]!.toFixed(0)} µs, p99 ${times[LOOKUPS * 0.99]!.toFixed(0)} µs`;
}

async function waitForPlaces(b: Bench, count: number) {
  const [lng, lat] = [(AREA.minLng + AREA.maxLng) / 2, (AREA.minLat + AREA.maxLat) / 2];
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${b.server.url}/v1/search/places?near=${lat},${lng}&radius=10000&limit=1000`, {
      headers: { authorization: b.server.keys.secret },
    });
    const body = (await res.json()) as { places?: unknown[] };
    // 10 km around the centre covers about 3/4 of the square: 1,000 answers only with the big file.
    if ((body.places?.length ?? 0) >= (count > 1000 ? 1000 : count / 2)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the server did not pick up the synthetic import");
}

export async function geodataSuite(b: Bench): Promise<void> {
  importExtracts(b);
  const geodata = path.join(path.dirname(databaseFile(b.server.databaseUrl)), "geodata");
  mkdirSync(geodata, { recursive: true });
  const secret = { authorization: b.server.keys.secret };
  const publishable = { authorization: b.server.keys.publishable };
  for (const count of [1000, 100_000]) {
    await writeSynthetic(geodata, count);
    await waitForPlaces(b, count);
    const pick = rng(7);
    const point = () => {
      const lng = AREA.minLng + pick() * (AREA.maxLng - AREA.minLng);
      const lat = AREA.minLat + pick() * (AREA.maxLat - AREA.minLat);
      return `${lat.toFixed(6)},${lng.toFixed(6)}`;
    };
    const label = count.toLocaleString("en");
    const streets = Math.round(
      (AREA.maxLat - AREA.minLat) / STREET_STEP + (AREA.maxLng - AREA.minLng) / STREET_STEP,
    );
    timeInProcess(b, `${label} places and addresses`, () => {
      const [lat, lng] = point().split(",").map(Number);
      return [lng!, lat!];
    });
    await b.runBoth({
      name: `GET /v1/context (${label} places)`,
      url: b.server.url,
      headers: publishable,
      next: () => ({ path: `/v1/context?coordinates=${point()}` }),
    });
    await b.runBoth({
      name: `GET /v1/search/places r=1000 limit 100 (${label} places)`,
      url: b.server.url,
      headers: secret,
      next: () => ({ path: `/v1/search/places?near=${point()}&radius=1000&limit=100` }),
    });
    await b.runBoth({
      name: `GET /v1/search/places r=10000 categories=coffee-shop (${label} places)`,
      url: b.server.url,
      headers: secret,
      next: () => ({
        path: `/v1/search/places?near=${point()}&radius=10000&categories=coffee-shop&limit=100`,
      }),
    });
    await b.runBoth({
      name: `GET /v1/geocode/reverse (${label} addresses, ${streets} streets)`,
      url: b.server.url,
      headers: secret,
      next: () => ({ path: `/v1/geocode/reverse?coordinates=${point()}` }),
    });
    if (count === 1000) {
      await b.runBoth({
        name: "GET /v1/geocode/reverse at random points from 50°S to 70°N (embedded data only)",
        url: b.server.url,
        headers: secret,
        next: () => ({
          path: `/v1/geocode/reverse?coordinates=${(pick() * 120 - 50).toFixed(4)},${(pick() * 340 - 170).toFixed(4)}`,
        }),
      });
      await b.runBoth({
        name: "GET /v1/geocode/ip",
        url: b.server.url,
        headers: secret,
        // Random addresses include reserved and unassigned ones: their 404s are answers too.
        expectStatus: [200, 404],
        next: () => ({
          path: `/v1/geocode/ip?ip=${1 + Math.floor(pick() * 220)}.${Math.floor(pick() * 256)}.1.1`,
        }),
      });
    }
  }
}
