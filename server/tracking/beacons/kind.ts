import { storage } from "../../storage";
import {
  BEACON_TRACKING,
  type BeaconChanges,
  type BeaconIdentity,
  type BeaconMembership,
  type StoredBeacon,
} from "../../storage/beacons";
import { partWrite } from "../../storage/tracking";
import type { EventDraft, Kind } from "../kinds/kind";
import { minutesBetween } from "../kinds/kind";
import { rangedIdentities, serializeBeacon } from "./schema";

export interface BeaconState {
  /** the beacons the user is in (a beacon deleted since: null) */
  inside: (BeaconMembership & { beacon: StoredBeacon | null })[];
  /** the enabled beacons the device ranged now; null: the update says nothing of beacons */
  ranged: StoredBeacon[] | null;
}

const beaconEvent = (type: string, b: StoredBeacon, duration: number | null): EventDraft => ({
  type,
  about: { kindFields: { beacon: serializeBeacon(b) } as EventDraft["about"]["kindFields"] },
  subject: `beacon:${b.id}`,
  // A beacon in range is a fact the device observed, not an estimate from geometry.
  probability: 1,
  band: "core",
  duration,
});

const shown = (beacons: StoredBeacon[]) => ({ beacons: beacons.map(serializeBeacon) });

/**
 * Beacons (docs/beacons.md): a device that ranges beacons sends what it ranged with its update
 * (the track body's `beacons`: uuid, major, minor); the user enters each enabled beacon of the
 * world it ranged and was not in, and exits each it was in and no longer ranges (or that was
 * disabled or deleted). An update without `beacons` changes nothing of them. The user's answer
 * shows the beacons it is in.
 */
export const beacons: Kind<BeaconState> = {
  name: "beacons",
  parts: [BEACON_TRACKING],
  // What the device ranged, from the body (the transaction reads the beacons it names).
  prepare: async (_live, input) => input.beacons,
  async load({ read, key, before }, prepared) {
    const part = read.part(BEACON_TRACKING);
    const ranged = prepared as BeaconIdentity[] | undefined;
    return {
      inside: before ? await part.beaconsOf(before.seq) : [],
      ranged: ranged ? await part.beaconsRanged(key.live, rangedIdentities(ranged)) : null,
    };
  },
  detect({ fix }, { inside, ranged }) {
    const stays = (m: BeaconState["inside"][number]) => !!m.beacon?.enabled;
    if (!ranged) return { events: [], shown: shown(inside.filter(stays).map((m) => m.beacon!)) };
    const now = new Map(ranged.map((b) => [b.seq, b]));
    const was = new Set(inside.map((m) => m.beaconSeq));
    const events: EventDraft[] = [];
    const changes: BeaconChanges = { entered: [], exited: [] };
    for (const m of inside) {
      if (now.has(m.beaconSeq) && stays(m)) continue;
      changes.exited.push(m.beaconSeq);
      if (m.beacon)
        events.push(beaconEvent("user.exited_beacon", m.beacon, minutesBetween(m.enteredAt, fix.at)));
    }
    for (const b of now.values()) {
      if (was.has(b.seq)) continue;
      changes.entered.push({ beaconSeq: b.seq, enteredAt: fix.at });
      events.push(beaconEvent("user.entered_beacon", b, null));
    }
    const changed = changes.entered.length || changes.exited.length;
    return {
      events,
      writes: changed ? [partWrite(BEACON_TRACKING, changes)] : [],
      shown: shown([...now.values()]),
    };
  },
  async stored(read, user) {
    const inside = await read.part(BEACON_TRACKING).beaconsOf(user.seq);
    return shown(inside.flatMap((m) => (m.beacon?.enabled ? [m.beacon] : [])));
  },
  async storedMany(users) {
    const found = await storage().beacons.ofUsers(users.map((u) => u.seq));
    return users.map((u) =>
      shown(found.filter((m) => m.userSeq === u.seq && m.beacon.enabled).map((m) => m.beacon)),
    );
  },
};
