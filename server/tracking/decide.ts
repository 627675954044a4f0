import type { AuthKey } from "../auth/keys";
import type { GeofenceFields } from "../geofences/schema";
import type { Decision, TrackingPlan, TrackingReader, UserWrite } from "../storage/tracking";
import type { StoredEvent as Event } from "../storage/events";
import type { StoredUser, StoredUser as User } from "../storage/users";
import type { TrackedGeofence } from "../storage/geofences";
import type { TripWrite } from "../storage/trips";
import { geofences } from "./detectors/geofences";
import { places } from "./detectors/places";
import { regions } from "./detectors/regions";
import { trips } from "./detectors/trips";
import { type TrackHints, NO_HINTS } from "./trips/hints";
import { isActive } from "./trips/model";
import { type Trip } from "./trips/progress";
import { ownerOf, tripFromOptions, withoutSeq } from "./trips/start";
import type { Detector, DetectorInput, EventDraft, MembershipChanges } from "./detectors/types";
import type { TrackInput } from "./schema";
import { deviceAfter } from "./device";
import { mayRead, ownsDevice } from "./visible";
import { type Fix, type Snapshot, isStopped, loadSnapshot } from "./snapshot";
import { type Clock, outbox, stoppedTrip, enabledGeofencesOf, asRecorded, eventsOf, graded } from "./plan";

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
