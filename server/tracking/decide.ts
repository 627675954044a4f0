import type { AuthKey } from "../auth/keys";
import type { GeofenceFields } from "../geofences/schema";
import type {
  Decision,
  EventWrite,
  TrackingPlan,
  TrackingReader,
  UserWrite,
  Written,
} from "../storage/tracking";
import type { OutboxWrite, WebhookTarget } from "../storage/webhook-records";
import type { StoredEvent as Event } from "../storage/events";
import type { StoredUser, StoredUser as User } from "../storage/users";
import type { TrackedGeofence } from "../storage/geofences";
import type { TripWrite } from "../storage/trips";
import { eventSubject } from "../events/subject";
import { estimatedPrecision, gradeOf } from "../events/confidence";
import { geofences } from "./detectors/geofences";
import { places } from "./detectors/places";
import { regions } from "./detectors/regions";
import { trips } from "./detectors/trips";
import { type TrackHints, NO_HINTS } from "./trips/hints";
import { isActive, serializeTrip } from "./trips/model";
import { type Trip } from "./trips/progress";
import { ownerOf, tripFromOptions, withoutSeq } from "./trips/start";
import type { Detector, DetectorInput, EventDraft, MembershipChanges } from "./detectors/types";
import type { TrackInput } from "./schema";
import { deviceAfter } from "./device";
import { mayRead, ownsDevice } from "./visible";
import { outboxFor } from "../webhooks/outbox";
import { embeddedGeofence, serializeEvent, serializeUser, trimUser } from "./serialize";
import { type Fix, type Snapshot, isStopped, loadSnapshot } from "./snapshot";

/** Every kind of event, in the order its events are listed: a new kind is a new detector here. */
export const DETECTORS: readonly Detector[] = [geofences, places, regions, trips];

export interface TrackResult {
  user: User;
  geofences: GeofenceFields[];
  events: Event[];
  /** the trip the user is on after the update (none: not on one, or it ended) */
  trip: Trip | null;
  /**
   * the request names the device of the user's last accepted update, or made the user: only then
   * may a publishable key's answer carry the user as stored (./visible.ts)
   */
  owned: boolean;
}

/** Where time and identifiers come from: passed in, so a decision can be replayed in a test. */
export interface Clock {
  /**
   * now; each call later than the one before (geofences' createdAt order their lists), so under
   * more than a thousand calls a second it runs ahead of the machine's time
   */
  now(): Date;
  /** the machine's time, for what is scheduled by it (the webhook outbox's next attempt) */
  wall(): Date;
  /** a new _id, made at `ms` when given */
  newId(ms?: number): string;
}

async function findUser(read: TrackingReader, live: boolean, input: TrackInput): Promise<StoredUser | null> {
  if (!input.userId) return read.userByDeviceId(live, input.deviceId, false);
  // A device seen before without a userId is adopted by the user it now reports.
  return (await read.userByUserId(live, input.userId)) ?? read.userByDeviceId(live, input.deviceId, true);
}

/**
 * What one update changes: the snapshot is read through the store (inside the transaction that
 * will write the plan), the detectors decide from it alone, and the events are graded on the
 * verdicts given to their classes so far.
 */
export async function decide(
  read: TrackingReader,
  key: Pick<AuthKey, "live" | "kind">,
  input: TrackInput,
  clock: Clock,
  hints: TrackHints = NO_HINTS,
): Promise<Decision<TrackResult>> {
  const live = key.live;
  const before = await findUser(read, live, input);
  // Read once the device's updates before this one are written (the store holds the device from
  // the read of its user on): an update without a time of its own is ordered by its arrival, the
  // order in which the store applies it, and is never older than the one applied before it,
  // whichever process stamped that one. The machine's time, as it happened: the process's
  // strictly increasing clock runs ahead of it under a burst, so another process's next update
  // of the device would have been stamped before this one.
  const now = clock.wall();
  const at = input.updatedAt ?? now;
  // Which of a device's updates is newer is decided on the times it sent (actualUpdatedAt).
  const owned = !before || ownsDevice(before, input);
  if (before && input.updatedAt && at < before.actualUpdatedAt) return unchanged(read, live, before, owned);

  const fix: Fix = {
    latitude: input.latitude,
    longitude: input.longitude,
    accuracy: input.accuracy,
    at,
    stopped: isStopped(input.stopped, input.longitude, input.latitude, before),
    replayed: input.replayed === true,
  };
  // Asked before the snapshot, without waiting: on PostgreSQL both travel in one round trip
  // (server/db/postgresql/pool.ts). The webhooks are awaited by outbox().
  const webhooks = read.webhooksFor(live);
  webhooks.catch(() => undefined);
  const snapshot = await loadSnapshot(read, live, fix, before);
  const after: UserWrite = {
    deviceId: input.deviceId,
    userId: input.userId ?? before?.userId ?? null,
    description: input.description ?? before?.description ?? null,
    metadata: input.metadata !== undefined ? input.metadata : (before?.metadata ?? null),
    deviceType: input.deviceType ?? before?.deviceType ?? null,
    device: deviceAfter(before?.device, input),
    foreground: input.foreground ?? before?.foreground ?? null,
    stopped: input.stopped ?? before?.stopped ?? null,
    latitude: input.latitude,
    longitude: input.longitude,
    accuracy: input.accuracy,
    country: null,
    state: null,
    postalCode: null,
    dma: null,
    place: null,
    placeEnteredAt: null,
    actualUpdatedAt: at,
    updatedAt: at,
    // What the detectors keep on the user, spread last (docs/development.md, "Objects on hot paths").
    ...Object.assign({}, ...DETECTORS.map((d) => d.next?.(before, fix, snapshot))),
  };
  const user: User = before
    ? { seq: before.seq, id: before.id, live: before.live, createdAt: before.createdAt, ...after }
    : { seq: 0, id: clock.newId(now.getTime()), live, createdAt: at, ...after };

  const { drafts, tripWrites, trip } = await tripBefore(read, key, after, hints, { at, clock, owned });
  snapshot.trip = trip;
  snapshot.eta = hints.eta;
  const detected = detectAll(DETECTORS, { before, after, fix, snapshot });
  drafts.push(...detected.events);
  tripWrites.push(...detected.trips);
  const { memberships } = detected;
  const events = await graded(read, live, eventsOf(drafts, user, fix, live, clock));
  const inside = insideAfter(snapshot, memberships);
  const recorded = (userSeq: number, eventSeqs?: number[]): Event[] =>
    events.map((e, i) => asRecorded(e, eventSeqs?.[i] ?? 0, userSeq));
  const plan: TrackingPlan = {
    user: {
      seq: before ? before.seq : null,
      id: user.id,
      live,
      createdAt: user.createdAt,
      updatedBefore: before?.updatedAt ?? null,
      write: after,
    },
    location: {
      latitude: fix.latitude,
      longitude: fix.longitude,
      accuracy: fix.accuracy,
      recordedAt: at,
      receivedAt: now,
    },
    ...memberships,
    events,
    outbox: events.length ? outbox(await webhooks, live, user, inside, recorded(user.seq), clock) : null,
    trips: tripWrites,
  };
  const onTrip = tripWrites.find((w) => isActive(w.trip.status));
  return {
    plan,
    answer: (written) => {
      const userSeq = written?.userSeq ?? user.seq;
      return {
        user: { ...user, seq: userSeq },
        geofences: inside,
        events: recorded(userSeq, written?.eventSeqs),
        trip: onTrip?.trip ?? null,
        owned,
      };
    },
  };
}

/** What every detector finds of one update, together: its events, trips and membership changes. */
export function detectAll(
  detectors: readonly Detector[],
  input: DetectorInput,
): { events: EventDraft[]; trips: TripWrite[]; memberships: MembershipChanges } {
  const events: EventDraft[] = [];
  const trips: TripWrite[] = [];
  const memberships: MembershipChanges = { entered: [], exited: [], dwelled: [] };
  for (const detector of detectors) {
    const found = detector.detect(input);
    events.push(...found.events);
    trips.push(...(found.trips ?? []));
    if (found.memberships) {
      memberships.entered.push(...found.memberships.entered);
      memberships.exited.push(...found.memberships.exited);
      memberships.dwelled.push(...found.memberships.dwelled);
    }
  }
  return { events, trips, memberships };
}

/** The enabled geofences the user is in after an update: those it was in and did not leave, and those it entered. */
export function insideAfter(snapshot: Snapshot, memberships: MembershipChanges): TrackedGeofence[] {
  const entered = new Set(memberships.entered.map((m) => m.geofenceSeq));
  const left = new Set(memberships.exited);
  return snapshot.geofences.filter(
    (g) => g.enabled && !left.has(g.seq) && (snapshot.memberships.has(g.seq) || entered.has(g.seq)),
  );
}

/**
 * The trip the user is on before the detectors move it, and what naming a trip (tripOptions)
 * changes first. Read only when the read before the transaction found one, or the update names
 * one, so updates of users on no trip pay nothing. Another device's update may start a trip for
 * the user, not end the one it is on.
 */
async function tripBefore(
  read: TrackingReader,
  key: Pick<AuthKey, "live" | "kind">,
  after: UserWrite,
  hints: TrackHints,
  { at, clock, owned }: { at: Date; clock: Clock; owned: boolean },
): Promise<{ drafts: EventDraft[]; tripWrites: TripWrite[]; trip: TripWrite | null | undefined }> {
  const owner = ownerOf(after.userId, after.deviceId);
  if (hints.options) {
    const { current, replaced } = await tripFromOptions(read, key.live, owner, hints.options, {
      destination: hints.destination,
      at,
      clock,
      mayEndOther: mayRead(key, owned),
    });
    return {
      drafts: replaced ? [stoppedTrip(replaced.trip)] : [],
      tripWrites: replaced ? [replaced] : [],
      trip: current,
    };
  }
  const found = hints.active ? await read.activeTrip(key.live, owner) : null;
  return {
    drafts: [],
    tripWrites: [],
    trip: hints.active ? found && { seq: found.seq, trip: withoutSeq(found) } : undefined,
  };
}

/**
 * What the update's events owe the world's enabled webhooks (server/webhooks/outbox.ts): the
 * events and the user as the API serializes them now, written with the events.
 */
export function outbox(
  targets: readonly WebhookTarget[],
  live: boolean,
  user: User,
  inside: GeofenceFields[],
  events: Event[],
  clock: Clock,
): OutboxWrite | null {
  if (!targets.length) return null;
  const wire = events.map((e) => ({ id: e.id, type: e.type, wire: serializeEvent(e) }));
  return outboxFor(targets, wire, { id: user.id, live, wire: serializeUser(user, inside) }, clock);
}

/**
 * A plan for events of a user made outside a location update (a trip call): at the user's last
 * location, at `at`, with what they owe webhooks; the user row is written as it is.
 */
export async function userEventsPlan(
  read: TrackingReader,
  user: User,
  drafts: EventDraft[],
  trips: TripWrite[],
  clock: Clock,
): Promise<{ plan: TrackingPlan; recorded: (written: Written | null) => Event[] }> {
  const live = user.live;
  const now = clock.wall();
  const fix: Fix = {
    latitude: user.latitude,
    longitude: user.longitude,
    accuracy: user.accuracy,
    at: now,
    stopped: false,
  };
  const events = await graded(read, live, eventsOf(drafts, user, fix, live, clock));
  const inside = await enabledGeofencesOf(read, user);
  const recorded = (written: Written | null) =>
    events.map((e, i) => asRecorded(e, written?.eventSeqs[i] ?? 0, user.seq));
  const { seq, id, createdAt: userCreatedAt, live: _live, ...write } = user;
  return {
    plan: {
      user: { seq, id, live, createdAt: userCreatedAt, updatedBefore: write.updatedAt, write },
      location: null,
      entered: [],
      exited: [],
      dwelled: [],
      events,
      outbox: events.length
        ? outbox(await read.webhooksFor(live), live, user, inside, recorded(null), clock)
        : null,
      trips,
    },
    recorded,
  };
}

/** user.stopped_trip for a trip that ends. */
export const stoppedTrip = (trip: Trip): EventDraft => ({
  type: "user.stopped_trip",
  probability: 1,
  band: "core",
  duration: null,
  trip: serializeTrip(trip),
});

/**
 * An update older than what the store holds: nothing changes, and the answer is the user as stored,
 * with the trip it is on (an answer without one makes the SDKs end theirs); to a request that does
 * not own the device, only what it sent (./visible.ts), so nothing of the user is read.
 */
async function unchanged(
  read: TrackingReader,
  live: boolean,
  user: StoredUser,
  owned: boolean,
): Promise<Decision<TrackResult>> {
  if (!owned) return { plan: null, answer: () => ({ user, geofences: [], events: [], trip: null, owned }) };
  const geofences = await enabledGeofencesOf(read, user);
  const onTrip = await read.activeTrip(live, ownerOf(user.userId, user.deviceId));
  return {
    plan: null,
    answer: () => ({ user, geofences, events: [], trip: onTrip && withoutSeq(onTrip), owned }),
  };
}

/** The enabled geofences a stored user is in. */
export async function enabledGeofencesOf(read: TrackingReader, user: StoredUser): Promise<GeofenceFields[]> {
  const seqs = (await read.memberships(user.seq)).map((m) => m.geofenceSeq);
  return (await read.geofencesBySeqs(seqs)).filter((g) => g.enabled);
}

/**
 * An event as written (unverified), under its seq and its user's. Every field is listed, none
 * spread: a field added after a spread of an object this large is slow to add and to read
 * (docs/development.md, "Objects on hot paths").
 */
export const asRecorded = (e: EventWrite, seq: number, userSeq: number): Event => ({
  seq,
  id: e.id,
  live: e.live,
  type: e.type,
  userSeq,
  user: e.user,
  geofenceId: e.geofenceId,
  geofence: e.geofence,
  subject: e.subject,
  region: e.region,
  place: e.place,
  placeId: e.placeId,
  alternatePlaces: e.alternatePlaces,
  verifiedPlace: null,
  latitude: e.latitude,
  longitude: e.longitude,
  accuracy: e.accuracy,
  confidence: e.confidence,
  probability: e.probability,
  band: e.band,
  verification: 0,
  verifiedAt: null,
  verifiedPlaceId: null,
  duration: e.duration,
  metadata: e.metadata,
  trip: e.trip,
  createdAt: e.createdAt,
  actualCreatedAt: e.actualCreatedAt,
  replayed: e.replayed,
});

/**
 * The drafts as events of this update: ids, the user as it is after it, and subjects, at the
 * fix's time.
 */
export function eventsOf(
  drafts: EventDraft[],
  user: User,
  fix: Fix,
  live: boolean,
  clock: Clock,
): EventWrite[] {
  // Every event of the update copies the user as it is after it.
  const userCopy = trimUser(user);
  const received = clock.wall();
  return drafts.map((d) => {
    const geofence = (d.geofence ? embeddedGeofence(d.geofence) : null) as Event["geofence"];
    const region = (d.region ?? null) as unknown as Event["region"];
    const place = (d.place ?? null) as Event["place"];
    const geofenceId = d.geofence?.id ?? null;
    const placeId = d.place?._id ?? null;
    // Every field listed, none spread (docs/development.md, "Objects on hot paths").
    return {
      trip: d.trip ?? null,
      id: clock.newId(),
      live,
      type: d.type,
      user: userCopy,
      latitude: fix.latitude,
      longitude: fix.longitude,
      accuracy: fix.accuracy,
      // Radar's meaning: createdAt is when it happened on the device, actualCreatedAt when the
      // service made it (they differ for updates sent late, such as offline replays).
      createdAt: fix.at,
      actualCreatedAt: received,
      replayed: fix.replayed === true,
      geofenceId,
      geofence,
      region,
      place,
      placeId,
      alternatePlaces: (d.alternatePlaces ?? null) as Event["alternatePlaces"],
      probability: d.probability,
      band: d.band,
      duration: d.duration,
      metadata: null,
      subject: eventSubject({ geofenceId, placeId, region: d.region ?? null }),
      // Set by graded(), from the verdicts on the event's class.
      confidence: 0,
    };
  });
}

/**
 * Each event's confidence: the estimated precision of its class (subject, type and band), given
 * the verdicts on the class's earlier events (docs/confidence.md), read for all events at once.
 */
export async function graded(
  read: TrackingReader,
  live: boolean,
  events: EventWrite[],
): Promise<EventWrite[]> {
  const classified = events.filter((e) => e.subject !== null);
  const counts = await read.verificationCounts(
    live,
    classified.map((e) => ({ subject: e.subject!, type: e.type, band: e.band })),
  );
  const countsOf = new Map(classified.map((e, i) => [e, counts[i]!]));
  for (const e of events) {
    const { accepted, rejected } = countsOf.get(e) ?? { accepted: 0, rejected: 0 };
    e.confidence = gradeOf(e.type)(estimatedPrecision(e.probability, accepted, rejected));
  }
  return events;
}
