import type { BBox } from "../geo/distance";
import type { Json } from "./json";
import { trackingPart } from "./tracking";

/* Beacons: Bluetooth beacons at places, and which of them each user is in now. */

/** A beacon's columns as a write sets them (identity and times are the store's). */
export interface BeaconColumns {
  description: string;
  tag: string | null;
  externalId: string | null;
  /** lowercase */
  uuid: string;
  major: string;
  minor: string;
  longitude: number;
  latitude: number;
  metadata: Json;
  enabled: boolean;
}

export interface StoredBeacon extends BeaconColumns {
  seq: number;
  id: string;
  live: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A beacon by its _id, or by its tag and externalId. */
export type BeaconRef = { id: string } | { tag: string; externalId: string };

/** What a device says it ranged: an iBeacon's identifiers. */
export interface BeaconIdentity {
  uuid: string;
  major: string;
  minor: string;
}

export interface BeaconFilter {
  live: boolean;
  tag?: string;
  createdBefore?: Date;
  createdAfter?: Date;
}

export interface BeaconStore {
  /** null: another beacon of the world has its tag and externalId */
  create(live: boolean, columns: BeaconColumns): Promise<StoredBeacon | null>;
  /** Replaces the beacon with this tag and externalId, or makes it; says which. */
  put(
    live: boolean,
    columns: BeaconColumns & { tag: string; externalId: string },
  ): Promise<{ beacon: StoredBeacon; created: boolean }>;
  /** Sets a beacon's columns (null: no such beacon; "taken": another has its tag and externalId). */
  update(live: boolean, ref: BeaconRef, columns: BeaconColumns): Promise<StoredBeacon | null | "taken">;
  byRef(live: boolean, ref: BeaconRef): Promise<StoredBeacon | null>;
  /** Newest first (createdAt, then _id), at most `take`. */
  list(filter: BeaconFilter, take?: number): Promise<StoredBeacon[]>;
  /** The enabled beacons of a world located in `box` (the caller orders them). */
  inBox(live: boolean, box: BBox): Promise<StoredBeacon[]>;
  /** The distinct UUIDs of a world's enabled beacons (what a device should range). */
  uuids(live: boolean): Promise<string[]>;
  /** The beacons each of these users is in now (as stored), by user seq. */
  ofUsers(userSeqs: readonly number[]): Promise<{ userSeq: number; beacon: StoredBeacon }[]>;
  /** Deletes a beacon and takes its users out of it; false when there was none. */
  delete(live: boolean, ref: BeaconRef): Promise<boolean>;
}

/** A user in a beacon. */
export interface BeaconMembership {
  beaconSeq: number;
  enteredAt: Date;
}

/** What the beacon events read inside an update's transaction. */
export interface BeaconTrackingReader {
  /** The beacons the user is in, with the beacons as stored now. */
  beaconsOf(userSeq: number): Promise<(BeaconMembership & { beacon: StoredBeacon | null })[]>;
  /** The enabled beacons of a world with these identities (those that exist). */
  beaconsRanged(live: boolean, ranged: readonly BeaconIdentity[]): Promise<StoredBeacon[]>;
}

/** Which beacons a user enters and leaves. */
export interface BeaconChanges {
  entered: BeaconMembership[];
  exited: number[];
}

export const BEACON_TRACKING = trackingPart<BeaconTrackingReader, BeaconChanges>("beacons");
