import { z } from "zod";
import { optionalString } from "./fields";

/**
 * A file the browser saves (exports): its parts are written as they are made, so a large export
 * starts at once and is never held whole in memory.
 */
export function download(name: string, type: string, parts: AsyncIterable<string>): Response {
  const encoder = new TextEncoder();
  const iterator = parts[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": `${type}; charset=utf-8`,
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
    },
  });
}

/** A date-stamped file name: "geofences-2026-11-23.csv". */
export const stamped = (what: string, extension: string) =>
  `${what}-${new Date().toISOString().slice(0, 10)}.${extension}`;

/** The query of a file export: its format, and the one tag to export (all when absent). */
export const exportQuery = z.object({
  format: z.enum(["geojson", "csv"], { error: "must be geojson or csv" }).default("geojson"),
  tag: optionalString(256),
});

/** How records of one kind are written to a file: CSV rows (the header first), or GeoJSON features. */
export interface RecordFormats<T> {
  csv(rows: T[], header: boolean): string;
  feature(row: T): unknown;
}

/**
 * Every record `pages` yields, as a CSV file (a header alone when there is none) or a GeoJSON
 * FeatureCollection, named after `what` and the day; each page is written as it comes.
 */
export function recordsFile<T>(
  what: string,
  format: z.output<typeof exportQuery>["format"],
  pages: () => AsyncIterable<T[]>,
  formats: RecordFormats<T>,
): Response {
  if (format === "csv") {
    async function* csv() {
      let first = true;
      for await (const page of pages()) {
        yield formats.csv(page, first);
        first = false;
      }
      if (first) yield formats.csv([], true);
    }
    return download(stamped(what, "csv"), "text/csv", csv());
  }
  async function* geojson() {
    yield '{"type":"FeatureCollection","features":[';
    let first = true;
    for await (const page of pages()) {
      for (const row of page) {
        yield (first ? "\n" : ",\n") + JSON.stringify(formats.feature(row));
        first = false;
      }
    }
    yield "\n]}\n";
  }
  return download(stamped(what, "geojson"), "application/geo+json", geojson());
}
