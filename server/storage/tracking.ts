import type { BBox } from "../geo/distance";
import type { OutboxWrite, WebhookTarget } from "./webhook-records";
import type { StoredUser } from "./users";
import type { GeofenceVersion, TrackedGeofence } from "./geofences";
import type { EventClass, StoredEvent, VerdictCounts } from "./events";
import type { StoredTrip, TripOwner, TripRef, TripWrite } from "./trips";

/* Tracking: what deciding a location update reads, and the plan it writes. */

export interface Membership {
  geofenceSeq: number;
  enteredAt: Date;
  dwelled: boolean;
}

/** A verdict on an earlier place event (it steers place detection there). */
export interface PlaceVerdict {
  placeId: string | null;
  verifiedPlaceId: string | null;
  verification: number;
}

/**
 * What deciding a location update reads, inside the transaction that will apply the decision:
 * it sees every update applied before it, and no other update of the same device runs meanwhile.
 */
export interface TrackingReader {
  userByUserId(live: boolean, userId: string): Promise<StoredUser | null>;
  /** The most recently updated user of a device; with `anonymous`, only one not bound to a userId. */
  userByDeviceId(live: boolean, deviceId: string, anonymous: boolean): Promise<StoredUser | null>;
  memberships(userSeq: number): Promise<Membership[]>;
  /**
   * The versions of the geofences whose box meets `box` and of those with the given seqs (where
   * the user is now): tracking decodes a geofence once per version (server/geofences/decoded.ts).
   */
  geofenceVersionsNear(live: boolean, box: BBox, seqs: readonly number[]): Promise<GeofenceVersion[]>;
  geofencesBySeqs(seqs: readonly number[]): Promise<TrackedGeofence[]>;
  /** The seqs of the geofences of a world with these _ids (those that exist; an anonymous device's own). */
  geofenceSeqsByIds(live: boolean, ids: readonly string[]): Promise<number[]>;
  /** Verdicts on the events of each class (subject, type and band), in the order asked. */
  verificationCounts(live: boolean, classes: readonly EventClass[]): Promise<VerdictCounts[]>;
  /** Verdicts on place events of one world located in `box`. */
  placeVerdictsInBox(live: boolean, box: BBox): Promise<PlaceVerdict[]>;
  /** The enabled webhooks of a world (asked only when an update makes events). */
  webhooksFor(live: boolean): Promise<WebhookTarget[]>;
  /** The trip of a world with this _id or externalId. */
  tripByRef(live: boolean, ref: TripRef): Promise<StoredTrip | null>;
  /** The trip a user (by userId) or a device without one is on: started, approaching or arrived. */
  activeTrip(live: boolean, owner: TripOwner): Promise<StoredTrip | null>;
}

/** The user columns a location update sets. */
export type UserWrite = Omit<StoredUser, "seq" | "id" | "live" | "createdAt">;

/** An event as a location update writes it (unverified). */
export type EventWrite = Omit<
  StoredEvent,
  "seq" | "userSeq" | "verification" | "verifiedAt" | "verifiedPlaceId" | "verifiedPlace"
>;

/** Everything one location update changes, decided before any of it is written. */
export interface TrackingPlan {
  /**
   * `seq` null: a new user with this id and createdAt. null: no user is written (a trip of a user
   * never tracked yet, or an anonymous device's update), and then there are no memberships or
   * location; its events, if any, are of no user (userSeq 0).
   */
  user: {
    seq: number | null;
    id: string;
    live: boolean;
    createdAt: Date;
    /** the user's updatedAt before this update (null: a new user): the overview's counts move it */
    updatedBefore: Date | null;
    write: UserWrite;
  } | null;
  /** the fix kept in the user's history; null for a plan that records none (a conversion) */
  location: {
    latitude: number;
    longitude: number;
    accuracy: number;
    recordedAt: Date;
    receivedAt: Date;
  } | null;
  entered: { geofenceSeq: number; enteredAt: Date }[];
  exited: number[];
  dwelled: number[];
  events: EventWrite[];
  /** the outbox: what these events owe webhooks (null: nothing), written with them */
  outbox: OutboxWrite | null;
  /** trips made (seq null) or changed */
  trips?: TripWrite[];
}

/** The keys the plan's rows were stored under. */
export interface Written {
  userSeq: number;
  eventSeqs: number[];
}

/** A decision about one update: the plan (null: nothing to write) and how to answer once written. */
export interface Decision<T> {
  plan: TrackingPlan | null;
  answer(written: Written | null): T;
}

export interface TrackingStore {
  /**
   * Decides one location update of a device and applies the plan, atomically: `decide` reads
   * through the reader inside the transaction that writes its plan, and no other update of the
   * same device (by deviceId, or userId when given) is decided meanwhile, in this process or any
   * other sharing the database. A failing update fails alone and writes nothing. The adapter
   * owns transactions, locks and batching (SQLite commits concurrent updates together).
   */
  apply<T>(
    device: { live: boolean; deviceId: string; userId: string | null },
    decide: (read: TrackingReader) => Promise<Decision<T>>,
  ): Promise<T>;
}
