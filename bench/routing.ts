import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { databaseFile } from "../server/config/database-url";
import { importOsm } from "../server/geodata/osm-import";
import { rng } from "./geofence-data";
import type { Bench } from "./suite";

/**
 * Route distance and matrix over HTTP on the shared Andorra extract, imported into the server's
 * geodata folder: random trips in the valley of Andorra la Vella and Escaldes (about 5 × 3 km)
 * per mode, and 25 × 25 matrices, next to the no-op route measured in the same run. pgRouting
 * in the same run is still to come (docs/routing.md).
 */

const EXTRACT = path.resolve("../shared/data/osm/andorra-2021.osm.pbf");

export async function routingSuite(b: Bench): Promise<void> {
  if (!existsSync(EXTRACT)) {
    b.note(`Routing: ${EXTRACT} is absent; the routing benchmark did not run.`);
    return;
  }
  const geodata = path.join(path.dirname(databaseFile(b.server.databaseUrl)), "geodata");
  mkdirSync(geodata, { recursive: true });
  await importOsm(EXTRACT, { dir: geodata });
  const pick = rng(5);
  const point = () => `${(42.5 + pick() * 0.03).toFixed(6)},${(1.5 + pick() * 0.06).toFixed(6)}`;
  const secret = { authorization: b.server.keys.secret };
  for (let i = 0; ; i++) {
    const res = await fetch(
      `${b.server.url}/v1/route/distance?origin=42.5063,1.5218&destination=42.5096,1.5387&modes=car`,
      {
        headers: secret,
      },
    );
    const body = (await res.json()) as { routes?: { car?: { distance?: unknown } } };
    if (body.routes?.car?.distance) break;
    if (i > 100) throw new Error("the server did not pick up the Andorra import");
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const mode of ["car", "bike", "foot"]) {
    await b.runBoth({
      name: `GET /v1/route/distance modes=${mode} (Andorra, random trips in the valley)`,
      url: b.server.url,
      headers: secret,
      next: () => ({ path: `/v1/route/distance?origin=${point()}&destination=${point()}&modes=${mode}` }),
    });
  }
  const list = () => Array.from({ length: 25 }, point).join("|");
  await b.run({
    name: "GET /v1/route/matrix 25×25 mode=car (Andorra)",
    url: b.server.url,
    headers: secret,
    connections: 1,
    duration: b.duration,
    next: () => ({ path: `/v1/route/matrix?origins=${list()}&destinations=${list()}&mode=car` }),
  });
}
