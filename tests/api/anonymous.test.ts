import { describe, expect, it } from "vitest";
import { api, keys, unique } from "../support/api";
import { dbNumber, dbUsersAt } from "../support/db";

/**
 * Anonymous tracking as Radar's SDKs send it (`anonymous: true`, `deviceId: "anonymous"`, and the
 * state the device keeps: `geofenceIds`, `placeId`, `regionIds`): nothing of the device is stored
 * or read, its events come from the state it sent, and two anonymous devices never see each other.
 */

type Wire = Record<string, unknown>;
type Answer = { user: Wire & { geofences: Wire[] }; events: (Wire & { type: string })[] };

// An area of its own (southern Finland): no other test puts geofences here, so the device's
// geofences are this file's alone on the shared server.
const base = { lat: 61 + Math.random() * 0.3, lng: 24.5 + Math.random() * 0.3 };

async function fence(at: { lat: number; lng: number }) {
  const res = await api("POST", "/v1/geofences", {
    json: { description: unique("anon-fence"), type: "circle", coordinates: [at.lng, at.lat], radius: 100 },
  });
  expect(res.status).toBe(200);
  return res.body.geofence as Wire & { _id: string };
}

/** What the Android SDK sends in anonymous mode, with the state its last answer left. */
async function anonymous(
  at: { lat: number; lng: number },
  state: { geofenceIds?: string[]; regionIds?: string[] } = {},
) {
  const res = await api("POST", "/v1/track", {
    key: keys.publishable,
    json: {
      anonymous: true,
      deviceId: "anonymous",
      geofenceIds: state.geofenceIds ?? [],
      regionIds: state.regionIds ?? [],
      latitude: at.lat,
      longitude: at.lng,
      accuracy: 10,
      foreground: true,
      stopped: false,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as Answer;
}

/** The state the SDK keeps from an answer (RadarState: geofenceIds, regionIds). */
const stateOf = (a: Answer) => ({
  geofenceIds: a.user.geofences.map((g) => g._id as string),
  regionIds: ["country", "state", "dma", "postalCode"].flatMap((k) =>
    a.user[k] ? [(a.user[k] as { _id: string })._id] : [],
  ),
});

const geofenceTypes = (a: Answer, id: string) =>
  a.events.filter((e) => (e.geofence as Wire | undefined)?._id === id).map((e) => e.type);

describe("anonymous tracking", () => {
  it("stores no user and makes events from the state each device sends, never from another's", async () => {
    const g = await fence(base);
    const away = { lat: base.lat + 0.05, lng: base.lng };

    // Device A arrives: it enters, and learns it is in the geofence.
    const a1 = await anonymous(base);
    expect(geofenceTypes(a1, g._id)).toEqual(["user.entered_geofence"]);
    expect(a1.user.geofences.map((x) => x._id)).toEqual([g._id]);
    expect(a1.user).toMatchObject({ deviceId: "anonymous", location: { coordinates: [base.lng, base.lat] } });
    expect(a1.user.userId).toBeUndefined();

    // Device B, elsewhere, knows nothing of A: not in the geofence, no exit from it.
    const b1 = await anonymous(away);
    expect(b1.user.geofences).toEqual([]);
    expect(geofenceTypes(b1, g._id)).toEqual([]);

    // A stays (it says it is in): nothing new. Then it leaves: an exit.
    const a2 = await anonymous(base, stateOf(a1));
    expect(geofenceTypes(a2, g._id)).toEqual([]);
    expect(a2.user.geofences.map((x) => x._id)).toEqual([g._id]);
    const a3 = await anonymous(away, stateOf(a2));
    expect(geofenceTypes(a3, g._id)).toEqual(["user.exited_geofence"]);

    // B arrives on its own state: its own entry, though A was just there.
    const b2 = await anonymous(base, stateOf(b1));
    expect(geofenceTypes(b2, g._id)).toEqual(["user.entered_geofence"]);

    // No user, history or membership was written; the events are stored under no user.
    for (const at of [base, away]) expect(await dbUsersAt(at)).toBe(0);
    expect(await dbNumber(`SELECT COUNT(*) AS n FROM "User" WHERE "deviceId" = ?`, "anonymous")).toBe(0);
    const stored = await api("GET", `/v1/events?geofenceId=${g._id}`);
    const list = stored.body.events as Wire[];
    expect(list).toHaveLength(3);
    for (const e of list) expect(e.user).toEqual({ deviceId: "anonymous" });
  });

  it("keeps regions by the _ids the device sends back, and names the region it left", async () => {
    const zurich = { lat: 47.3769, lng: 8.5417 };
    const vienna = { lat: 48.2082, lng: 16.3738 };
    const first = await anonymous(zurich);
    expect(first.events.map((e) => e.type)).toContain("user.entered_region_country");
    expect(first.user.country).toMatchObject({ code: "CH", _id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const again = await anonymous(zurich, stateOf(first));
    expect(again.events.map((e) => e.type)).not.toContain("user.entered_region_country");
    const moved = await anonymous(vienna, stateOf(again));
    const countries = moved.events.filter((e) => e.type.endsWith("_region_country"));
    expect(countries.map((e) => [e.type, (e.region as Wire).code])).toEqual([
      ["user.exited_region_country", "CH"],
      ["user.entered_region_country", "AT"],
    ]);
  });

  it("refuses state that is not a list of ids, naming the field", async () => {
    const res = await api("POST", "/v1/track", {
      key: keys.publishable,
      json: {
        anonymous: true,
        deviceId: "anonymous",
        latitude: 1,
        longitude: 1,
        accuracy: 5,
        geofenceIds: [1, 2],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.meta.param).toBe("geofenceIds");
  });
});
