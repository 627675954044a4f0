import { describe, expect, it } from "vitest";
import { circleRing } from "../../geo/circle";
import { type UserWrite, writeOf } from "../../storage/tracking";
import { GEOFENCE_TRACKING, type Membership } from "../../storage/memberships";
import type { StoredUser } from "../../storage/users";
import type { TrackedGeofence } from "../../storage/geofences";
import type { Regions } from "../../geodata/regions";
import type { Fix } from "../fix";
import { type GeofenceState, geofences } from "./geofences";
import { type PlaceState, places } from "./places";
import { regions } from "./regions";
import type { Kind } from "./kind";

/** The kinds' decisions as pure functions: a hand-made state in, events (and writes) out; no database. */

const T0 = new Date("2026-11-01T12:00:00.000Z");
const minutes = (m: number) => new Date(T0.getTime() + m * 60_000);
/** 0.001° of latitude ≈ 111 m. */
const CENTER = { lng: 10, lat: 50 };

function circle(seq: number, radius: number, extra: Partial<TrackedGeofence> = {}): TrackedGeofence {
  const ring = circleRing([CENTER.lng, CENTER.lat], radius);
  return {
    seq,
    id: `g${seq}`,
    live: false,
    description: `fence ${seq}`,
    tag: null,
    externalId: null,
    type: "circle",
    geometry: [ring],
    ring: [],
    centerLng: CENTER.lng,
    centerLat: CENTER.lat,
    radius,
    metadata: null,
    enabled: true,
    dwellThreshold: null,
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  } as TrackedGeofence;
}

const fix = (latOffset: number, at = T0, accuracy = 10, stopped = false): Fix => ({
  latitude: CENTER.lat + latOffset,
  longitude: CENTER.lng,
  accuracy,
  at,
  stopped,
});

const near = (s: Partial<GeofenceState>): GeofenceState => ({ memberships: new Map(), geofences: [], ...s });
const placeState = (s: PlaceState): PlaceState => s;
const regionState = (s: Regions): Regions => s;

const member = (geofenceSeq: number, enteredAt = T0, dwelled = false): [number, Membership] => [
  geofenceSeq,
  { geofenceSeq, enteredAt, dwelled },
];

const user = (extra: Partial<StoredUser> = {}) =>
  ({
    seq: 1,
    id: "u",
    latitude: CENTER.lat,
    longitude: CENTER.lng,
    place: null,
    placeEnteredAt: null,
    ...extra,
  }) as StoredUser;

/** Runs a kind as decide does: its own `next` gives the user after the fix. */
function run<S>(k: Kind<S>, before: StoredUser | null, f: Fix, s: S) {
  const after = { ...(before ?? {}), ...k.next?.(before, f, s) } as UserWrite;
  const found = k.detect({ before, after, fix: f }, s);
  return { after, ...found, memberships: writeOf({ writes: found.writes ?? [] }, GEOFENCE_TRACKING) };
}

describe("the geofence detector", () => {
  const fence = circle(7, 100, { dwellThreshold: 3 });
  it.each([
    ["outside, moving inside", [], 0, ["user.entered_geofence"], { entered: [7], exited: [], dwelled: [] }],
    ["outside, staying outside", [], 0.005, [], { entered: [], exited: [], dwelled: [] }],
    // Hysteresis: an accuracy circle half out does not leave; well outside does.
    ["inside, at the edge", [member(7)], 0.0009, [], { entered: [], exited: [], dwelled: [] }],
    [
      "inside, leaving",
      [member(7)],
      0.003,
      ["user.exited_geofence"],
      { entered: [], exited: [7], dwelled: [] },
    ],
  ] as const)("%s", (_, members, offset, types, changes) => {
    const found = run(
      geofences,
      user(),
      fix(offset),
      near({ memberships: new Map(members), geofences: [fence] }),
    );
    expect(found.events.map((e) => e.type)).toEqual(types);
    expect({
      entered: found.memberships?.entered.map((m) => m.geofenceSeq) ?? [],
      exited: found.memberships?.exited ?? [],
      dwelled: found.memberships?.dwelled ?? [],
    }).toEqual(changes);
  });

  it("dwells once, after the geofence's own threshold, and an exit says how long the visit was", () => {
    const s = (dwelled: boolean) =>
      near({ memberships: new Map([member(7, T0, dwelled)]), geofences: [fence] });
    expect(run(geofences, user(), fix(0, minutes(2)), s(false)).events).toEqual([]);
    const dwell = run(geofences, user(), fix(0, minutes(3)), s(false));
    expect(dwell.events.map((e) => e.type)).toEqual(["user.dwelled_in_geofence"]);
    expect(dwell.memberships!.dwelled).toEqual([7]);
    expect(run(geofences, user(), fix(0, minutes(10)), s(true)).events).toEqual([]);
    const exit = run(geofences, user(), fix(0.01, minutes(12.5)), s(true));
    expect(exit.events[0]).toMatchObject({ type: "user.exited_geofence", duration: 12.5, band: "core" });
  });

  it("makes no event for a disabled geofence, and a user in one is no longer counted inside", () => {
    const off = circle(8, 100, { enabled: false });
    const found = run(
      geofences,
      user(),
      fix(0),
      near({ memberships: new Map([member(8)]), geofences: [off] }),
    );
    expect(found.events).toEqual([]);
    expect(found.memberships!.exited).toEqual([8]);
  });

  it("grades a fix on the boundary as an edge event, less likely than one deep inside", () => {
    const deep = run(geofences, null, fix(0), near({ geofences: [fence] })).events[0]!;
    const edge = run(geofences, null, fix(0.0008, T0, 30), near({ geofences: [fence] })).events[0]!;
    expect(deep).toMatchObject({ band: "core", probability: 1 });
    expect(edge.band).toBe("edge");
    expect(edge.probability).toBeLessThan(0.95);
  });
});

describe("the region detector", () => {
  const fr = { type: "country", name: "France", code: "FR" } as const;
  const de = { type: "country", name: "Germany", code: "DE" } as const;
  const by = { type: "state", name: "Bavaria", code: "BY" } as const;
  it("enters a new user's regions, largest first", () => {
    const found = run(regions, null, fix(0), regionState({ country: de, state: by }));
    expect(
      found.events.map((e) => [e.type, (e.about.region as { code?: string } | null | undefined)?.code]),
    ).toEqual([
      ["user.entered_region_country", "DE"],
      ["user.entered_region_state", "BY"],
    ]);
  });
  it("leaves the old regions (smallest first) before entering the new ones", () => {
    const before = user({ country: de, state: by } as Partial<StoredUser>);
    const found = run(regions, before, fix(0), regionState({ country: fr }));
    expect(found.events.map((e) => e.type)).toEqual([
      "user.exited_region_state",
      "user.exited_region_country",
      "user.entered_region_country",
    ]);
    expect(found.after).toMatchObject({ country: fr, state: null });
  });
  it("keeps the regions at sea (no country found), with no event", () => {
    const before = user({ country: fr } as Partial<StoredUser>);
    const found = run(regions, before, fix(0), regionState({}));
    expect(found.events).toEqual([]);
    expect(found.after).toMatchObject({ country: fr });
  });
});

describe("the place detector", () => {
  const cafe = { oid: "p1", name: "Cafe", categories: ["cafe"], lng: CENTER.lng, lat: CENTER.lat };
  const shop = { oid: "p2", name: "Shop", categories: ["shop"], lng: CENTER.lng, lat: CENTER.lat + 0.0005 };
  const detection = (place: typeof cafe, probability = 0.9) => ({
    place,
    alternates: [],
    probability,
    confidence: 3 as const,
  });
  it("enters the place a stopped user is at", () => {
    const found = run(places, user(), fix(0, T0, 10, true), placeState({ detection: detection(cafe) }));
    expect(
      found.events.map((e) => [
        e.type,
        (e.about.place as { name?: string } | null | undefined)?.name,
        e.probability,
      ]),
    ).toEqual([["user.entered_place", "Cafe", 0.9]]);
    expect(found.after).toMatchObject({ place: { _id: "p1" }, placeEnteredAt: T0 });
  });
  it("stays at its place while near it, and makes no event", () => {
    const at = user({ place: { _id: "p1", name: "Cafe" }, placeEnteredAt: T0 } as Partial<StoredUser>);
    const found = run(places, at, fix(0.0002, minutes(5)), placeState({ currentPlace: cafe }));
    expect(found.events).toEqual([]);
    expect(found.after).toMatchObject({ placeEnteredAt: T0 });
  });
  it("leaves its place when far from it, with the visit's duration", () => {
    const at = user({ place: { _id: "p1", name: "Cafe" }, placeEnteredAt: T0 } as Partial<StoredUser>);
    const found = run(places, at, fix(0.01, minutes(30)), placeState({ currentPlace: cafe }));
    expect(found.events).toEqual([
      expect.objectContaining({ type: "user.exited_place", duration: 30, probability: 1 }),
    ]);
    expect(found.after).toMatchObject({ place: null, placeEnteredAt: null });
  });
  it("leaves one place and enters another when stopped at a different one: the exit first", () => {
    const at = user({ place: { _id: "p1", name: "Cafe" }, placeEnteredAt: T0 } as Partial<StoredUser>);
    const found = run(
      places,
      at,
      fix(0.0005, minutes(20), 10, true),
      placeState({ currentPlace: cafe, detection: detection(shop) }),
    );
    expect(
      found.events.map((e) => [e.type, (e.about.place as { name?: string } | null | undefined)?.name]),
    ).toEqual([
      ["user.exited_place", "Cafe"],
      ["user.entered_place", "Shop"],
    ]);
  });
});
