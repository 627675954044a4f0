import "./load-env";
import { existsSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  GEOJSON_REGION_TYPES,
  GeojsonImportError,
  type GeojsonRegionType,
  importGeojsonRegions,
} from "../server/imports/geojson-import";
import { type ImportProgress, type ImportSummary } from "../server/imports/import-progress";
import { importOsm } from "../server/imports/osm-import";
import { geodataDir } from "../server/bundles/folder";
import { importList } from "../server/imports/view";
import { GtfsError } from "../server/transit/gtfs";
import { importGtfs } from "../server/imports/gtfs-import";
import { runCli } from "./cli";

const USAGE = `Import OpenStreetMap extracts, GeoJSON regions and GTFS feeds (docs/data.md#osm-import,
docs/transit.md#import).

  npm run import -- <file.osm.pbf> [--name NAME]   import, replacing the import of the same name
  npm run import -- <gtfs folder or .zip> [--name NAME]
                                                    a GTFS feed (transit timetables), replacing
                                                    the feed imported under the same name
  npm run import -- <file.geojson> --type TYPE [--name NAME] [--name-field F] [--code-field F]
                                                    regions from GeoJSON polygons; TYPE is one of
                                                    ${GEOJSON_REGION_TYPES.join(", ")}
  npm run import -- --list                          the imports the service answers from
  npm run import -- --remove NAME                   stop answering from an import

The name defaults to the file's ("liechtenstein-2021.osm.pbf" → liechtenstein-2021). A running
service picks up a finished import within a second; a failed or interrupted one changes nothing.
A GeoJSON region's name comes from its "name" property (or --name-field), its code from "code"
(or --code-field, else the feature's id).
Imports live in GEODATA_DIR (default: geodata/ beside the database).`;

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

/** A progress bar on a terminal; a line every 10% otherwise (CI logs, pipes). */
/** Seconds as "40 s", "3 min", "1 h 5 min". */
const duration = (seconds: number) =>
  seconds < 90
    ? `${Math.max(1, Math.round(seconds))} s`
    : seconds < 5400
      ? `${Math.round(seconds / 60)} min`
      : `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;

function progressPrinter(): (p: ImportProgress) => void {
  const tty = process.stderr.isTTY;
  let lastTenth = -1;
  const started = performance.now();
  return (p) => {
    const pct = Math.floor(p.fraction * 100);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const what = [
      "",
      "step 1/4 (relations)",
      "step 2/4 (nodes, ways)",
      "step 3/4 (road graph)",
      "step 4/4 (text index)",
    ][p.pass];
    const counts = `${p.nodes.toLocaleString("en")} nodes, ${p.ways.toLocaleString("en")} ways`;
    // What is left, at the pace so far (once there is a pace to go by).
    const elapsed = (performance.now() - started) / 1000;
    const left =
      p.fraction > 0.02 && p.fraction < 1
        ? `, about ${duration((elapsed * (1 - p.fraction)) / p.fraction)} left`
        : "";
    if (tty) {
      const width = 30;
      const filled = Math.round(p.fraction * width);
      const bar = "█".repeat(filled) + "░".repeat(width - filled);
      process.stderr.write(`\r${bar} ${String(pct).padStart(3)}%  ${what}  ${counts}  ${seconds}s${left}   `);
    } else if (Math.floor(pct / 10) > lastTenth) {
      lastTenth = Math.floor(pct / 10);
      process.stderr.write(`${String(pct).padStart(3)}%  ${what}  ${counts}  ${seconds}s${left}\n`);
    }
  };
}

async function importRegions(
  input: string,
  dir: string,
  values: { type?: string; name?: string; "name-field"?: string; "code-field"?: string },
): Promise<number> {
  const type = values.type as GeojsonRegionType | undefined;
  if (!type || !(GEOJSON_REGION_TYPES as readonly string[]).includes(type)) {
    console.error(
      `A GeoJSON import needs --type, one of ${GEOJSON_REGION_TYPES.join(", ")} (for example --type dma).`,
    );
    return 1;
  }
  try {
    const summary = await importGeojsonRegions(input, {
      dir,
      type,
      name: values.name,
      nameField: values["name-field"],
      codeField: values["code-field"],
    });
    const skipped = summary.skippedFeatures
      ? ` (${summary.skippedFeatures} features that are not polygons left out)`
      : "";
    console.log(
      `Imported ${summary.name} in ${summary.seconds.toFixed(1)} s: ${summary.regions} region${summary.regions === 1 ? "" : "s"} of type ${type}${skipped}.` +
        `\n→ ${summary.file}`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof GeojsonImportError)) throw error;
    console.error(`${input}: ${error.message}. Nothing was changed.`);
    return 1;
  }
}

/** A GTFS feed: a folder with stops.txt, or a .zip. */
function isGtfs(input: string): boolean {
  return statSync(input).isDirectory() ? existsSync(path.join(input, "stops.txt")) : /\.zip$/i.test(input);
}

async function importTransit(input: string, dir: string, name?: string): Promise<number> {
  try {
    const summary = await importGtfs(input, { dir, name, onStep: (step) => console.error(`… ${step}`) });
    console.log(
      `Imported ${summary.name} in ${summary.seconds.toFixed(1)} s: ${summary.stops} stops, ${summary.routes} routes, ` +
        `${summary.trips} trips (frequencies expanded), ${summary.stopTimes} stop times.\n→ ${summary.file}`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof GtfsError)) throw error;
    console.error(`${input}: ${error.message}\nNothing was changed.`);
    return 1;
  }
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: "string" },
      list: { type: "boolean", default: false },
      remove: { type: "string" },
      type: { type: "string" },
      "name-field": { type: "string" },
      "code-field": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const dir = geodataDir();
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.list) {
    const list = importList();
    if (!list.length) console.log(`No imports in ${dir}.`);
    for (const { name, source, importedAt, counts, searchable, kind } of list) {
      if (kind === "gtfs") {
        console.log(
          `${name}  GTFS feed from ${source}, ${importedAt}: ${counts.stops} stops, ${counts.routes} routes, ${counts.trips} trips`,
        );
        continue;
      }
      console.log(
        `${name}  from ${source}, ${importedAt}: ${counts.places ?? 0} places, ` +
          `${counts.addresses ?? 0} addresses, ${counts.streets ?? 0} streets, ${counts.regions ?? 0} regions` +
          (searchable
            ? ""
            : `\n  made by an older version: import ${source} again for forward geocoding and autocomplete`),
      );
    }
    return 0;
  }
  if (values.remove) {
    const file = path.join(dir, `${path.basename(values.remove)}.sqlite`);
    if (!existsSync(file)) {
      console.error(`No import named "${values.remove}" in ${dir} (see --list).`);
      return 1;
    }
    rmSync(file);
    console.log(`Removed ${values.remove}; the service stops answering from it within a second.`);
    return 0;
  }
  const [input] = positionals;
  if (!input || positionals.length > 1) {
    console.error(USAGE);
    return 1;
  }
  if (!existsSync(input)) {
    console.error(`No such file: ${input}`);
    return 1;
  }
  if (/\.(geo)?json$/i.test(input)) return importRegions(input, dir, values);
  if (isGtfs(input)) return importTransit(input, dir, values.name);
  if (statSync(input).isDirectory()) {
    console.error(`${input} is a folder without stops.txt: a GTFS feed folder holds the feed's .txt files.`);
    return 1;
  }
  if (values.type || values["name-field"] || values["code-field"]) {
    console.error("--type, --name-field and --code-field are for GeoJSON files (.geojson, .json).");
    return 1;
  }
  const summary = await importOsm(input, { dir, name: values.name, onProgress: progressPrinter() });
  if (process.stderr.isTTY) process.stderr.write("\n");
  printOsmSummary(summary);
  return 0;
}

/** What an OSM import made, read and took (each step's time, and the peak memory by its end). */
function printOsmSummary(summary: ImportSummary) {
  console.log(
    `Imported ${summary.name} in ${summary.seconds.toFixed(1)} s: ${summary.places} places, ` +
      `${summary.addresses} addresses, ${summary.streets} streets, ${summary.regions} regions ` +
      `(${summary.skippedRelations} boundaries cut by the extract's edge left out), ` +
      `peak memory ${mb(process.resourceUsage().maxRSS * 1024)}.\n→ ${summary.file}`,
  );
  const steps = summary.steps.map(
    (s) => `${s.step} ${s.seconds.toFixed(1)} s (peak ${mb(s.peakBytes)} by its end)`,
  );
  console.log(
    `Read ${summary.nodes.toLocaleString("en")} nodes, ${summary.ways.toLocaleString("en")} ways, ` +
      `${summary.relations.toLocaleString("en")} relations. Steps: ${steps.join("; ")}.`,
  );
}

runCli(main);
