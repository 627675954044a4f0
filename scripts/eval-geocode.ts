import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Bundle } from "../server/bundles/file";
import { features } from "../server/geodata/features";
import { destination, haversine } from "../server/geo/distance";
import type { Address } from "../server/text/address";
import { areaFields } from "../server/geocode/areas";
import { searchText } from "../server/geocode/forward";
import { fold, nameKey } from "../server/text/normalize";
import { reverseGeocode } from "../server/geocode/reverse";
import { importOsm } from "../server/imports/osm-import";
import { rng } from "../bench/geofence-data";
import { runCli } from "./cli";
import { writeOsmPbf } from "../tests/support/osm-pbf";
import { uslandGrid, uslandHeldOut } from "../tests/support/us-fixture";

const USAGE = `Measures forward geocoding, reverse geocoding and autocomplete on an OSM extract
(docs/geocoding.md#quality).

  npm run eval:geocode -- <file.osm.pbf> [--sample 1000] [--seed 1]
  npm run eval:geocode -- --us-fixture [--sample 1000]
  npm run eval:geocode -- --us-held-out [--sample 1000]
  npm run eval:geocode -- --bundle <file.sqlite> [--sample 1000]

--us-fixture writes Usland (tests/support/us-fixture.ts: a grid of Manhattan's shape, most
addresses without addr:city) and measures it, with the US forms: "City, ST ZIP" tails, ZIP+4,
abbreviations (St, Ave, W) and ordinals as words ("West Fourth Street"). --us-held-out writes
the held-out Manhattan (tests/support/us-fixture.ts: no boundaries, no addr:city, streets named
like towns of the state) and writes its town as people do: "New York".

--bundle measures an import already made (npm run import wrote it), alone in its folder: the
synthetic copies of \`npm run bench -- import --synthetic 100\` imported once, for instance.

The extract is imported into a temporary folder. Addresses (with a street and a house number)
are sampled and geocoded in several written forms; a hit is the first answer within 50 m of the
address (or of an identical address: same street, number, postcode and town) with its house
number. Reverse geocoding of each address's point must give its street and number back.
Autocomplete types the first 3, 5 and 8 letters of each sampled street, near a point 1 km
away, and must put that street (of that town) in its first three answers.`;

interface Sample {
  number: string;
  street: string;
  postcode?: string;
  city?: string;
  lng: number;
  lat: number;
  /** every address written the same way (duplicates: a building and its entrance node…) */
  twins: { lng: number; lat: number }[];
  /** in the US: the state's code, for the "City, ST ZIP" forms */
  stateCode?: string;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

function timed<T>(times: number[], run: () => T): T {
  const started = performance.now();
  const result = run();
  times.push(performance.now() - started);
  return result;
}

const pct = (hits: number, total: number) => (total ? `${((100 * hits) / total).toFixed(1)}%` : "–");
const ms = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`;
};

/** The sampled addresses: with a street and a number, the town from the data or its areas. */
function sample(file: Bundle, size: number, next: () => number): Sample[] {
  const rows = features(file).streetAddresses();
  const byText = new Map<string, Sample>();
  for (const r of rows) {
    const areas = areaFields(r.lng, r.lat);
    const city = r.city ?? areas.city;
    const postcode = r.postcode ?? areas.postalCode;
    const key = [fold(r.street), fold(r.number), postcode, city && fold(city)].join("|");
    const twin = byText.get(key);
    if (twin) twin.twins.push({ lng: r.lng, lat: r.lat });
    else
      byText.set(key, {
        number: r.number,
        street: r.street,
        ...(postcode && { postcode }),
        ...(city && { city }),
        ...(areas.countryCode === "US" && areas.stateCode && { stateCode: areas.stateCode }),
        lng: r.lng,
        lat: r.lat,
        twins: [{ lng: r.lng, lat: r.lat }],
      });
  }
  const all = [...byText.values()];
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, size);
}

/** US street words as people shorten them, and ordinal figures as words. */
const US_SHORT: Record<string, string> = {
  Street: "St",
  Avenue: "Ave",
  Boulevard: "Blvd",
  Place: "Pl",
  Lane: "Ln",
  Court: "Ct",
  Terrace: "Ter",
  Parkway: "Pkwy",
  West: "W",
  East: "E",
  North: "N",
  South: "S",
};
const ORDINAL_WORDS = [
  "First",
  "Second",
  "Third",
  "Fourth",
  "Fifth",
  "Sixth",
  "Seventh",
  "Eighth",
  "Ninth",
  "Tenth",
  "Eleventh",
  "Twelfth",
];
const shortened = (street: string) => street.replace(/\b\w+\b/g, (w) => US_SHORT[w] ?? w);
const spelled = (street: string) =>
  street.replace(/\b(\d+)(st|nd|rd|th)\b/g, (all, n: string) => ORDINAL_WORDS[Number(n) - 1] ?? all);

/** The written forms of an address (those its data allows); US addresses in the US forms. */
function forms(s: Sample): Record<string, string | undefined> {
  const { number: n, street, postcode: pc, city, stateCode: st } = s;
  if (st) {
    return {
      "US: number street, City, ST ZIP": city && pc && `${n} ${street}, ${city}, ${st} ${pc}`,
      "US: shortened, City, ST": city && `${n} ${shortened(street)}, ${city}, ${st}`,
      "US: number street City ST ZIP+4": city && pc && `${n} ${street} ${city} ${st} ${pc}-1234`,
      "US: ordinals spelled, ST ZIP": pc && `${n} ${spelled(street)}, ${st} ${pc}`,
      "US: N Abbr St City": city && `${n} ${shortened(street)} ${city}`,
      "US: n abbr st ZIP": pc && `${n} ${shortened(street)} ${pc}`.toLowerCase(),
    };
  }
  return {
    "street number, town": city && `${street} ${n}, ${city}`,
    "number street postcode": pc && `${n} ${street} ${pc}`,
    "lower case, postcode and town": `${street} ${n} ${[pc, city].filter(Boolean).join(" ")}`.toLowerCase(),
    "street number, postcode town": (pc || city) && `${street} ${n}, ${[pc, city].filter(Boolean).join(" ")}`,
  };
}

/** One street however its name is spaced or hyphenated ("Schaaner Strasse", "Schaanerstrasse"). */
const sameStreet = (a: Address | undefined, street: string) =>
  !!a?.street && nameKey(a.street) === nameKey(street);

/** Forward geocoding of each sample in each written form. */
function evalForward(samples: Sample[]) {
  const forwardTimes: number[] = [];
  console.log("Forward geocoding (top 1 within 50 m with the right house number; right street)");
  for (const form of Object.keys(forms(samples[0]!))) {
    let asked = 0;
    let hits = 0;
    let streets = 0;
    const misses: string[] = [];
    for (const s of samples) {
      const query = forms(s)[form];
      if (!query) continue;
      asked++;
      const [top] = timed(forwardTimes, () => searchText(query, { limit: 10 }));
      const near = !!top && s.twins.some((t) => haversine(t.lng, t.lat, top.longitude!, top.latitude!) <= 50);
      if (near && top.number && fold(top.number) === fold(s.number)) hits++;
      else if (misses.length < 3) misses.push(`${query} → ${top?.formattedAddress ?? "nothing"}`);
      if (sameStreet(top, s.street)) streets++;
    }
    console.log(
      `  ${form.padEnd(32)} ${pct(hits, asked).padStart(6)}  street ${pct(streets, asked)}  (${asked})`,
    );
    for (const m of misses) console.log(`      miss: ${m}`);
  }
  console.log(`  latency: ${ms(forwardTimes)}\n`);
}

/** Reverse geocoding of the samples' points. */
function evalReverse(samples: Sample[]) {
  const reverseTimes: number[] = [];
  let reversed = 0;
  let reversedStreet = 0;
  for (const s of samples) {
    const [a] = timed(reverseTimes, () => reverseGeocode([s.lng, s.lat]));
    if (sameStreet(a, s.street)) {
      reversedStreet++;
      if (a?.number && fold(a.number) === fold(s.number)) reversed++;
    }
  }
  console.log("Reverse geocoding of the addresses' points");
  console.log(
    `  street and number ${pct(reversed, samples.length)}, street ${pct(reversedStreet, samples.length)}`,
  );
  console.log(`  latency: ${ms(reverseTimes)}\n`);
}

/** Autocomplete of each street of each town, as typed from a point 1 km away. */
function evalAutocomplete(samples: Sample[], seed: number) {
  // Autocomplete: each street of each town once, typed from a point 1 km away.
  const next = rng(seed + 1);
  const streets = new Map<string, Sample>();
  for (const s of samples) streets.set(`${fold(s.street)}|${s.city ?? ""}`, s);
  const autocompleteTimes: number[] = [];
  console.log(`Autocomplete (the street in the top 3, typed 1 km away; ${streets.size} streets)`);
  // As typed from the start of the name, and from the start of its longest word ("Meritxell"
  // rather than "Avinguda Meritxell", where every other street is an Avinguda).
  const longestWord = (name: string) => {
    const ws = name.split(/[\s-]+/);
    const longest = ws.reduce((a, b) => (b.length > a.length ? b : a), "");
    return name.slice(name.indexOf(longest));
  };
  // Each street typed as `typedOf` says (undefined: not asked), near a point 1 km away: hit when
  // that street (within 2 km) is in the first three answers.
  const typedHits = (line: string, asked: Sample[], typedOf: (s: Sample) => string) => {
    let hits = 0;
    const misses: string[] = [];
    for (const s of asked) {
      const near = destination(s.lng, s.lat, 1000, next() * 360);
      const typed = typedOf(s);
      const results = timed(autocompleteTimes, () => searchText(typed, { limit: 10, prefix: true, near }));
      const found = results
        .slice(0, 3)
        .some((a) => sameStreet(a, s.street) && haversine(s.lng, s.lat, a.longitude!, a.latitude!) <= 2000);
      if (found) hits++;
      else if (misses.length < 4) {
        const got = results.slice(0, 3).map((a) => a.formattedAddress);
        misses.push(`"${typed}" for ${s.street} (${s.city ?? "?"}) → ${got.join(" | ") || "nothing"}`);
      }
    }
    console.log(`  ${line}: ${pct(hits, asked.length)}`);
    for (const m of misses) console.log(`      miss: ${m}`);
  };
  const all = [...streets.values()];
  for (const [label, from, lengths] of [
    ["", (name: string) => name, [3, 5, 8]],
    [" of its longest word", longestWord, [5]],
  ] as const) {
    for (const length of lengths)
      typedHits(`after ${length} characters${label}`, all, (s) => from(s.street).slice(0, length));
  }
  // Streets named after a direction ("East 22nd Street"), as people type them: the direction in
  // part and the rest ("Eas 22nd", "Wes 20th St"); its first letters alone name sixty streets.
  const directional = all.filter((s) => /^(North|South|East|West) \S/.test(s.street));
  if (directional.length) {
    for (const [label, typedAs] of [
      ["the next word in part", (rest: string[]) => rest[0]!.slice(0, 2)],
      ["the next word", (rest: string[]) => rest[0]!],
      ["the next word and the street word shortened", (rest: string[]) => shortened(rest.join(" "))],
    ] as const) {
      typedHits(`a direction in part, then ${label} (${directional.length} streets)`, directional, (s) => {
        const [direction, ...rest] = s.street.split(" ");
        return `${direction!.slice(0, 3)} ${typedAs(rest)}`;
      });
    }
  }
  console.log(`  latency: ${ms(autocompleteTimes)}`);
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      sample: { type: "string", default: "1000" },
      seed: { type: "string", default: "1" },
      "us-fixture": { type: "boolean" },
      "us-held-out": { type: "boolean" },
      bundle: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const dir = mkdtempSync(path.join(tmpdir(), "eval-geocode-"));
  const fixture = values["us-held-out"] ? uslandHeldOut : values["us-fixture"] ? uslandGrid : undefined;
  const extract = fixture ? path.join(dir, "usland.osm.pbf") : positionals[0];
  const given = values.bundle && path.resolve(values.bundle);
  if (values.help || (!extract && !given)) {
    console.log(USAGE);
    return values.help ? 0 : 1;
  }
  if (fixture) writeOsmPbf(extract!, fixture());
  if (!existsSync(given || extract!)) throw new Error(`${given || extract}: no such file`);
  process.env.GEODATA_DIR = given ? path.dirname(given) : dir;
  try {
    let imported = given;
    if (!imported) {
      const summary = await importOsm(extract!, { dir });
      console.log(
        `Imported ${summary.name}: ${summary.addresses} addresses, ${summary.streets} street ways, ${summary.places} places (${summary.seconds.toFixed(1)} s)`,
      );
      imported = summary.file;
    }
    const file = new Bundle(imported);
    const samples = sample(file, Number(values.sample), rng(Number(values.seed)));
    // The held-out Manhattan's town as people write it (its data names no town).
    if (values["us-held-out"]) for (const s of samples) s.city = "New York";
    file.close();
    console.log(`Sampled ${samples.length} distinct addresses (seed ${values.seed})\n`);
    // Warm up: the parser, the cities and the areas load on first use.
    searchText("warm up 1", { limit: 10 });

    evalForward(samples);
    evalReverse(samples);
    evalAutocomplete(samples, Number(values.seed));
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runCli(main);
