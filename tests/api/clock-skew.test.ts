import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningServer, serve } from "../../scripts/fresh-server";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../../scripts/fresh-server";
import { api, keys, signIn, unique } from "../support/api";
import { dbNumber } from "../support/db";

/**
 * Two app processes whose clocks disagree, on one database: a geofence's updatedAt is its
 * version (If-Unmodified-Since preconditions and the decoded geofences of tracking and search
 * key on it), so every write must leave it later than the version it replaced, whatever the
 * writing process's clock says.
 */

let ahead: RunningServer;

beforeAll(async () => {
  // The server under test opens the database (and sets its clock past the newest stored time)
  // before the process an hour ahead writes anything.
  expect((await api("GET", "/v1/geofences?limit=1")).status).toBe(200);
  ahead = await serve(inject("databaseUrl"), {
    env: { GEODATA_DIR: inject("geodataDir") },
    nodeArgs: ["--import", path.resolve(import.meta.dirname, "../support/clock-ahead.mjs")],
  });
});
afterAll(async () => {
  await ahead?.stop();
});

const circle = (lng: number, description: string) => ({
  description,
  type: "circle",
  coordinates: [lng, 12.5],
  radius: 100,
});

/**
 * Creates the geofence on time (the server under test), so that no row of the shared database
 * is created in the future: a process opening the database sets its clock past the newest
 * creation time (server/storage/ids.ts), which would move the clocks of processes other test files
 * start. The process an hour ahead only replaces.
 */
async function createOnTime(pathname: string, json: unknown) {
  const res = await api("PUT", pathname, { json });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function putAhead(pathname: string, json: unknown) {
  const res = await fetch(`${ahead.url}${pathname}`, {
    method: "PUT",
    headers: { authorization: keys.secret, "content-type": "application/json" },
    body: JSON.stringify(json),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { geofence: { _id: string; updatedAt: string } }).geofence;
}

describe("app processes with different clocks", () => {
  it("a replacement is later than the version it replaces, even from a process whose clock is behind", async () => {
    const where = `/v1/geofences/${unique("skew")}/one`;
    await createOnTime(where, circle(-30.0, "created"));
    const first = await putAhead(where, circle(-30.1, "written an hour ahead"));
    expect(Date.parse(first.updatedAt)).toBeGreaterThan(Date.now() + 3_000_000);

    const second = await api("PUT", where, { json: circle(-30.2, "written on time") });
    expect(second.status).toBe(200);
    const replaced = second.body.geofence as { _id: string; updatedAt: string; description: string };
    expect(replaced._id).toBe(first._id);
    expect(Date.parse(replaced.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));

    // The stored version is the one answered: a precondition on it holds, and an edit made from
    // the version before it is refused rather than overwriting the replacement.
    const stale = await api("PATCH", `/v1/geofences/${first._id}`, {
      json: { description: "edited from the first version" },
      headers: { "if-match": `"${first.updatedAt}"` },
    });
    expect(stale.status).toBe(412);
    const fresh = await api("PATCH", `/v1/geofences/${first._id}`, {
      json: { description: "edited from the replacement" },
      headers: { "if-match": `"${replaced.updatedAt}"` },
    });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(Date.parse((fresh.body.geofence as { updatedAt: string }).updatedAt)).toBeGreaterThan(
      Date.parse(replaced.updatedAt),
    );
  });

  it("replacements sent to both processes at once each make their own, later version", async () => {
    const where = `/v1/geofences/${unique("skew-race")}/one`;
    await createOnTime(where, circle(-32.0, "created"));
    await putAhead(where, circle(-32.1, "first"));
    const answered = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const body = circle(-32.1 - i * 0.001, `replacement ${i}`);
        if (i % 2) return (await putAhead(where, body)).updatedAt;
        const res = await api("PUT", where, { json: body });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return (res.body.geofence as { updatedAt: string }).updatedAt;
      }),
    );
    // No two writes share a version, and the one stored last is the latest of them.
    expect(new Set(answered).size).toBe(answered.length);
    const stored = await api("GET", where);
    const latest = Math.max(...answered.map((t) => Date.parse(t)));
    expect(Date.parse((stored.body.geofence as { updatedAt: string }).updatedAt)).toBe(latest);
  });

  it("an import that replaces geofences leaves each later than the version it replaces", async () => {
    const tag = unique("skew-import");
    await createOnTime(`/v1/geofences/${tag}/a`, circle(-31.0, "created"));
    const first = await putAhead(`/v1/geofences/${tag}/a`, circle(-31.1, "written an hour ahead"));
    const cookie = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    const file = {
      type: "FeatureCollection",
      features: [
        {
          type: "Feature",
          geometry: { type: "Point", coordinates: [-31.2, 12.5] },
          properties: { description: "imported on time", tag, externalId: "a", radius: 100 },
        },
      ],
    };
    const res = await fetch(`${inject("baseUrl")}/api/geofences/import?format=geojson`, {
      method: "POST",
      headers: { cookie, origin: inject("baseUrl"), "content-type": "application/geo+json" },
      body: JSON.stringify(file),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(JSON.parse(text.trim().split("\n").at(-1)!)).toMatchObject({ meta: { code: 200 }, replaced: 1 });
    const now = await api("GET", `/v1/geofences/${tag}/a`);
    const g = now.body.geofence as { _id: string; updatedAt: string; description: string };
    expect(g).toMatchObject({ _id: first._id, description: "imported on time" });
    expect(Date.parse(g.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
  });

  it("leaves no row created in the future, from which other processes would set their clocks", async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    expect(await dbNumber(`SELECT COUNT(*) AS n FROM "Geofence" WHERE "createdAt" > ?`, soon)).toBe(0);
    expect(await dbNumber(`SELECT COUNT(*) AS n FROM "Event" WHERE "actualCreatedAt" > ?`, soon)).toBe(0);
  });
});
