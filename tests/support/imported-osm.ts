import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { importOsm } from "../../server/imports/osm-import";
import { type TestOsm, writeOsmPbf } from "./osm-pbf";

/**
 * For the tests of a file (or a describe block): an OSM extract, a file or a fixture written to
 * one, imported into a folder of its own that GEODATA_DIR names while they run, as it was after.
 */
export function withImportedOsm(name: string, source: string | (() => TestOsm)): void {
  const previous = process.env.GEODATA_DIR;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
    let pbf = source;
    if (typeof pbf !== "string") {
      const osm = pbf();
      pbf = path.join(dir, `${name}.osm.pbf`);
      writeOsmPbf(pbf, osm);
    }
    process.env.GEODATA_DIR = dir;
    await importOsm(pbf, { dir });
  }, 60_000);
  afterAll(() => {
    if (previous === undefined) delete process.env.GEODATA_DIR;
    else process.env.GEODATA_DIR = previous;
  });
}
