// @ts-check
/**
 * A request's route as its template ("/v1/geofences/[id]/[externalId]"), for the access log and
 * the metrics' `route` label (scripts/serve.mjs): read from app/ as Next.js does (a folder with a
 * route or a page is a route; `(group)` folders add no segment; `[x]` is one segment, `[...x]`
 * one or more, `[[...x]]` any number), plus the files of public/. Matching prefers a fixed
 * segment to a dynamic one, as Next.js does. Paths no route has are "unmatched", so a scan of
 * random paths cannot grow the metrics without bound.
 */
import { readdirSync } from "node:fs";
import path from "node:path";

/**
 * @typedef {{
 *   fixed: Map<string, Node>,
 *   param: Node | null,
 *   template: string | null,
 *   catchAll: string | null,
 *   optionalCatchAll: string | null,
 * }} Node
 */

/** @returns {Node} */
const node = () => ({
  fixed: new Map(),
  param: null,
  template: null,
  catchAll: null,
  optionalCatchAll: null,
});

const ROUTE_FILE = /^(route|page)\.(ts|tsx|js|jsx|mjs)$/;

/** @param {Node} root @param {string[]} segments */
function insert(root, segments) {
  const kept = segments.filter((s) => !/^\(.*\)$/.test(s) && !s.startsWith("@"));
  const template = "/" + kept.join("/");
  let at = root;
  for (const s of kept) {
    if (/^\[\[\.\.\..+\]\]$/.test(s)) {
      at.optionalCatchAll = template;
      return;
    }
    if (/^\[\.\.\..+\]$/.test(s)) {
      at.catchAll = template;
      return;
    }
    if (/^\[.+\]$/.test(s)) at = at.param ??= node();
    else {
      let next = at.fixed.get(s);
      if (!next) at.fixed.set(s, (next = node()));
      at = next;
    }
  }
  at.template = template;
}

/** @param {Node} root @param {string} dir @param {string[]} segments */
function walk(root, dir, segments) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) walk(root, path.join(dir, entry.name), [...segments, entry.name]);
    else if (ROUTE_FILE.test(entry.name)) insert(root, segments);
  }
}

/** @param {Node} at @param {string[]} parts @param {number} i @returns {string | null} */
function match(at, parts, i) {
  if (i === parts.length) return at.template ?? at.optionalCatchAll;
  const fixed = at.fixed.get(/** @type {string} */ (parts[i]));
  const found = (fixed && match(fixed, parts, i + 1)) ?? (at.param && match(at.param, parts, i + 1));
  return found ?? at.catchAll ?? at.optionalCatchAll;
}

/**
 * The function from a request's path (without its query) to its route's template, for the app
 * whose folders are under `root`.
 * @param {string} root
 * @returns {(pathname: string) => string}
 */
export function routeTemplates(root) {
  const tree = node();
  walk(tree, path.join(root, "app"), []);
  try {
    for (const name of readdirSync(path.join(root, "public"))) insert(tree, [name]);
  } catch {
    // no public files
  }
  return (pathname) => {
    if (pathname.startsWith("/_next/")) return "/_next";
    const parts = pathname.split("/").filter(Boolean);
    return match(tree, parts, 0) ?? "unmatched";
  };
}
