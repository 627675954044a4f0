import type { MetadataFilter } from "./metadata-filter";
/**
 * Storage as the domain sees it (issue 15): one async interface per concern, in the domain's
 * own types. Only adapters (server/db/<engine>/) know a driver, SQL, transactions and locks; the
 * domain gets the adapter the configuration names from `storage()` (./index.ts).
 *
 * Every concern is behind the port: API keys, settings, accounts, sessions, the sign-in
 * throttle, geofences (reads, writes, imports and spatial search), users, events and the
 * tracking store. The lint rule in eslint.config.mjs keeps the domain off drivers and Prisma.
 * (The imported bundles are read-only files of their own, read where they are used.)
 */

import type { BBox, Position } from "../geo/distance";
import type {
  ClaimedDelivery,
  DeliveryWrite,
  OwnRequest,
  FinishedAttempt,
  GEOFENCE_SORTS,
  OutboxWrite,
  OwnOutbox,
  GeofenceColumns,
  GeofenceFields,
  StoredDelivery,
  StoredEvent,
  StoredGeofence,
  StoredOutbox,
  StoredTrip,
  StoredUser,
  StoredWebhook,
  USER_SORTS,
  WebhookTarget,
} from "./records";
import type { OverviewStore } from "./overview";
import type { SystemStore } from "./system";
export type { OverviewStore } from "./overview";
export type { SystemStore } from "./system";

export type {
  AttemptOutcome,
  ClaimedDelivery,
  DeliveryStatus,
  DeliveryWrite,
  OwnRequest,
  FinishedAttempt,
  GeofenceColumns,
  GeofenceFields,
  IsochroneMaking,
  Json,
  OutboxWrite,
  OwnOutbox,
  StoredDelivery,
  StoredEvent,
  StoredGeofence,
  StoredOutbox,
  StoredTrip,
  StoredUser,
  StoredWebhook,
  WebhookTarget,
} from "./records";
export { GEOFENCE_SORTS, USER_SORTS } from "./records";

export type KeyKind = "secret" | "publishable";

/** An API key as stored: never the key itself, only its hash and first characters. */
export interface StoredKey {
  id: string;
  kind: KeyKind;
  live: boolean;
  name: string | null;
  /** the key's first 16 characters, to recognise it */
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface KeyStore {
  /** Stores a new key by its hash. */
  create(key: {
    id: string;
    kind: KeyKind;
    live: boolean;
    name: string | null;
    prefix: string;
    hash: string;
  }): Promise<StoredKey>;
  /** Every key, newest first. */
  list(): Promise<StoredKey[]>;
  /** The key with this hash (every authenticated request asks: adapters answer in microseconds). */
  byHash(hash: string): Promise<StoredKey | null>;
  /** As byHash, with the keys' version read in the same statement (what a cache may keep it under). */
  byHashWithVersion(hash: string): Promise<{ key: StoredKey | null; version: string }>;
  byId(id: string): Promise<StoredKey | null>;
  /** Marks a key revoked (once: a revoked key keeps its first revocation time). */
  revoke(id: string, at: Date): Promise<StoredKey | null>;
  /** Records that a key was used. */
  markUsed(id: string, at: Date): Promise<void>;
  /**
   * A number every change of a key (created, revoked, removed) raises in its own transaction:
   * processes that cache keys compare it to drop their cache.
   */
  version(): Promise<string>;
}

export interface SettingStore {
  /** A setting's stored text, or null when it was never set. */
  get(key: string): Promise<string | null>;
  /** Sets several settings in one change. */
  set(values: Record<string, string>, at: Date): Promise<void>;
}

/** A dashboard account. */
export interface StoredAccount {
  id: string;
  /** lower case */
  email: string;
  /** "admin", "analyst" or "reviewer" (server/auth/roles.ts) */
  role: string;
  /** scrypt, with its parameters and salt (server/auth/passwords.ts) */
  passwordHash: string;
  createdAt: Date;
  disabledAt: Date | null;
}

export interface AccountStore {
  /** Stores a new account; null when its email is taken (checked atomically). */
  create(account: Omit<StoredAccount, "disabledAt">): Promise<StoredAccount | null>;
  byEmail(email: string): Promise<StoredAccount | null>;
  byId(id: string): Promise<StoredAccount | null>;
  /** Oldest first. */
  list(): Promise<StoredAccount[]>;
  count(): Promise<number>;
  /**
   * Changes an account's role and/or whether it is disabled (disabling ends its sessions), in one
   * change that is refused ("last_admin") when no enabled admin would be left; "not_found" when
   * there is no such account.
   */
  change(
    id: string,
    change: { role?: string; disabledAt?: Date | null },
  ): Promise<StoredAccount | "not_found" | "last_admin">;
  /** Sets a password hash, enables the account and ends its sessions; false when there is none. */
  setPassword(email: string, passwordHash: string): Promise<boolean>;
}

/** A dashboard session, by the hash of its cookie token (the token itself is never stored). */
export interface StoredSession {
  id: string;
  accountId: string;
  /** which data the dashboard shows: live or test */
  live: boolean;
  createdAt: Date;
  expiresAt: Date;
}

export interface SessionStore {
  create(session: StoredSession): Promise<void>;
  byId(id: string): Promise<StoredSession | null>;
  delete(id: string): Promise<void>;
  setWorld(id: string, live: boolean): Promise<void>;
}

/** Failed sign-ins by key ("email:…", "ip:…"), shared by every app process. */
export interface SignInFailureStore {
  /** When the `nth` most recent failure of `key` after `since` happened (1: the latest), or null. */
  nthSince(key: string, since: Date, nth: number): Promise<Date | null>;
  /** Records a failure for each key at `at`, forgetting those of the keys before `forgetBefore`. */
  record(keys: string[], at: Date, forgetBefore: Date): Promise<void>;
  clear(key: string): Promise<void>;
}

/** What a spatial search needs to bound a geofence's distance without reading its geometry. */
/** A geofence as the index of geofences holds it: its version, world, tag, state and box. */
export interface GeofenceBox {
  seq: number;
  /** updatedAt in ms: which version of the geofence this is (see GeofenceVersion) */
  version: number;
  live: boolean;
  tag: string | null;
  enabled: boolean;
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

/** Where a user inside a geofence is (to decide whether it still is). */
export interface MemberPosition {
  userSeq: number;
  userId: string | null;
  latitude: number;
  longitude: number;
  accuracy: number;
}

/** A geofence whose disableAfter or deleteAfter has come. */
export interface DueGeofence {
  id: string;
  live: boolean;
  /** deleteAfter has come (else disableAfter has) */
  deleteDue: boolean;
}

/** A geofence by its _id, or by its tag and externalId. */
export type GeofenceRef = { id: string } | { tag: string; externalId: string };

/** Which geofences a list asks for. */
export interface GeofenceFilter {
  live: boolean;
  tag?: string;
  createdBefore?: Date;
  createdAfter?: Date;
  /** boxes meeting this view (west above east: across the antimeridian) */
  bounds?: { south: number; west: number; north: number; east: number };
  /** text in the description, tag or external ID, ignoring case */
  search?: string;
  externalId?: string;
  updatedBefore?: Date;
  updatedAfter?: Date;
  /** Radar's metadata[key]=value filters (./metadata-filter.ts) */
  metadata?: MetadataFilter;
}

/** A page of the geofences table. */
export interface GeofenceTableQuery {
  search?: string;
  sort: (typeof GEOFENCE_SORTS)[number];
  dir: "asc" | "desc";
  skip: number;
  take: number;
}

/** How a conditional geofence update ended. */
export type GeofenceUpdate =
  /** written; `geofence` as it is now */
  | { status: "updated"; geofence: StoredGeofence }
  /** not written: changed since the version the update was made from; `geofence` as it is now */
  | { status: "changed"; geofence: StoredGeofence }
  /** not written: another geofence of the world has the tag and externalId */
  | { status: "taken" }
  /** not written: deleted */
  | { status: "gone" };

/** One geofence an import writes: a new one (seq null), or a stored one as of `version`. */
export type GeofenceChange =
  { seq: null; columns: GeofenceColumns } | { seq: number; version: Date; columns: GeofenceColumns };

/** How a batch of geofence changes ended. */
export type GeofenceBatch =
  | { status: "written"; created: number; updated: number[] }
  /** nothing written: these geofences changed since their versions, or were deleted */
  | { status: "changed"; seqs: number[] }
  /** nothing written: one of the tags and externalIds is another geofence's */
  | { status: "taken" };

export interface GeofenceStore {
  /**
   * Stores a new geofence (its _id and times given by the store, increasing in the order
   * geofences are created); null when another geofence of the world has its tag and externalId.
   */
  create(live: boolean, columns: GeofenceColumns): Promise<StoredGeofence | null>;
  /**
   * Replaces the geofence of the world with the tag and externalId the columns name, or creates
   * it; `replaced` says which.
   */
  put(
    live: boolean,
    columns: GeofenceColumns & { tag: string; externalId: string },
  ): Promise<{ geofence: StoredGeofence; replaced: boolean }>;
  /**
   * Writes many geofences in one change (an import's chunk): new ones, and changes of stored ones
   * each made from the version it names. Nothing is written when one cannot be: a geofence
   * changed since its version (or deleted), or a tag and externalId another geofence has.
   */
  applyMany(live: boolean, changes: readonly GeofenceChange[]): Promise<GeofenceBatch>;
  /** Geofences by _id or by tag and externalId, many at once (those not found left out). */
  byRefs(live: boolean, refs: readonly GeofenceRef[]): Promise<StoredGeofence[]>;
  /** Sets a geofence's columns if it is still the version last updated at `version`. */
  update(seq: number, version: Date, columns: GeofenceColumns): Promise<GeofenceUpdate>;
  /** The world's geofences (of one tag, if given) after seq `after`, oldest first, at most `take`. */
  pageAfter(live: boolean, after: number, take: number, tag?: string): Promise<StoredGeofence[]>;
  byRef(live: boolean, ref: GeofenceRef): Promise<StoredGeofence | null>;
  /** Deletes it (its users are taken out of it in the same change); false when there was none. */
  delete(live: boolean, ref: GeofenceRef): Promise<boolean>;
  /**
   * Geofences whose time has come at `now`: deleteAfter passed, or enabled with disableAfter
   * passed (at most `take`, soonest first by seq).
   */
  due(now: Date, take: number): Promise<DueGeofence[]>;
  /** The isochrone geofences of both worlds, oldest first, at most `take` after seq `after`. */
  isochrones(after: number, take: number): Promise<StoredGeofence[]>;
  /** Newest first (createdAt, then id), at most `take` (all when undefined). */
  list(filter: GeofenceFilter, take?: number): Promise<StoredGeofence[]>;
  /** One page of the geofences table, and how many match in all (empty values sort last). */
  table(live: boolean, q: GeofenceTableQuery): Promise<{ rows: StoredGeofence[]; total: number }>;
  /**
   * The geofences of a world whose box meets `box` (of some tags only, enabled ones only), from
   * this process's index of geofences brought up to date with what the database holds now.
   */
  inBox(
    live: boolean,
    box: BBox,
    filter?: { tags?: readonly string[]; enabledOnly?: boolean },
  ): Promise<GeofenceBox[]>;
  /** Geofences as tracking and search decode them (outer ring, no geometry), by seq. */
  decodable(seqs: readonly number[]): Promise<TrackedGeofence[]>;
  /**
   * After a geofence's shape or state changed: the users inside it for whom `stillInside` (given
   * the geofence as it is now, null when gone) says no are no longer counted inside, in one change.
   */
  reconcileMembers(
    geofenceSeq: number,
    stillInside: (g: TrackedGeofence | null, m: MemberPosition) => boolean,
  ): Promise<void>;
}

/** Which users a list asks for: a window on updatedAt, and an area (west above east: across the antimeridian). */
export interface UserFilter {
  live: boolean;
  updatedBefore?: Date;
  updatedAfter?: Date;
  bounds?: { south: number; west: number; north: number; east: number };
}

/** A page of a table: matching `search` (user ID, device ID, description), sorted by `sort`. */
export interface UserTableQuery {
  search?: string;
  sort: (typeof USER_SORTS)[number];
  dir: "asc" | "desc";
  skip: number;
  take: number;
}

export interface UserStore {
  /** Newest update first (updatedAt, then id), at most `take` (all when undefined). */
  list(filter: UserFilter, take?: number): Promise<StoredUser[]>;
  /** Users whose _id, userId or deviceId is `ref`, most recently updated first. */
  matching(live: boolean, ref: string): Promise<StoredUser[]>;
  /** Users by seq (any order; those deleted are left out). */
  bySeqs(seqs: readonly number[]): Promise<StoredUser[]>;
  /** Users of a world by userId, and devices' users without one by deviceId (any order). */
  byOwners(live: boolean, userIds: readonly string[], deviceIds: readonly string[]): Promise<StoredUser[]>;
  /** The enabled geofences each of these users is in now. */
  geofencesOf(userSeqs: readonly number[]): Promise<{ userSeq: number; geofence: GeofenceFields }[]>;
  /** One page of the users table, and how many match in all (empty values sort last). */
  table(live: boolean, q: UserTableQuery): Promise<{ rows: StoredUser[]; total: number }>;
  /** Users inside a geofence now, newest update first, in the window of the cursors. */
  seqsInGeofence(
    geofenceSeq: number,
    q: { take?: number; updatedBefore?: Date; updatedAfter?: Date },
  ): Promise<{ seq: number; updatedAt: Date }[]>;
  /** Users of one world whose last location lies in `box`. */
  /** Users last located in `box`; with `metadata`, only those whose metadata matches. */
  inBox(
    live: boolean,
    box: BBox,
    metadata?: MetadataFilter,
  ): Promise<{ seq: number; latitude: number; longitude: number }[]>;
  /** A user's seq by its _id, or null. */
  seqById(live: boolean, id: string): Promise<number | null>;
  /** The device and userId of the most recently updated user whose SDK install is `installId`. */
  byInstallId(live: boolean, installId: string): Promise<{ deviceId: string; userId: string | null } | null>;
  /** A user's most recent locations (by when the device was there), newest first. */
  locations(
    userSeq: number,
    limit: number,
  ): Promise<{ latitude: number; longitude: number; accuracy: number; recordedAt: Date }[]>;
  /**
   * A user and everything about them (locations, memberships, events and their verifications), in
   * one change; false when the user was no longer there (another delete came first).
   */
  deleteEverything(seq: number): Promise<boolean>;
}

/** What the confidence model groups events by (server/events/subject.ts). */
export interface EventClass {
  subject: string;
  type: string;
  band: string;
}

/** Accepted and rejected verdicts on the events of one class (server/events/subject.ts). */
export interface VerdictCounts {
  accepted: number;
  rejected: number;
}

/** Which events a list asks for (every field optional but the world). */
export interface EventFilter {
  live: boolean;
  createdBefore?: Date;
  createdAfter?: Date;
  /** 1, -1, 0 */
  verifications?: readonly number[];
  types?: readonly string[];
  /** location events (Radar's user.… types, trip events left out: the review queue) or conversions only */
  kind?: "location" | "conversion";
  confidences?: readonly number[];
  /** the user's seq */
  userSeq?: number;
  geofenceId?: string;
}

/** A verdict on an event, and who gave it. */
export interface Verdict {
  verification: number;
  at: Date;
  keyId: string;
  /** a place event's verified place (its id and wire form), when given */
  place?: { id: string; wire: unknown };
}

/** What a sender hands in and asks for at each look (WebhookStore.turn). */
export interface SenderTurn {
  /** this sender's process (the owner its tracking writes on outbox rows) */
  owner: string;
  /** attempts at queued requests that ended */
  done: readonly FinishedAttempt[];
  /**
   * Requests of its own rows, in the order they are written (their queues' order): sent with how
   * their attempt ended, or put last in their queues. Written only while their row is in the
   * outbox (a user deleted meanwhile takes its rows).
   */
  written: readonly OwnRequest[];
  /** its own rows whose requests are all recorded or queued (with those above): removed */
  resolved: readonly number[];
  /** its own rows it holds (taken, or resolved and not yet removed): not handed out again */
  known: ReadonlySet<number>;
  now: Date;
  holdUntil: Date;
  /** queues to hold at most (0: queues are not looked at this turn) */
  total: number;
  room: (webhookSeq: number) => number;
  /** whether to look for rows of processes gone this turn */
  orphans: boolean;
  /** the sender is alive until then (written this turn), or null (not this turn) */
  aliveUntil: Date | null;
  /**
   * The requests a row of a process gone owes the webhooks among `webhooks` (those that still
   * exist), last in their queues: rows are split in the order they were written.
   */
  split: (row: StoredOutbox, webhooks: ReadonlySet<number>) => DeliveryWrite[];
}

/** What a turn hands back. */
export interface SenderTurnResult {
  /** queues held, with the first pending request of each */
  claimed: ClaimedDelivery[];
  /**
   * The sender's own rows not in `known` whose user's earlier rows still in the outbox are all
   * in `known` or handed out before them (the others wait: another sender's row goes first), in
   * seq order, at most OWN_ROWS
   */
  rows: OwnOutbox[];
  /** every webhook, as it is now */
  webhooks: Map<number, { url: string; token: string; enabled: boolean }>;
}

/** Webhooks and their outbox (docs/webhooks.md). */
export interface WebhookStore {
  create(w: Omit<StoredWebhook, "seq"> & { token: string }): Promise<StoredWebhook>;
  list(): Promise<StoredWebhook[]>;
  byId(id: string): Promise<StoredWebhook | null>;
  /** false: no such webhook */
  setEnabled(id: string, enabled: boolean, at: Date): Promise<boolean>;
  /** Removes the webhook and its outbox; false: no such webhook. */
  delete(id: string): Promise<boolean>;
  /** Adds a delivery outside tracking (a test event, a redelivery), last in its queue. */
  enqueue(d: DeliveryWrite): Promise<void>;
  /**
   * One turn of a sender (docs/webhooks.md#delivery), in one transaction:
   * - records the outcomes of the attempts that ended: those of queued requests (`done`; a queue
   *   goes on with its next request at once after one delivered or given up, at `retryAt` after
   *   one refused; an attempt on a delivery recorded meanwhile, whose hold ran out and another
   *   sender tried it, is left out), then writes the requests of its own rows (`written`: one
   *   refused goes first in its queue, one not tried last) and removes the `resolved` rows. A
   *   delivery whose id is already written is not written again;
   * - keeps the sender alive; splits the rows of processes whose sender is not (kill -9, or from
   *   before an upgrade) into their queues (one sender at a time, in the rows' order);
   * - hands out the sender's own rows it does not know yet whose turn has come, each with its
   *   user's busy queues;
   * - holds queues due at `now` until `holdUntil`: of enabled webhooks, not held by another
   *   sender, at most `room(webhookSeq)` of a webhook and `total` in all. Two senders (in any
   *   process) never hold the same queue at once, and a queue waiting for a retry is not looked
   *   at before it is due.
   */
  turn(t: SenderTurn): Promise<SenderTurnResult>;
  /**
   * Removes up to `limit` deliveries made before `before` and no longer pending, and the senders
   * not alive since; how many deliveries.
   */
  prune(before: Date, limit: number): Promise<number>;
  /**
   * How many senders are alive at `now`: one per app process on this database (rate limits give
   * each process its share, server/http/limits.ts).
   */
  sendersAlive(now: Date): Promise<number>;
  /** A webhook's deliveries, newest first (`skip` of them left out), and how many it has. */
  deliveries(webhookSeq: number, take: number, skip?: number): Promise<StoredDelivery[]>;
  countDeliveries(webhookSeq: number): Promise<number>;
  deliveryById(id: string): Promise<StoredDelivery | null>;
  /**
   * What the webhooks are owed: outbox rows not yet sent by the process that wrote them, and
   * requests waiting in their queues (pending).
   */
  depth(): Promise<{ outbox: number; queued: number }>;
}

/** Conversions of one name on one day (UTC), and the revenue they carried. */
export interface ConversionDay {
  /** YYYY-MM-DD, UTC */
  day: string;
  name: string;
  count: number;
  revenue: number;
}

export interface EventStore {
  /** Conversions made since `since`, counted per UTC day and name (the dashboard's chart). */
  conversionsPerDay(live: boolean, since: Date): Promise<ConversionDay[]>;
  /** Verdicts on the events of one class: subject, type and band. Unverified events are not counted. */
  verificationCounts(live: boolean, subject: string, type: string, band: string): Promise<VerdictCounts>;
  /** Newest first (createdAt, then id), at most `take` (all when undefined). */
  list(filter: EventFilter, take?: number): Promise<StoredEvent[]>;
  byId(live: boolean, id: string): Promise<StoredEvent | null>;
  /**
   * Sets an event's verification and records the verdict, in one change; the event as it is
   * then, or null when it was deleted meanwhile.
   */
  verify(seq: number, verdict: Verdict): Promise<StoredEvent | null>;
  /** An event and the record of its verdicts, in one change; false when it was no longer there. */
  delete(seq: number): Promise<boolean>;
}

/**
 * A geofence as tracking and search use it, decoded: its wire fields, its geometry (the stored
 * polygon; a circle's approximation) and the ring its distances are measured to (the outer
 * ring; empty for circles, which are measured from center and radius).
 */
export type TrackedGeofence = Omit<GeofenceFields, "geometry"> & {
  seq: number;
  geometry: Position[][];
  ring: Position[];
};

/** Which version of a geofence is stored: its seq and updatedAt (in ms), which every write moves on. */
export interface GeofenceVersion {
  seq: number;
  version: number;
}

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

/** A trip by its _id or its externalId. */
export type TripRef = { id: string } | { externalId: string };

/** Whose trip: a userId, or a device that reports none. */
export type TripOwner = { userId: string } | { deviceId: string };

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

/** A trip a plan writes: new (seq null), or the stored one with these columns. */
export interface TripWrite {
  seq: number | null;
  trip: Omit<StoredTrip, "seq">;
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

/** A log line a device's SDK sent (POST /v1/logs). */
export interface DeviceLogLine {
  level: string;
  message: string;
  type: string | null;
  createdAt: Date;
}

export interface DeviceLogStore {
  /**
   * Keeps a device's lines, in one change, and drops its oldest beyond `keep` and every line
   * received before `before` (of any device).
   */
  append(
    device: { live: boolean; deviceId: string; installId: string | null },
    lines: readonly DeviceLogLine[],
    receivedAt: Date,
    bounds: { keep: number; before: Date },
  ): Promise<void>;
  /** A device's lines, newest first, at most `take`. */
  list(live: boolean, deviceId: string, take: number): Promise<(DeviceLogLine & { receivedAt: Date })[]>;
}

/** Keeping trails and SDK logs within their windows (server/tracking/retention.ts). */
export interface RetentionStore {
  /**
   * Deletes trail points received before `before`, at most `batch` of the oldest (by seq: the
   * order they were received in); how many went.
   */
  pruneTrails(before: Date, batch: number): Promise<number>;
  /** Deletes at most `batch` SDK log lines received before `before`; how many went. */
  pruneLogs(before: Date, batch: number): Promise<number>;
}

/** Where the trip a user is on goes, and what tripOptions name it by. */
export interface ActiveDestination {
  id: string;
  externalId: string;
  mode: string;
  /** null: a trip without a destination (no ETA) */
  latitude: number | null;
  longitude: number | null;
  geofenceId: string | null;
  tag: string | null;
  geofenceExternalId: string | null;
}

/** Which trips a list asks for (every field optional but the world). */
export interface TripFilter {
  live: boolean;
  statuses?: readonly string[];
  /** the destination geofence's tag and/or externalId */
  destinationGeofenceTag?: string;
  destinationGeofenceExternalId?: string;
  externalId?: string;
  userId?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  delayed?: boolean;
  sortBy?: "createdAt" | "updatedAt" | "scheduledArrivalAt";
  /** trips of these users (by userId), or of these devices without one */
  owners?: { userIds: readonly string[]; deviceIds: readonly string[] };
}

export interface TripStore {
  /** Newest first by `sortBy` (createdAt when absent), at most `take` (all when undefined). */
  list(filter: TripFilter, take?: number): Promise<StoredTrip[]>;
  byRef(live: boolean, ref: TripRef): Promise<StoredTrip | null>;
  /**
   * The trip a user or device is on (its destination and mode), read outside any transaction
   * (before tracking decides, so the road ETA is computed off the tracking transaction): null
   * when none, which is most updates, so adapters answer it from an index in microseconds.
   */
  activeDestination(live: boolean, owner: TripOwner): Promise<ActiveDestination | null>;
  /** Deletes a trip (its events stay); false when there was none. */
  delete(live: boolean, ref: TripRef): Promise<boolean>;
  /** Marks trips past their expiresAt (pending or active) expired, at most `take`; how many. */
  expire(now: Date, take: number): Promise<number>;
}

export interface Storage {
  keys: KeyStore;
  settings: SettingStore;
  accounts: AccountStore;
  sessions: SessionStore;
  signInFailures: SignInFailureStore;
  events: EventStore;
  geofences: GeofenceStore;
  users: UserStore;
  tracking: TrackingStore;
  webhooks: WebhookStore;
  logs: DeviceLogStore;
  retention: RetentionStore;
  trips: TripStore;
  system: SystemStore;
  overview: OverviewStore;
}
