import { describe, expect, inject, it } from "vitest";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../../scripts/fresh-server";
import { api, expectError, keys, signIn, unique } from "../support/api";

/** Bulk import and export of geofences (GeoJSON, CSV) and CSV export of events, as the dashboard does. */

const baseUrl = inject("baseUrl");
const as = (cookie: string) => ({ key: null, headers: { cookie } });

async function send(cookie: string, format: "geojson" | "csv", file: string) {
  const res = await fetch(`${baseUrl}/api/geofences/import?format=${format}`, {
    method: "POST",
    headers: {
      cookie,
      origin: baseUrl,
      "content-type": format === "csv" ? "text/csv" : "application/geo+json",
    },
    body: file,
  });
  const text = await res.text();
  if (res.status !== 200) return { status: res.status, lines: [JSON.parse(text) as Record<string, unknown>] };
  return {
    status: res.status,
    lines: text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/** What an import would do, written nowhere. */
async function preview(cookie: string, format: "geojson" | "csv", file: string) {
  const res = await fetch(`${baseUrl}/api/geofences/import?format=${format}&dryRun=true`, {
    method: "POST",
    headers: {
      cookie,
      origin: baseUrl,
      "content-type": format === "csv" ? "text/csv" : "application/geo+json",
    },
    body: file,
  });
  const body = (await res.json()) as { preview: Record<string, unknown> };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.preview;
}

const download = async (cookie: string, path: string) => {
  const res = await fetch(`${baseUrl}${path}`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return { text: await res.text(), headers: res.headers };
};

const feature = (tag: string, i: number, extra: Record<string, unknown> = {}, lng = 20 + i * 0.01) => ({
  type: "Feature",
  geometry: { type: "Point", coordinates: [lng, -30] },
  properties: {
    description: `Stop ${i}`,
    tag,
    externalId: `s${i}`,
    radius: 100,
    metadata: { n: i },
    ...extra,
  },
});

describe("geofence import and export", () => {
  it("imports a GeoJSON file with progress, replaces by tag and externalId on the next import, and exports it back", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    const tag = unique("bulk");
    const square = [
      [21, -31],
      [21.01, -31],
      [21.01, -30.99],
      [21, -30.99],
      [21, -31],
    ];
    const features = [
      ...Array.from({ length: 300 }, (_, i) => feature(tag, i)),
      {
        type: "Feature",
        geometry: { type: "Polygon", coordinates: [square] },
        properties: { description: "Yard" },
      },
    ];
    const first = await send(cookie, "geojson", JSON.stringify({ type: "FeatureCollection", features }));
    expect(first.status).toBe(200);
    const progress = first.lines.filter((l) => l.progress).map((l) => l.progress);
    expect(progress).toEqual([
      { done: 250, total: 301 },
      { done: 301, total: 301 },
    ]);
    expect(first.lines.at(-1)).toEqual({ meta: { code: 200 }, created: 301, replaced: 0, unchanged: 0 });
    const stop = await api("GET", `/v1/geofences/${tag}/s7`);
    expect(stop.body.geofence).toMatchObject({
      description: "Stop 7",
      type: "circle",
      geometryRadius: 100,
      metadata: { n: 7 },
    });

    // The same file with one change: that one replaced, the others left as they are, none doubled.
    features[7] = feature(tag, 7, { description: "Stop seven" });
    const file = JSON.stringify({ type: "FeatureCollection", features: features.slice(0, 300) });
    expect(await preview(cookie, "geojson", file)).toEqual({
      total: 300,
      created: 0,
      replaced: 1,
      unchanged: 299,
      changes: [
        { where: "features[7]", _id: expect.any(String), description: "Stop 7", fields: ["description"] },
      ],
    });
    expect((await api("GET", `/v1/geofences/${tag}/s7`)).body.geofence).toMatchObject({
      description: "Stop 7",
    });
    const again = await send(cookie, "geojson", file);
    expect(again.lines.at(-1)).toEqual({ meta: { code: 200 }, created: 0, replaced: 1, unchanged: 299 });
    expect((await api("GET", `/v1/geofences/${tag}/s7`)).body.geofence).toMatchObject({
      description: "Stop seven",
    });

    const out = await download(cookie, `/api/geofences/export?format=geojson&tag=${tag}`);
    expect(out.headers.get("content-disposition")).toMatch(
      /attachment; filename="geofences-\d{4}-\d{2}-\d{2}\.geojson"/,
    );
    const exported = JSON.parse(out.text) as { features: ReturnType<typeof feature>[] };
    expect(exported.features).toHaveLength(300);
    expect(exported.features.find((f) => f.properties.externalId === "s7")).toMatchObject({
      geometry: { type: "Point", coordinates: [20.07, -30] },
      properties: { description: "Stop seven", radius: 100, metadata: { n: 7 }, enabled: true },
    });
  });

  it("takes users out of the geofences a new import moves away from them, and only those", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    const tag = unique("moved");
    // Three stops in the South Atlantic, where no other test tracks; a device inside each.
    const stop = (i: number, lng: number) => feature(tag, i, { description: `Stop ${i}` }, lng);
    const first = [0, 1, 2].map((i) => stop(i, -14 + i * 0.01));
    const made = await send(
      cookie,
      "geojson",
      JSON.stringify({ type: "FeatureCollection", features: first }),
    );
    expect(made.lines.at(-1)).toMatchObject({ meta: { code: 200 }, created: 3 });
    const ids: string[] = [];
    for (const i of [0, 1, 2]) {
      const res = await api("POST", "/v1/track", {
        key: keys.publishable,
        json: { deviceId: unique("dev"), latitude: -30, longitude: -14 + i * 0.01, accuracy: 5 },
      });
      expect(res.status).toBe(200);
      const g = (res.body.user as { geofences: { _id: string; externalId: string }[] }).geofences;
      expect(g.map((x) => x.externalId)).toEqual([`s${i}`]);
      ids.push(g[0]!._id);
    }
    // Stops 0 and 2 move 50 km east; stop 1 only gets a new name.
    const moved = [
      stop(0, -13.5),
      { ...first[1]!, properties: { ...first[1]!.properties, description: "One" } },
      stop(2, -13.48),
    ];
    const again = await send(
      cookie,
      "geojson",
      JSON.stringify({ type: "FeatureCollection", features: moved }),
    );
    expect(again.lines.at(-1)).toEqual({ meta: { code: 200 }, created: 0, replaced: 3, unchanged: 0 });
    const users = async (id: string) =>
      ((await api("GET", `/v1/geofences/${id}/users`)).body.users as unknown[]).length;
    expect([await users(ids[0]!), await users(ids[1]!), await users(ids[2]!)]).toEqual([0, 1, 0]);
  });

  it("round-trips CSV: the export imports again as the same geofences", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    const tag = unique("csv");
    const csv = [
      "description,type,coordinates,radius,tag,externalId,metadata,enabled,dwellThreshold",
      `"Shop, north",circle,"[5.5,45.1]",150,${tag},a,"{""floor"":2}",true,30`,
      `Park,polygon,"[[5.6,45.2],[5.61,45.2],[5.61,45.21],[5.6,45.2]]",,${tag},b,,false,`,
    ].join("\n");
    const imported = await send(cookie, "csv", csv);
    expect(imported.lines.at(-1)).toEqual({ meta: { code: 200 }, created: 2, replaced: 0, unchanged: 0 });
    expect((await api("GET", `/v1/geofences/${tag}/a`)).body.geofence).toMatchObject({
      description: "Shop, north",
      geometryRadius: 150,
      metadata: { floor: 2 },
      dwellThreshold: 30,
    });
    expect((await api("GET", `/v1/geofences/${tag}/b`)).body.geofence).toMatchObject({
      type: "polygon",
      enabled: false,
    });

    const out = await download(cookie, `/api/geofences/export?format=csv&tag=${tag}`);
    expect(out.text.split("\n")[0]).toBe(
      "description,type,coordinates,radius,tag,externalId,metadata,enabled,dwellThreshold,userIds,stopDetection,disableAfter,deleteAfter,mode,_id,createdAt,updatedAt",
    );
    const back = await send(cookie, "csv", out.text);
    expect(back.lines.at(-1)).toEqual({ meta: { code: 200 }, created: 0, replaced: 0, unchanged: 2 });
    expect((await api("GET", `/v1/geofences/${tag}/a`)).body.geofence).toMatchObject({
      description: "Shop, north",
      geometryCenter: { coordinates: [5.5, 45.1] },
      metadata: { floor: 2 },
    });
  });

  it("keeps the fields of columns a CSV leaves out; an empty cell clears one; the preview says what changes", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    const tag = unique("zone");
    const made = await api("PUT", `/v1/geofences/${tag}/staedtle`, {
      json: {
        description: "Städtle",
        type: "circle",
        coordinates: [9.52, 47.14],
        radius: 200,
        metadata: { owner: "town" },
        dwellThreshold: 12,
      },
    });
    expect(made.status).toBe(200);
    const partial = [
      "description,type,coordinates,radius,tag,externalId",
      `Städtle Mitte,circle,"[9.52,47.14]",200,${tag},staedtle`,
    ].join("\n");
    expect(await preview(cookie, "csv", partial)).toMatchObject({
      created: 0,
      replaced: 1,
      unchanged: 0,
      changes: [{ where: "line 2", description: "Städtle", fields: ["description"] }],
    });
    const res = await send(cookie, "csv", partial);
    expect(res.lines.at(-1)).toEqual({ meta: { code: 200 }, created: 0, replaced: 1, unchanged: 0 });
    expect((await api("GET", `/v1/geofences/${tag}/staedtle`)).body.geofence).toMatchObject({
      description: "Städtle Mitte",
      metadata: { owner: "town" },
      dwellThreshold: 12,
    });
    // A column that is there with an empty cell clears the field; a type change needs coordinates.
    const clearing = ["tag,externalId,metadata,dwellThreshold", `${tag},staedtle,,`].join("\n");
    expect(await preview(cookie, "csv", clearing)).toMatchObject({
      changes: [{ fields: ["metadata", "dwellThreshold"] }],
    });
    await send(cookie, "csv", clearing);
    const cleared = (await api("GET", `/v1/geofences/${tag}/staedtle`)).body.geofence as Record<
      string,
      unknown
    >;
    expect(cleared).toMatchObject({ description: "Städtle Mitte", geometryRadius: 200 });
    expect(cleared).not.toHaveProperty("metadata");
    expect(cleared).not.toHaveProperty("dwellThreshold");
    const retype = await send(cookie, "csv", ["tag,externalId,type", `${tag},staedtle,polygon`].join("\n"));
    expect(retype.lines[0]).toMatchObject({ meta: { code: 400, param: "line 2.coordinates" } });
  });

  it("re-imports its own export by _id: untagged geofences are not doubled, an edited one is replaced", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    const marker = unique("plain");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await api("POST", "/v1/geofences", {
        json: {
          description: `${marker} ${i}`,
          type: "circle",
          coordinates: [12 + i * 0.01, -12],
          radius: 80,
        },
      });
      ids.push((r.body.geofence as { _id: string })._id);
    }
    const count = async () =>
      ((await api("GET", `/v1/geofences?limit=1000&search=${marker}`)).body.geofences as unknown[]).length;
    for (const format of ["geojson", "csv"] as const) {
      const exported = (await download(cookie, `/api/geofences/export?format=${format}`)).text;
      // Only this test's rows: the whole world's export holds other tests' geofences too.
      const mine =
        format === "csv"
          ? [exported.split("\n")[0], ...exported.split("\n").filter((l) => l.includes(marker))].join("\n")
          : JSON.stringify({
              type: "FeatureCollection",
              features: (
                JSON.parse(exported) as { features: { properties: { description: string } }[] }
              ).features.filter((f) => f.properties.description.startsWith(marker)),
            });
      const same = await send(cookie, format, mine);
      expect(same.lines.at(-1), format).toEqual({
        meta: { code: 200 },
        created: 0,
        replaced: 0,
        unchanged: 3,
      });
      expect(await count()).toBe(3);
      const edited = await send(cookie, format, mine.replace(`${marker} 1`, `${marker} one`));
      expect(edited.lines.at(-1), format).toEqual({
        meta: { code: 200 },
        created: 0,
        replaced: 1,
        unchanged: 2,
      });
      expect((await api("GET", `/v1/geofences/${ids[1]}`)).body.geofence).toMatchObject({
        description: `${marker} one`,
      });
      await api("PATCH", `/v1/geofences/${ids[1]}`, { json: { description: `${marker} 1` } });
      expect(await count()).toBe(3);
    }
  });

  it("refuses a row that gives a geofence another one's tag and externalId, naming both", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    const tag = unique("taken");
    const held = await api("PUT", `/v1/geofences/${tag}/held`, {
      json: { description: "Holder", type: "circle", coordinates: [3, 3], radius: 50 },
    });
    const other = await api("PUT", `/v1/geofences/${tag}/other`, {
      json: { description: "Other", type: "circle", coordinates: [3.01, 3], radius: 50 },
    });
    const otherId = (other.body.geofence as { _id: string })._id;
    const csv = ["_id,tag,externalId", `${otherId},${tag},held`].join("\n");
    const res = await send(cookie, "csv", csv);
    expect(res.status).toBe(409);
    expect(res.lines[0]).toMatchObject({
      meta: {
        param: "line 2.externalId",
        message: expect.stringContaining((held.body.geofence as { _id: string })._id),
      },
    });
    expect((await api("GET", `/v1/geofences/${otherId}`)).body.geofence).toMatchObject({
      externalId: "other",
    });
  });

  it("refuses a file with one bad row, naming it, and writes nothing", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    const tag = unique("bad");
    const features = Array.from({ length: 5 }, (_, i) => feature(tag, i));
    features[3]!.properties.radius = 5;
    const res = await send(cookie, "geojson", JSON.stringify({ type: "FeatureCollection", features }));
    expect(res.status).toBe(400);
    expect(res.lines[0]).toMatchObject({
      meta: { param: "features[3].radius", message: expect.stringMatching(/^features\[3\]: radius/) },
    });
    expect((await api("GET", `/v1/geofences?tag=${tag}`)).body.geofences).toEqual([]);

    const twice = [feature(tag, 1), feature(tag, 1)];
    const dup = await send(cookie, "geojson", JSON.stringify({ type: "FeatureCollection", features: twice }));
    expect(dup.lines[0]).toMatchObject({
      meta: { param: "features[1].externalId", message: expect.stringMatching(/features\[0\]/) },
    });

    const csv = await send(
      cookie,
      "csv",
      `description,type,coordinates,radius\nA,circle,"[1,2]",100\nB,square,"[1,2]",100\n`,
    );
    expect(csv.status).toBe(400);
    expect(csv.lines[0]).toMatchObject({ meta: { param: "line 3.type" } });
    const line = {
      type: "Feature",
      geometry: {
        type: "LineString",
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
      properties: {},
    };
    const wrong = await send(
      cookie,
      "geojson",
      JSON.stringify({ type: "FeatureCollection", features: [line] }),
    );
    expect(wrong.lines[0]).toMatchObject({
      meta: { param: "features[0].geometry", message: expect.stringMatching(/Point.*Polygon/) },
    });
    expect((await send(cookie, "geojson", "{nope")).lines[0]).toMatchObject({ meta: { param: "file" } });
    expect(
      (await send(cookie, "geojson", '{"type":"FeatureCollection","features":[]}')).lines[0],
    ).toMatchObject({
      meta: { param: "file", message: expect.stringMatching(/no geofences/) },
    });
  });

  it("lets only roles that edit geofences import", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.reviewer, FRESH_PASSWORD);
    const res = await send(
      cookie,
      "geojson",
      JSON.stringify({ type: "FeatureCollection", features: [feature(unique("r"), 1)] }),
    );
    expect(res.status).toBe(403);
    expectError(await api("GET", "/api/geofences/export?format=kml", as(cookie)), 400, "format");
  });
});

describe("event export", () => {
  it("exports every event matching the queue's filters as CSV", async () => {
    const tag = unique("exp");
    const fence = await api("PUT", `/v1/geofences/${tag}/gate`, {
      json: { description: `Gate, ${tag}`, type: "circle", coordinates: [33.3, -20.2], radius: 100 },
    });
    const geofenceId = (fence.body.geofence as { _id: string })._id;
    for (let i = 0; i < 3; i++) {
      await api("POST", "/v1/track", {
        key: keys.publishable,
        json: { deviceId: unique("d"), latitude: -20.2, longitude: 33.3, accuracy: 10 },
      });
    }
    const cookie = await signIn(FRESH_ACCOUNTS.reviewer, FRESH_PASSWORD);
    const out = await download(cookie, `/api/events/export?geofenceId=${geofenceId}&verification=unverified`);
    expect(out.headers.get("content-type")).toMatch(/^text\/csv/);
    const lines = out.text.trim().split("\n");
    expect(lines[0]).toMatch(/^_id,type,createdAt,actualCreatedAt,user\._id/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`"Gate, ${tag}"`);
    expect(lines[1]).toContain("user.entered_geofence");
    expectError(await api("GET", "/api/events/export?verification=maybe", as(cookie)), 400, "verification");
  });
});

describe("dashboard tables", () => {
  it("search, sort and page geofences on the server, empty tags last either way", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.reviewer, FRESH_PASSWORD);
    const word = unique("tbl");
    const names = ["delta", "alpha", "echo", "charlie", "bravo"];
    for (const [i, n] of names.entries()) {
      await api("POST", "/v1/geofences", {
        json: {
          description: `${n} ${word}`,
          type: "circle",
          coordinates: [10, 10],
          radius: 100,
          ...(i < 3 && { tag: `${word}-${n}`, externalId: "x" }),
        },
      });
    }
    const table = async (query: string) => {
      const res = await api("GET", `/api/geofences/table?search=${word}&${query}`, as(cookie));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return {
        names: (res.body.geofences as { description: string }[]).map((g) => g.description.split(" ")[0]),
        total: res.body.total,
      };
    };
    expect(await table("sort=description&dir=asc&size=10")).toEqual({ names: [...names].sort(), total: 5 });
    expect(await table("sort=description&dir=desc&size=10&page=1")).toEqual({
      names: [...names].sort().reverse(),
      total: 5,
    });
    // Untagged ones last, in either direction (then oldest first).
    expect((await table("sort=tag&dir=asc&size=10")).names).toEqual([
      "alpha",
      "delta",
      "echo",
      "charlie",
      "bravo",
    ]);
    expect((await table("sort=tag&dir=desc&size=10")).names).toEqual([
      "echo",
      "delta",
      "alpha",
      "bravo",
      "charlie",
    ]);
    // Pages: two of two rows and one of one.
    expect(await table("sort=description&dir=asc&size=10&page=1")).toMatchObject({ total: 5 });
    const pages = [];
    for (const page of [1, 2, 3])
      pages.push((await table(`sort=description&dir=asc&size=10&page=${page}`)).names);
    expect(pages[1]).toEqual([]);
    expectError(await api("GET", "/api/geofences/table?sort=seq", as(cookie)), 400, "sort");
    expectError(await api("GET", "/api/geofences/table?size=5000", as(cookie)), 400, "size");
  });

  it("search and sort users on the server", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    const word = unique("ppl");
    for (const n of ["b", "c", "a"]) {
      await api("POST", "/v1/track", {
        key: keys.publishable,
        json: { deviceId: `${word}-${n}`, latitude: 1, longitude: 1, accuracy: 10 },
      });
    }
    const res = await api("GET", `/api/users/table?search=${word}&sort=deviceId&dir=asc`, as(cookie));
    expect((res.body.users as { deviceId: string }[]).map((u) => u.deviceId)).toEqual(
      ["a", "b", "c"].map((n) => `${word}-${n}`),
    );
    expect(res.body.total).toBe(3);
    // Reviewers read the users of the events they review, never the list of users.
    const reviewer = await signIn(FRESH_ACCOUNTS.reviewer, FRESH_PASSWORD);
    expect((await api("GET", `/api/users/table?search=${word}`, as(reviewer))).status).toBe(403);
  });
});
