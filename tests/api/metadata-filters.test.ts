import { describe, expect, it } from "vitest";
import { api, expectError, keys, unique } from "../support/api";

/**
 * Filters Radar's clients rely on: metadata[key]=value on geofence lists and on
 * geofence and user search, externalId and the updated window on geofence lists.
 */

type Geofence = { _id: string; externalId: string; updatedAt: string };
const spot = { lat: 64.1 + Math.random() * 0.05, lng: -21.9 + Math.random() * 0.05 };
const ids = (res: { body: Record<string, unknown> }, field = "geofences") =>
  (res.body[field] as Geofence[]).map((g) => g.externalId).sort();

describe("metadata and identity filters", () => {
  const tag = unique("meta");
  const made: Record<string, Geofence> = {};

  it("lists geofences by metadata, read as the type stored, by externalId and by when they changed", async () => {
    for (const [externalId, metadata] of [
      ["a", { floor: 3, open: true, kind: "store" }],
      ["b", { floor: "3", kind: "kiosk" }],
      ["c", { floor: 4 }],
      ["d", null],
    ] as const) {
      const res = await api("POST", "/v1/geofences", {
        json: {
          description: `zone ${externalId}`,
          tag,
          externalId,
          type: "circle",
          coordinates: [spot.lng, spot.lat],
          radius: 100,
          ...(metadata && { metadata }),
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      made[externalId] = res.body.geofence as Geofence;
    }
    const list = (q: string) => api("GET", `/v1/geofences?tag=${tag}&${q}`);
    expect(ids(await list("metadata[floor]=3"))).toEqual(["a", "b"]);
    expect(ids(await list("metadata[floor]=3&metadata[kind]=store"))).toEqual(["a"]);
    expect(ids(await list("metadata[open]=true"))).toEqual(["a"]);
    expect(ids(await list("metadata[floor]=4"))).toEqual(["c"]);
    expect(ids(await list("metadata[nothing]=x"))).toEqual([]);
    expect(ids(await list(`metadata[kind]=${encodeURIComponent("kiosk")}`))).toEqual(["b"]);
    expect(ids(await list("externalId=c"))).toEqual(["c"]);

    // Changed after c was made: a, edited now.
    const edited = await api("PATCH", `/v1/geofences/${made.a!._id}`, { json: { description: "edited" } });
    expect(edited.status).toBe(200);
    expect(ids(await list(`updatedAfter=${made.d!.updatedAt}`))).toEqual(["a"]);
    expect(ids(await list(`updatedBefore=${made.c!.updatedAt}`))).toEqual(["b"]);

    expectError(await list("metadata[]=x"), 400, "metadata[]");
    expectError(await list('metadata[a"b]=x'), 400, 'metadata[a"b]');
  });

  it("searches geofences and users by metadata", async () => {
    const near = `near=${spot.lat},${spot.lng}&radius=500`;
    expect(ids(await api("GET", `/v1/search/geofences?${near}&tags=${tag}&metadata[kind]=kiosk`))).toEqual([
      "b",
    ]);
    expect(ids(await api("GET", `/v1/search/geofences?${near}&tags=${tag}&metadata[floor]=3`))).toEqual([
      "a",
      "b",
    ]);

    const team = unique("team");
    for (const [deviceId, color] of [
      [unique("red"), "red"],
      [unique("blue"), "blue"],
    ] as const) {
      const res = await api("POST", "/v1/track", {
        key: keys.publishable,
        json: { deviceId, latitude: spot.lat, longitude: spot.lng, accuracy: 10, metadata: { team, color } },
      });
      expect(res.status).toBe(200);
    }
    const users = await api("GET", `/v1/search/users?${near}&metadata[team]=${team}&metadata[color]=red`);
    expect(users.status, JSON.stringify(users.body)).toBe(200);
    expect((users.body.users as { metadata: { color: string } }[]).map((u) => u.metadata.color)).toEqual([
      "red",
    ]);
  });
});
