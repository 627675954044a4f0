import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Bundle, BundleWriter } from "../bundles/file";
import { TEXT_INDEX, matchDocuments, textTokens } from "./text-index";

/**
 * A bundle written before format 8 (every document in `search_text`, no layer spans in its meta)
 * is still searched as it was: by layer, within each layer's ids, near a point when asked.
 */
describe("the text index of a bundle of format 7", () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "text-index-")), "old.sqlite");
  const w = new BundleWriter(file, [TEXT_INDEX]);
  const docs = [
    { layer: "address", name: "Landstrasse", number: "10", area: "vaduz", lng: 9.52, lat: 47.14 },
    { layer: "address", name: "Landstrasse", number: "12", area: "schaan", lng: 9.51, lat: 47.17 },
    { layer: "street", name: "Landstrasse", number: "", area: "vaduz", lng: 9.52, lat: 47.14 },
    { layer: "street", name: "Landstrasse", number: "", area: "schaan", lng: 9.51, lat: 47.17 },
    { layer: "place", name: "Landhaus", number: "", area: "vaduz", lng: 9.52, lat: 47.14 },
  ];
  docs.forEach((d, i) => {
    w.statement(
      `INSERT INTO search (id, layer, ref, lng, lat, kind, name, number, area) VALUES (?,?,?,?,?,?,?,?,?)`,
    ).run(i + 1, d.layer, i + 1, d.lng, d.lat, null, d.name, d.number, d.area);
    w.statement(`INSERT INTO search_text (rowid, name, number, area) VALUES (?,?,?,?)`).run(
      i + 1,
      d.name.toLowerCase(),
      d.number,
      d.area,
    );
  });
  // What an import of format 7 left: its format, and nothing of the text index in its meta.
  w.meta("format", "7");
  w.checkpoint();
  w.abandon();
  const bundle = new Bundle(file);

  it("finds each layer's documents in the one table, and its words for typos", () => {
    const names = (layers: ("address" | "street" | "place")[], near?: [number, number]) =>
      matchDocuments(bundle, `name : "landstrasse"`, layers, 10, near).map((d) => `${d.layer} ${d.area}`);
    expect(names(["street"])).toEqual(["street vaduz", "street schaan"]);
    expect(names(["address"])).toEqual(["address vaduz", "address schaan"]);
    expect(names(["street", "place"], [9.51, 47.17])).toEqual(["street schaan", "street vaduz"]);
    expect(matchDocuments(bundle, `name : ("land" *)`, ["place"], 10).map((d) => d.name)).toEqual([
      "Landhaus",
    ]);
    expect(textTokens(bundle)).toEqual(expect.arrayContaining(["landstrasse", "landhaus", "vaduz"]));
  });
});
