import { describe, expect, inject, it } from "vitest";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../../scripts/fresh-server";
import { api, expectError, keys, signIn, unique } from "../support/api";

/**
 * The geofence fields Radar accepts beyond the spec: `userIds` (only those
 * users make events), `stopDetection` (entries only while stopped), `disableAfter` and
 * `deleteAfter` (honoured at that time, without a request), kept through edits, import and export.
 */

type Geofence = {
  _id: string;
  enabled: boolean;
  userIds?: string[];
  stopDetection?: boolean;
  disableAfter?: string;
  deleteAfter?: string;
};
type Answer = {
  events: { type: string; geofence?: { _id: string } }[];
  user: { geofences: { _id: string }[] };
};

/** A spot of its own in the open South Pacific (no region events there), per test. */
const spot = () => ({ lat: -45 + Math.random() * 5, lng: -125 + Math.random() * 5 });

async function circle(at: { lat: number; lng: number }, extra: Record<string, unknown> = {}) {
  const res = await api("POST", "/v1/geofences", {
    json: { description: "Depot", type: "circle", coordinates: [at.lng, at.lat], radius: 200, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.geofence as Geofence;
}

async function track(body: Record<string, unknown>) {
  const res = await api("POST", "/v1/track", { key: keys.publishable, json: { accuracy: 5, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as Answer;
}

const entered = (a: Answer, id: string) =>
  a.events.filter((e) => e.type === "user.entered_geofence" && e.geofence?._id === id).length;

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 8_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("geofence fields Radar accepts", () => {
  it("stores, answers and clears userIds, stopDetection, disableAfter and deleteAfter, and refuses bad ones", async () => {
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const g = await circle(spot(), {
      userIds: ["courier-1", "courier-2", "courier-1"],
      stopDetection: true,
      disableAfter: later,
      deleteAfter: later,
    });
    expect(g).toMatchObject({
      userIds: ["courier-1", "courier-2"],
      stopDetection: true,
      disableAfter: later,
      deleteAfter: later,
      enabled: true,
    });
    expect((await api("GET", `/v1/geofences/${g._id}`)).body.geofence).toMatchObject({
      userIds: ["courier-1", "courier-2"],
    });
    // A partial update keeps them; null clears them.
    const kept = await api("PATCH", `/v1/geofences/${g._id}`, { json: { description: "Depot B" } });
    expect(kept.body.geofence).toMatchObject({ stopDetection: true, deleteAfter: later });
    const cleared = await api("PATCH", `/v1/geofences/${g._id}`, {
      json: { userIds: null, stopDetection: false, disableAfter: null, deleteAfter: "" },
    });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    const c = cleared.body.geofence as Geofence;
    for (const k of ["userIds", "stopDetection", "disableAfter", "deleteAfter"] as const)
      expect(c[k]).toBeUndefined();

    const at = spot();
    const body = { description: "x", type: "circle", coordinates: [at.lng, at.lat], radius: 100 };
    expectError(await api("POST", "/v1/geofences", { json: { ...body, userIds: [1, 2] } }), 400, "userIds");
    expectError(await api("POST", "/v1/geofences", { json: { ...body, userIds: { a: 1 } } }), 400, "userIds");
    const many = Array.from({ length: 101 }, (_, i) => `u${i}`);
    expectError(await api("POST", "/v1/geofences", { json: { ...body, userIds: many } }), 400, "userIds");
    expectError(
      await api("POST", "/v1/geofences", { json: { ...body, stopDetection: "maybe" } }),
      400,
      "stopDetection",
    );
    expectError(
      await api("POST", "/v1/geofences", { json: { ...body, disableAfter: "next week" } }),
      400,
      "disableAfter",
    );
    expectError(
      await api("POST", "/v1/geofences", { json: { ...body, deleteAfter: true } }),
      400,
      "deleteAfter",
    );
  });

  it("makes events only for the users a geofence names, and leaves it out of the others' nearby geofences", async () => {
    const at = spot();
    const tag = unique("only");
    const g = await circle(at, { userIds: [`${tag}-alice`] });
    const bob = await track({
      deviceId: `${tag}-b`,
      userId: `${tag}-bob`,
      latitude: at.lat,
      longitude: at.lng,
      nearbyGeofences: true,
    });
    expect(entered(bob, g._id)).toBe(0);
    expect(bob.user.geofences).toEqual([]);
    expect(
      ((bob as unknown as { nearbyGeofences: Geofence[] }).nearbyGeofences ?? []).map((n) => n._id),
    ).not.toContain(g._id);
    const alice = await track({
      deviceId: `${tag}-a`,
      userId: `${tag}-alice`,
      latitude: at.lat,
      longitude: at.lng,
      nearbyGeofences: true,
    });
    expect(entered(alice, g._id)).toBe(1);
    expect((alice as unknown as { nearbyGeofences: Geofence[] }).nearbyGeofences.map((n) => n._id)).toContain(
      g._id,
    );
    // The SDKs' offline sync leaves it out for bob too.
    const sync = async (userId: string) =>
      (
        (
          await api("POST", "/v1/sync/region", {
            key: keys.publishable,
            json: { latitude: at.lat, longitude: at.lng, userId },
          })
        ).body.geofences as Geofence[]
      ).map((x) => x._id);
    expect(await sync(`${tag}-bob`)).not.toContain(g._id);
    expect(await sync(`${tag}-alice`)).toContain(g._id);
    // Naming other users later takes alice out of it, without an event.
    await api("PATCH", `/v1/geofences/${g._id}`, { json: { userIds: [`${tag}-carol`] } });
    const user = (await api("GET", `/v1/users/${tag}-alice`)).body.user as { geofences: { _id: string }[] };
    expect(user.geofences.map((x) => x._id)).not.toContain(g._id);
    const events = (await api("GET", `/v1/events?geofenceId=${g._id}`)).body.events as { type: string }[];
    expect(events.map((e) => e.type)).toEqual(["user.entered_geofence"]);
  });

  it("with stopDetection, enters a user who stops in it, not one passing through", async () => {
    const at = spot();
    const device = unique("stop");
    const g = await circle(at, { stopDetection: true });
    const passing = await track({ deviceId: device, latitude: at.lat, longitude: at.lng, stopped: false });
    expect(entered(passing, g._id)).toBe(0);
    const stopped = await track({ deviceId: device, latitude: at.lat, longitude: at.lng, stopped: true });
    expect(entered(stopped, g._id)).toBe(1);
    // Once in, moving about inside does not exit it.
    const moving = await track({ deviceId: device, latitude: at.lat, longitude: at.lng, stopped: false });
    expect(moving.user.geofences.map((x) => x._id)).toContain(g._id);
  });

  it("disables a geofence at its disableAfter and deletes one at its deleteAfter, without a request", async () => {
    const at = spot();
    const device = unique("expiry");
    const soon = () => new Date(Date.now() + 1_500).toISOString();
    const disabling = await circle(at, { disableAfter: soon() });
    const deleting = await circle(at, { deleteAfter: soon() });
    const inside = await track({ deviceId: device, latitude: at.lat, longitude: at.lng });
    expect(inside.user.geofences.map((x) => x._id).sort()).toEqual([disabling._id, deleting._id].sort());

    const disabled = await until(
      async () => (await api("GET", `/v1/geofences/${disabling._id}`)).body.geofence as Geofence,
      (g) => !g.enabled,
    );
    expect(disabled.enabled).toBe(false);
    const gone = await until(
      async () => (await api("GET", `/v1/geofences/${deleting._id}`)).status,
      (s) => s === 404,
    );
    expect(gone).toBe(404);
    // The user is in neither any more, and no event was made for it.
    const user = (await api("GET", `/v1/users/${device}`)).body.user as { geofences: unknown[] };
    expect(user.geofences).toEqual([]);
    const events = (await api("GET", `/v1/events?geofenceId=${disabling._id}`)).body.events as {
      type: string;
    }[];
    expect(events.map((e) => e.type)).toEqual(["user.entered_geofence"]);
    // A geofence past its disableAfter makes no events even before the sweeper gets to it.
    const past = await circle(spot(), { disableAfter: new Date(Date.now() - 1000).toISOString() });
    const c = (past as unknown as { geometryCenter: { coordinates: [number, number] } }).geometryCenter
      .coordinates;
    const late = await track({ deviceId: unique("late"), latitude: c[1], longitude: c[0] });
    expect(entered(late, past._id)).toBe(0);
  });

  it("exports the fields and imports them back (CSV and GeoJSON)", async () => {
    const tag = unique("fields-io");
    const at = spot();
    const later = new Date(Date.now() + 86_400_000).toISOString();
    await api("PUT", `/v1/geofences/${tag}/a`, {
      json: {
        description: "A",
        type: "circle",
        coordinates: [at.lng, at.lat],
        radius: 100,
        userIds: ["u1", "u2"],
        stopDetection: true,
        deleteAfter: later,
      },
    });
    const cookie = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    const base = inject("baseUrl");
    const csv = await (
      await fetch(`${base}/api/geofences/export?format=csv&tag=${tag}`, { headers: { cookie } })
    ).text();
    const [header, line] = csv.trim().split("\n");
    expect(header).toContain("userIds,stopDetection,disableAfter,deleteAfter");
    expect(line).toContain(`"u1,u2",true,,${later}`);
    // The same file, edited: other users, no deleteAfter; and a GeoJSON feature with them.
    const edited = `${header}\n${line!.replace('"u1,u2"', '"u3"').replace(later, "")}`;
    const imported = await fetch(`${base}/api/geofences/import?format=csv`, {
      method: "POST",
      headers: { cookie, origin: base, "content-type": "text/csv" },
      body: edited,
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const after = (await api("GET", `/v1/geofences/${tag}/a`)).body.geofence as Geofence;
    expect(after).toMatchObject({ userIds: ["u3"], stopDetection: true });
    expect(after.deleteAfter).toBeUndefined();
    const feature = {
      type: "Feature",
      geometry: { type: "Point", coordinates: [at.lng, at.lat] },
      properties: {
        description: "B",
        tag,
        externalId: "b",
        radius: 50,
        userIds: ["u9"],
        disableAfter: later,
      },
    };
    const geojson = await fetch(`${base}/api/geofences/import?format=geojson`, {
      method: "POST",
      headers: { cookie, origin: base, "content-type": "application/geo+json" },
      body: JSON.stringify(feature),
    });
    expect(geojson.status, await geojson.clone().text()).toBe(200);
    expect((await api("GET", `/v1/geofences/${tag}/b`)).body.geofence).toMatchObject({
      userIds: ["u9"],
      disableAfter: later,
    });
  });
});
