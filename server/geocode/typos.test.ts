import { describe, expect, it } from "vitest";
import { TypoIndex, withinOneEdit } from "./typos";

describe("one-letter typos", () => {
  it("knows one edit from two", () => {
    expect(withinOneEdit("vaduz", "vadz")).toBe(true); // left out
    expect(withinOneEdit("vaduz", "vaaduz")).toBe(true); // added
    expect(withinOneEdit("vaduz", "vadus")).toBe(true); // replaced
    expect(withinOneEdit("vaduz", "vdauz")).toBe(true); // swapped
    expect(withinOneEdit("vaduz", "vduaz")).toBe(false);
    expect(withinOneEdit("vaduz", "vaduz")).toBe(false);
    expect(withinOneEdit("vaduz", "vadu")).toBe(true);
    expect(withinOneEdit("schaan", "shaan")).toBe(true);
    expect(withinOneEdit("schaan", "schan")).toBe(true);
  });

  it("finds indexed words one edit away, and leaves known, short and numeric words alone", () => {
    const index = new TypoIndex(["landstrasse", "vaduz", "schaan", "main", "street", "12", "st"]);
    expect(index.corrections("landstrase")).toEqual(["landstrasse"]);
    expect(index.corrections("vadus")).toEqual(["vaduz"]);
    expect(index.corrections("mian")).toEqual(["main"]);
    expect(index.corrections("shaan")).toEqual(["schaan"]);
    expect(index.corrections("vaduz")).toEqual([]);
    expect(index.corrections("sx")).toEqual([]);
    expect(index.corrections("13")).toEqual([]);
    expect(index.corrections("zurich")).toEqual([]);
  });
});
