import type { AuthKey } from "../../auth/keys";
import type { Band } from "../../events/confidence";
import type { EventWrite, PartWrite, TrackingPart, TrackingReader, UserWrite } from "../../storage/tracking";
import type { StoredUser } from "../../storage/users";
import type { Clock } from "../clock";
import type { Fix } from "../fix";
import type { TrackInput } from "../schema";

/**
 * A kind of event (geofences, places, regions, trips): one module that reads what it needs for an
 * update (its own part of storage, through `read.part(...)`, and the states of kinds it uses),
 * decides purely from the user before and after the update and the fix, and says what it writes
 * (its part's writes, carried in the plan under the part's name) and what the user's answer shows
 * of it. The tracking core (../decide.ts) runs every kind listed in ./index.ts and names none.
 */
export interface Kind<S> {
  readonly name: string;
  /** the parts of storage it reads and writes (each engine implements them: server/db/<engine>/kinds.ts) */
  readonly parts: readonly TrackingPart<unknown, unknown>[];
  /** Before the update's transaction, for slow work (a road ETA): what it finds reaches `load`. */
  prepare?(live: boolean, input: TrackInput): Promise<unknown>;
  /** What the kind needs to decide, read inside the update's transaction. */
  load(u: Update, prepared: unknown): Promise<S>;
  /**
   * An anonymous device's update (../anonymous.ts): the state the device sent of this kind instead
   * of a stored one, and the fields of the user before the update it implies. A kind without it
   * is not tracked for anonymous devices.
   */
  sent?(u: Update, input: TrackInput): Promise<{ state: S; before?: Partial<UserWrite> }>;
  /** The user fields this kind keeps, as they are after the fix (leave it out when none). */
  next?(
    before: StoredUser | null,
    fix: Fix,
    state: S,
  ): Partial<Omit<UserWrite, "actualUpdatedAt" | "updatedAt">>;
  detect(change: Change, state: S): Detected;
  /** What the wire form of a stored user shows of this kind, when no update decides it. */
  stored?(read: TrackingReader, user: StoredUser): Promise<Shown>;
  /** The same for users of one world read outside tracking (the users API), all at once, in order. */
  storedMany?(users: readonly StoredUser[]): Promise<Shown[]>;
}

/** A kind's state loaded for an update, by kind. */
export type Loaded = <S>(kind: Kind<S>) => S;

/** One location update, as a kind loads what it needs for it. */
export interface Update {
  read: TrackingReader;
  key: Pick<AuthKey, "live" | "kind">;
  fix: Fix;
  before: StoredUser | null;
  /** who the user is after the update */
  userId: string | null;
  deviceId: string;
  /** the request names the device of the user's last update, or made the user (../visible.ts) */
  owned: boolean;
  clock: Clock;
  /** the states of the kinds listed before this one */
  loaded: Loaded;
}

export interface Change {
  before: StoredUser | null;
  /** the user's fields after the update (every kind's `next` applied) */
  after: UserWrite;
  fix: Fix;
}

/** Fields of the user's wire form (`geofences`, `trip`, …), as the kinds that show them give them. */
export type Shown = Record<string, unknown>;

export interface Detected {
  events: EventDraft[];
  /** what the kind writes of its part of storage */
  writes?: PartWrite[];
  /** what the user's answer shows of the kind after the update */
  shown?: Shown;
}

/**
 * An event as a kind sees it: its type, what it is about (the event's columns), the class its
 * verdicts are pooled over (../../events/subject.ts; null: graded on geometry alone), and how
 * likely from geometry alone.
 */
export interface EventDraft {
  type: string;
  about: EventAbout;
  subject: string | null;
  probability: number;
  band: Band;
  /** minutes (exits) */
  duration: number | null;
}

/** The columns of an event that say what it is about. */
export type EventAbout = Partial<
  Pick<
    EventWrite,
    "geofenceId" | "geofence" | "placeId" | "place" | "alternatePlaces" | "region" | "trip" | "kindFields"
  >
>;

/** Minutes from one time to a later one, to the hundredth (a visit's duration). */
export const minutesBetween = (from: Date, to: Date) =>
  Math.round(Math.max(0, (to.getTime() - from.getTime()) / 60_000) * 100) / 100;
