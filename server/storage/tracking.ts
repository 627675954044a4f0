import type { OutboxWrite, WebhookTarget } from "./webhook-records";
import type { StoredUser } from "./users";
import type { EventClass, StoredEvent, VerdictCounts } from "./events";

/* Tracking: what deciding a location update reads, and the plan it writes. */

/**
 * What deciding a location update reads, inside the transaction that will apply the decision:
 * it sees every update applied before it, and no other update of the same device runs meanwhile.
 */
export interface TrackingReader {
  userByUserId(live: boolean, userId: string): Promise<StoredUser | null>;
  /** The most recently updated user of a device; with `anonymous`, only one not bound to a userId. */
  userByDeviceId(live: boolean, deviceId: string, anonymous: boolean): Promise<StoredUser | null>;
  /** Verdicts on the events of each class (subject, type and band), in the order asked. */
  verificationCounts(live: boolean, classes: readonly EventClass[]): Promise<VerdictCounts[]>;
  /** The enabled webhooks of a world (asked only when an update makes events). */
  webhooksFor(live: boolean): Promise<WebhookTarget[]>;
  /** What a kind of event reads of its own (its part's reader, declared in its aggregate's port file). */
  part<R>(part: TrackingPart<R, unknown>): R;
}

/**
 * A kind of event's own share of tracking storage (its memberships, its trips, …): what it reads
 * inside the update's transaction (R) and what its plan writes (W). Declared in the kind's
 * aggregate's port file; each adapter implements it in its file of the same name and lists it
 * in its tracking store. The name is the key its writes travel under in the plan.
 */
export interface TrackingPart<R, W> {
  readonly name: string;
  /** types only: never set */
  readonly types?: { read: R; write: W };
}

export const trackingPart = <R, W>(name: string): TrackingPart<R, W> => ({ name });

/** One part's writes of a plan. */
export interface PartWrite {
  part: string;
  write: unknown;
}

/** `write` as the plan's writes of `part`. */
export const partWrite = <W>(part: TrackingPart<unknown, W>, write: W): PartWrite => ({
  part: part.name,
  write,
});

/** What a plan writes of `part` (undefined: nothing). */
export const writeOf = <W>(
  plan: { writes: readonly PartWrite[] },
  part: TrackingPart<unknown, W>,
): W | undefined => plan.writes.find((w) => w.part === part.name)?.write as W | undefined;

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
  events: EventWrite[];
  /** the outbox: what these events owe webhooks (null: nothing), written with them */
  outbox: OutboxWrite | null;
  /** what the kinds write of their own parts (at most one entry per part) */
  writes: PartWrite[];
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
