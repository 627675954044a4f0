import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { databaseFile } from "../server/config/database-url";
import { Bundle } from "../server/bundles/file";
import { type AddressRecord, features } from "../server/geodata/features";
import { destination } from "../server/geo/distance";
import { importOsm } from "../server/imports/osm-import";
import { rng } from "./geofence-data";
import type { Bench } from "./suite";

/**
 * Forward geocoding and autocomplete over HTTP on the shared Liechtenstein extract, imported into
 * the server's geodata folder: its addresses written in four forms (as `npm run eval:geocode`
 * writes them), and the first five letters of their streets typed 1 km away from them. The
 * no-op route measured in the same run is the floor.
 */

type Address = AddressRecord & { street: string };

const LIECHTENSTEIN = path.resolve("../shared/data/osm/liechtenstein-2021.osm.pbf");

/**
 * `extract`: another extract holding Liechtenstein's copy 0 (`--extract`, e.g. the synthetic
 * copies of `npm run bench -- import --synthetic 100`: a country's worth of the same streets).
 */
export async function geocodingSuite(b: Bench, extract = LIECHTENSTEIN): Promise<void> {
  const EXTRACT = path.resolve(extract);
  if (!existsSync(EXTRACT)) {
    b.note(`Geocoding: ${EXTRACT} is absent; the geocoding benchmark did not run.`);
    return;
  }
  const geodata = path.join(path.dirname(databaseFile(b.server.databaseUrl)), "geodata");
  mkdirSync(geodata, { recursive: true });
  const summary = await importOsm(EXTRACT, { dir: geodata });
  const file = new Bundle(summary.file);
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
  await b.runBoth({
    name: `GET /v1/geocode/forward (${rows.length.toLocaleString("en")} ${path.basename(EXTRACT, ".osm.pbf")} addresses, 4 forms)`,
    url: b.server.url,
    headers: secret,
    next: () => ({
      path: `/v1/geocode/forward?query=${encodeURIComponent(forms[form++ % forms.length]!(any()))}`,
    }),
  });
  await b.runBoth({
    name: "GET /v1/search/autocomplete (a street's first 5 letters, 1 km away)",
    url: b.server.url,
    headers: secret,
    next: () => {
      const r = any();
      const [lng, lat] = destination(r.lng, r.lat, 1000, pick() * 360);
      const query = encodeURIComponent(r.street.slice(0, 5));
      return { path: `/v1/search/autocomplete?query=${query}&near=${lat.toFixed(6)},${lng.toFixed(6)}` };
    },
  });
  // One query: autocannon stalls when this scenario rotates between towns (docs/performance.md).
  await b.runBoth({
    name: "GET /v1/geocode/forward?query=Springfield, IL (worldwide: embedded cities and states)",
    url: b.server.url,
    headers: secret,
    next: () => ({ path: `/v1/geocode/forward?query=${encodeURIComponent("Springfield, IL")}` }),
  });
}
