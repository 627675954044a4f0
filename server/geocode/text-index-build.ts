import type { BundleWriter } from "../bundles/file";
import type { BBox } from "../geo/distance";
import {
  addressRows,
  addressStreets,
  placeRows,
  regionRows,
  streetClusters,
  streetPostcodesIn,
  wayNamesIn,
} from "../geodata/feature-scan";
import { postcodePointsOf, townAt } from "../geodata/features";
import { votePostcode } from "../geodata/postcode-vote";
import { RegionLookup } from "../geodata/region-lookup";
import { cityAt } from "../regions/cities";
import { embeddedRegionsAt } from "../regions/embedded";
import { indexTokens, nameKey } from "../text/normalize";
import { type TextDocument, ftsTable } from "./text-index";

/** How far around a street its addresses' postcodes and same-named ways are looked for (degrees). */
const NEAR = 0.001;

const widened = (b: BBox): BBox => ({
  minLng: b.minLng - NEAR,
  minLat: b.minLat - NEAR,
  maxLng: b.maxLng + NEAR,
  maxLat: b.maxLat + NEAR,
});

type Document = Omit<TextDocument, "id" | "number" | "area" | "kind"> &
  Partial<Pick<TextDocument, "number" | "area" | "kind">>;

/** Adds documents to the text index of the bundle being written. */
function documentWriter(w: BundleWriter) {
  const clean = (text: string) => text.replace(/\s+/g, " ").trim();
  return (d: Document) => {
    const [name, number, area] = [clean(d.name), clean(d.number ?? ""), clean(d.area ?? "")];
    const { id } = w
      .statement(
        `INSERT INTO search (layer, ref, lng, lat, kind, name, number, area) VALUES (?,?,?,?,?,?,?,?)`,
      )
      .run(d.layer, d.ref, d.lng, d.lat, d.kind ?? null, name, number, area);
    w.statement(`INSERT INTO ${ftsTable(d.layer, true)} (rowid, name, number, area) VALUES (?,?,?,?)`).run(
      id,
      indexTokens(name).join(" "),
      indexTokens(number).join(" "),
      indexTokens(area).join(" "),
    );
  };
}

/**
 * Builds the text index from the features written (every kind of import gets one), reporting
 * the share done. Streets are indexed once per name and neighbourhood: OSM splits a street into
 * many ways, and a name used in two villages is two streets. The layers are written one after
 * another: addresses into `search_text`, the others into `search_names` (./text-index.ts).
 */
export function buildTextIndex(
  w: BundleWriter,
  counts: { places: number; regions: number; addresses: number; streets: number },
  onProgress: (fraction: number) => void = () => {},
) {
  w.checkpoint();
  const total = counts.addresses + counts.streets + counts.places + counts.regions || 1;
  let done = 0;
  let lastReport = 0;
  const tick = () => {
    done++;
    const now = performance.now();
    if (now - lastReport > 100) {
      lastReport = now;
      onProgress(done / total);
    }
    w.step();
  };
  const add = documentWriter(w);
  // What an address, street or place lies in, by name ("Landstrasse 12, Vaduz" where the
  // address itself has no addr:city): the import's own city, county, state and country.
  const within = new RegionLookup(w);
  const embeddedAreas = embeddedAreaNames();
  const areas = (lng: number, lat: number, ownTown = true) => {
    const found = within.at(lng, lat).filter((r) => r.type !== "dma");
    const names = found.map((r) =>
      r.type === "postalCode"
        ? (r.code ?? r.name)
        : // A state by its name and its code too: "New York, NY 10014" names it twice.
          r.type === "state" && r.code
          ? `${r.name} ${r.code}`
          : r.name,
    );
    const has = new Set(found.map((r) => r.type));
    // Only an address with no town of its own (no addr:city, no city boundary) is named by the
    // embedded city: streets and places keep the import's areas.
    if (ownTown) has.add("city");
    return [...names, embeddedAreas(lng, lat, has)].join(" ");
  };
  indexAddresses(w, add, areas, tick);
  indexStreets(w, add, areas, tick);
  for (const p of placeRows(w)) {
    const name = p.chainName && p.chainName !== p.name ? `${p.name} ${p.chainName}` : p.name;
    add({ layer: "place", ref: p.id, lng: p.lng, lat: p.lat, name, area: areas(p.lng, p.lat) });
    tick();
  }
  for (const r of regionRows(w)) {
    // A postal code is found by its code; the others by name (and code: "LI", "NY").
    const postal = r.type === "postalCode";
    const [lng, lat] = within.pointIn(r.id) ?? [r.lng, r.lat];
    const name = postal ? "" : r.name;
    add({ layer: "region", ref: r.id, lng, lat, name, area: r.code ?? (postal ? r.name : ""), kind: r.type });
    tick();
  }
  onProgress(1);
}

/** The areas' names at a point; `ownTown` false: an address without a town, named by the embedded city. */
type Areas = (lng: number, lat: number, ownTown?: boolean) => string;

/** The embedded areas' names, by cells of about 500 m (a city's edge is no sharper than that). */
const CELL_DEGREES = 0.005;

/**
 * The names of the areas the import has no boundary of at a point, from the embedded data: an
 * extract cut from a bigger one (Manhattan) lacks its city's and state's relations, yet people
 * write "New York, NY". The US state by name and code, the country by name and code, and for an
 * address with no town (no city boundary, no addr:city) the GeoNames city ("New York City").
 */
function embeddedAreaNames(): (lng: number, lat: number, has: ReadonlySet<string>) => string {
  const cells = new Map<string, { city: string; state: string; country: string }>();
  return (lng, lat, has) => {
    // An extract with its own city, state and country boundaries there needs no lookup.
    if (has.has("city") && has.has("state") && has.has("country")) return "";
    const key = `${Math.round(lng / CELL_DEGREES)}:${Math.round(lat / CELL_DEGREES)}`;
    let cell = cells.get(key);
    if (!cell) {
      const { country, state } = embeddedRegionsAt(lng, lat);
      cell = {
        city: cityAt(lng, lat)?.name ?? "",
        state: state ? `${state.name} ${state.code ?? ""}` : "",
        country: country ? `${country.name} ${country.code ?? ""}` : "",
      };
      cells.set(key, cell);
    }
    return [
      has.has("city") ? "" : cell.city,
      has.has("state") ? "" : cell.state,
      has.has("country") ? "" : cell.country,
    ].join(" ");
  };
}

/** An address is found by its street, number and unit, in its postcode, city and regions. */
function indexAddresses(w: BundleWriter, add: (d: Document) => void, areas: Areas, tick: () => void) {
  // An address without a postcode is found by its neighbours' (as the server answers it).
  const postcodes = postcodePointsOf(w);
  const towns = new RegionLookup(w);
  for (const a of addressRows(w)) {
    const postcode =
      a.postcode ??
      (postcodes ? votePostcode([postcodes], a.lng, a.lat, townAt(towns, a.lng, a.lat)) : undefined);
    add({
      layer: "address",
      ref: a.id,
      lng: a.lng,
      lat: a.lat,
      name: a.street ?? "",
      number: `${a.number} ${a.unit ?? ""}`,
      area: `${postcode ?? ""} ${a.city ?? ""} ${areas(a.lng, a.lat, !!a.city)}`,
    });
    tick();
  }
}

/**
 * A street is found by its name in its addresses' postcodes and its regions; streets known only
 * from addresses (their ways unnamed, mapped under another spelling, or outside the extract) get
 * one document per name and neighbourhood of its addresses, kind "addresses", ref the first
 * address.
 */
function indexStreets(w: BundleWriter, add: (d: Document) => void, areas: Areas, tick: () => void) {
  for (const street of streetClusters(w, tick)) {
    const postcodes = streetPostcodesIn(w, widened(street.bbox), street.name);
    const area = `${postcodes.join(" ")} ${areas(street.lng, street.lat)}`;
    add({ layer: "street", ref: street.id, lng: street.lng, lat: street.lat, name: street.name, area });
  }
  for (const street of addressStreets(w)) {
    const key = nameKey(street.name);
    if (wayNamesIn(w, widened(street.bbox)).some((name) => nameKey(name) === key)) continue;
    const area = `${street.postcodes.join(" ")} ${areas(street.lng, street.lat)}`;
    const { id: ref, lng, lat, name } = street;
    add({ layer: "street", ref, lng, lat, name, area, kind: "addresses" });
  }
}
