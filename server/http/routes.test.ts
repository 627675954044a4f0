import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Declared } from "./handler";

/**
 * Every route of app/ holds to its row in docs/security.md: the keys that may call it and what a
 * dashboard session's role needs, as the route declares them next to its handler. A route without
 * a row, a row without a route, or a difference fails, so no route becomes public by accident.
 */

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const routes = import.meta.glob<Record<string, { contract?: Declared } | undefined>>("../../app/**/route.ts");

/** "../../app/v1/trips/[ref]/legs/route.ts" as the docs write it: "/v1/trips/{ref}/legs". */
const pathOf = (file: string) =>
  file
    .replace(/^\.\.\/\.\.\/app/, "")
    .replace(/\/route\.ts$/, "")
    .replace(/\[([^\]]+)\]/g, "{$1}");

const words = (p: Declared["permission"]) => (p === null ? "—" : typeof p === "string" ? p : p.join(" + "));

function documented(): Map<string, { keys: string; dashboard: string }> {
  const text = readFileSync(path.resolve(import.meta.dirname, "../../docs/security.md"), "utf8");
  const table = text.slice(text.indexOf("<!-- routes -->"), text.indexOf("<!-- /routes -->"));
  const rows = new Map<string, { keys: string; dashboard: string }>();
  for (const line of table.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const route = /^`([A-Z]+ \S+)`$/.exec(cells[1] ?? "")?.[1];
    if (!route) continue;
    expect(rows.has(route), `${route} has one row`).toBe(false);
    rows.set(route, { keys: cells[2]!, dashboard: cells[3]! });
  }
  return rows;
}

describe("the routes and docs/security.md", () => {
  it("agree on who may call every route", async () => {
    const rows = documented();
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const [file, load] of Object.entries(routes)) {
      // The catch-alls answer every path no route has: 404 to everyone.
      if (file.includes("[[...")) continue;
      const mod = await load();
      for (const method of METHODS) {
        const fn = mod[method];
        if (!fn) continue;
        const route = `${method} ${pathOf(file)}`;
        const contract = fn.contract;
        // Methods a route does not have answer 405 (otherMethods): they declare nothing.
        if (!contract) {
          const res = await (fn as unknown as (r: Request) => Response | Promise<Response>)(
            new Request(`http://localhost${pathOf(file)}`, { method }),
          );
          if (res.status !== 405) problems.push(`${route} declares no access and answers ${res.status}`);
          continue;
        }
        seen.add(route);
        const row = rows.get(route);
        if (!row) {
          problems.push(`${route} (${contract.access}, ${words(contract.permission)}) has no row`);
          continue;
        }
        if (row.keys !== contract.access)
          problems.push(`${route}: keys ${contract.access}, documented ${row.keys}`);
        if (row.dashboard !== words(contract.permission))
          problems.push(`${route}: dashboard ${words(contract.permission)}, documented ${row.dashboard}`);
      }
    }
    for (const route of rows.keys())
      if (!seen.has(route)) problems.push(`${route} is documented but no route has it`);
    expect(problems).toEqual([]);
    expect(seen.size).toBeGreaterThan(80);
  }, 60_000);
});
