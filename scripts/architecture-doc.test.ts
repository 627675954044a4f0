import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * docs/architecture.md's layer table says what `npm run lint:layers` enforces: the same folders
 * in the same layers as LAYERS in .dependency-cruiser.cjs, and every folder of server/ in one.
 */

const root = path.resolve(import.meta.dirname, "..");

function rulesLayers(): string[][] {
  const text = readFileSync(path.join(root, ".dependency-cruiser.cjs"), "utf8");
  const literal = /const LAYERS = (\[[\s\S]*?\n\]);/.exec(text)?.[1];
  if (!literal) throw new Error("LAYERS not found in .dependency-cruiser.cjs");
  return JSON.parse(literal.replace(/\/\/.*$/gm, "").replace(/,(\s*\])/g, "$1")) as string[][];
}

function docLayers(): string[][] {
  const text = readFileSync(path.join(root, "docs/architecture.md"), "utf8");
  const section = text.slice(text.indexOf("### Layers"), text.indexOf("### Where things go"));
  const rows = section.split("\n").filter((line) => /^\|\s*\d+\s*\|/.test(line));
  return rows.map((line) =>
    [...line.split("|")[2]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, "")),
  );
}

describe("docs/architecture.md's layers", () => {
  it("are the layers the dependency rules enforce, in order", () => {
    expect(docLayers()).toEqual(rulesLayers());
  });

  it("place every folder and top-level file of server/", async () => {
    const { readdirSync } = await import("node:fs");
    const placed = new Set(rulesLayers().flat());
    const entries = readdirSync(path.join(root, "server"), { withFileTypes: true })
      .filter((e) => e.isDirectory() || (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")))
      .map((e) => e.name);
    expect(entries.filter((name) => !placed.has(name))).toEqual([]);
  });
});
