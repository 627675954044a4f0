import { describe, expect, it } from "vitest";
import type { StoredBeacon } from "../../storage/beacons";
import { BEACON_TRACKING } from "../../storage/beacons";
import { type UserWrite, writeOf } from "../../storage/tracking";
import type { Fix } from "../fix";
import { type BeaconState, beacons } from "./kind";

/** The beacon kind's decision as a pure function: what it was in and what was ranged in, events and writes out. */

const T0 = new Date("2026-11-29T10:00:00Z");
const fix: Fix = {
  latitude: 46.5,
  longitude: 6.6,
  accuracy: 10,
  at: new Date(T0.getTime() + 7 * 60_000),
  stopped: true,
};

const beacon = (seq: number, enabled = true): StoredBeacon => ({
  seq,
  id: `b${seq}`,
  live: false,
  description: `beacon ${seq}`,
  tag: null,
  externalId: null,
  uuid: "f7826da6-4fa2-4e98-8024-bc5b71e0893e",
  major: "1",
  minor: String(seq),
  longitude: 6.6,
  latitude: 46.5,
  metadata: null,
  enabled,
  createdAt: T0,
  updatedAt: T0,
});

const run = (state: BeaconState) => {
  const found = beacons.detect({ before: null, after: {} as UserWrite, fix }, state);
  const changes = writeOf({ writes: found.writes ?? [] }, BEACON_TRACKING);
  return {
    events: found.events.map((e) => [
      e.type,
      (e.about.kindFields as { beacon: { _id: string } }).beacon._id,
      e.duration,
    ]),
    entered: changes?.entered.map((m) => m.beaconSeq) ?? [],
    exited: changes?.exited ?? [],
    shown: (found.shown!.beacons as { _id: string }[]).map((b) => b._id),
  };
};
const inside = (b: StoredBeacon | null, seq = b!.seq) => ({ beaconSeq: seq, enteredAt: T0, beacon: b });

describe("the beacon kind", () => {
  it("enters what is ranged and exits what is no longer ranged, with how long the user was in it", () => {
    expect(run({ inside: [inside(beacon(1))], ranged: [beacon(2)] })).toEqual({
      events: [
        ["user.exited_beacon", "b1", 7],
        ["user.entered_beacon", "b2", null],
      ],
      entered: [2],
      exited: [1],
      shown: ["b2"],
    });
  });

  it("changes nothing when the update says nothing of beacons, and shows only enabled ones", () => {
    expect(run({ inside: [inside(beacon(1)), inside(beacon(3, false))], ranged: null })).toEqual({
      events: [],
      entered: [],
      exited: [],
      shown: ["b1"],
    });
  });

  it("exits a beacon disabled since, and drops one deleted since without an event", () => {
    expect(
      run({ inside: [inside(beacon(3, false)), inside(null, 4), inside(beacon(1))], ranged: [beacon(1)] }),
    ).toEqual({ events: [["user.exited_beacon", "b3", 7]], entered: [], exited: [3, 4], shown: ["b1"] });
  });
});
