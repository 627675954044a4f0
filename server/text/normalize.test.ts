import { describe, expect, it } from "vitest";
import { fold, indexTokens, queryTerms, words } from "./normalize";

describe("text normalization for geocoding", () => {
  it("folds case, accents and special letters", () => {
    expect(fold("Straße")).toBe("strasse");
    expect(fold("Plaça de l'Església")).toBe("placa de l'esglesia");
    expect(fold("Zürich")).toBe("zurich");
    expect(fold("Øresund Łódź")).toBe("oresund lodz");
    expect(words("Landstrasse 12a, 9490 Vaduz")).toEqual(["landstrasse", "12a", "9490", "vaduz"]);
  });

  it("indexes the other ways a name is written", () => {
    const tokens = indexTokens("Zürcherstraße 5");
    // Umlaut spelled out as well as dropped; ß as ss; the compound split.
    expect(tokens).toEqual(
      expect.arrayContaining(["zurcherstrasse", "zuercherstrasse", "zurcher", "strasse", "5"]),
    );
  });

  it("turns typed abbreviations into the words the data spells out", () => {
    expect(queryTerms("Landstr. 12")).toEqual([["landstr", "landstrasse"], ["12"]]);
    expect(queryTerms("Main St")).toEqual([["main"], ["st", "street", "saint"]]);
    expect(queryTerms("5th Ave")).toEqual([
      ["5th", "fifth"],
      ["ave", "avenue"],
    ]);
    // US forms both ways: ordinals as words or figures, street words full or short.
    expect(queryTerms("West Fourth Street")).toEqual([
      ["west", "w"],
      ["fourth", "4th"],
      ["street", "st"],
    ]);
    expect(queryTerms("12th Ter")).toEqual([
      ["12th", "twelfth"],
      ["ter", "terrace"],
    ]);
    expect(queryTerms("  ")).toEqual([]);
  });

  it("meets indexed and typed forms: every typed term has a match among the indexed tokens", () => {
    const meets = (typed: string, indexed: string) => {
      const tokens = new Set(indexTokens(indexed));
      return queryTerms(typed).every((alternatives) => alternatives.some((t) => tokens.has(t)));
    };
    expect(meets("landstr 12", "Landstrasse 12")).toBe(true);
    expect(meets("Land Strasse", "Landstrasse")).toBe(true);
    expect(meets("zuerich", "Zürich")).toBe(true);
    expect(meets("zurich", "Zürich")).toBe(true);
    expect(meets("ZÜRICH", "Zuerich")).toBe(false); // data in ue spelling is not matched by ü: rare
    expect(meets("st john", "Saint John")).toBe(true);
    expect(meets("avinguda meritxell", "Av. Meritxell")).toBe(false); // abbreviations are expanded in queries only
  });
});
