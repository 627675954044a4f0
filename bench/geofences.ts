import { geofenceBody, randomPoint, rng } from "./geofence-data";
import { sequentialAgainstConfig } from "./against-config";
import type { Bench } from "./suite";

/** Loads `total` geofences through the API, then measures get, list and search. */
export async function geofenceSuite(b: Bench, total: number): Promise<void> {
  const { server } = b;
  const auth = { authorization: server.keys.secret, "content-type": "application/json" };
  const r = rng(42);
  const bodies = Array.from({ length: total }, (_, i) => JSON.stringify(geofenceBody(i, r, b.area)));
  let next = 0;
  await b.run({
    name: `POST /v1/geofences (load ${total})`,
    url: server.url,
    headers: auth,
    connections: b.connections,
    amount: total,
    next: () => ({ method: "POST", path: "/v1/geofences", body: bodies[next++ % total] }),
  });

  await settle(server.databaseUrl);

  const ids: string[] = [];
  let cursor = "";
  for (;;) {
    const res = await fetch(`${server.url}/v1/geofences?limit=1000${cursor}`, { headers: auth });
    const body = (await res.json()) as {
      meta: { hasMore?: boolean };
      geofences: { _id: string; createdAt: string }[];
    };
    ids.push(...body.geofences.map((g) => g._id));
    if (!body.meta.hasMore) break;
    cursor = `&createdBefore=${body.geofences[body.geofences.length - 1]!.createdAt}`;
  }
  if (ids.length !== total) throw new Error(`expected ${total} geofences, found ${ids.length}`);

  const pick = rng(7);
  b.note(
    await sequentialAgainstConfig(
      b,
      "GET /v1/search/geofences (r=1000, limit 100, with geometry)",
      auth,
      () => {
        const [lng, lat] = randomPoint(pick, b.area);
        return `/v1/search/geofences?near=${lat},${lng}&radius=1000&limit=100`;
      },
    ),
  );
  await b.runBoth({
    name: "GET /v1/geofences/:id",
    url: server.url,
    headers: auth,
    next: () => ({ path: `/v1/geofences/${ids[Math.floor(pick() * ids.length)]}` }),
  });
  await b.runBoth({
    name: "GET /v1/geofences?limit=100",
    url: server.url,
    headers: auth,
    next: () => ({ path: "/v1/geofences?limit=100" }),
  });
  await b.runBoth({
    name: "GET /v1/search/geofences (r=1000, limit 100)",
    url: server.url,
    headers: auth,
    next: () => {
      const [lng, lat] = randomPoint(pick, b.area);
      return { path: `/v1/search/geofences?near=${lat},${lng}&radius=1000&includeGeometry=false` };
    },
  });
  await b.runBoth({
    name: "GET /v1/search/geofences (r=1000, limit 100, with geometry)",
    url: server.url,
    headers: auth,
    next: () => {
      const [lng, lat] = randomPoint(pick, b.area);
      return { path: `/v1/search/geofences?near=${lat},${lng}&radius=1000&limit=100` };
    },
  });
  await b.runBoth({
    name: "GET /v1/search/geofences (r=10000, with geometry)",
    url: server.url,
    headers: auth,
    next: () => {
      const [lng, lat] = randomPoint(pick, b.area);
      return { path: `/v1/search/geofences?near=${lat},${lng}&radius=10000&limit=100` };
    },
  });
  // Context: the geofences at a point plus its country and state, with the publishable key.
  const publishable = { authorization: server.keys.publishable };
  await b.runBoth({
    name: "GET /v1/context (10,000 geofences, regions)",
    url: server.url,
    headers: publishable,
    next: () => {
      const [lng, lat] = randomPoint(pick, b.area);
      return { path: `/v1/context?coordinates=${lat},${lng}` };
    },
  });
  await b.runBoth({
    name: "GET /v1/context anywhere on Earth",
    url: server.url,
    headers: publishable,
    next: () => ({ path: `/v1/context?coordinates=${-60 + pick() * 135},${-180 + pick() * 360}` }),
  });
}

/**
 * After a bulk load, PostgreSQL plans from statistics its autovacuum gathers within a minute or
 * so, and that autovacuum then runs beside the measurements; measuring before that measures plans
 * made blind and a vacuum. VACUUM ANALYZE now, as a deploy would after an import. (SQLite has
 * nothing to gather: its queries name their indexes.)
 */
export async function settle(databaseUrl: string): Promise<void> {
  if (!/^postgres(ql)?:/.test(databaseUrl)) return;
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("VACUUM ANALYZE");
  } finally {
    await client.end();
  }
}
