import type { AuthKey } from "../auth/keys";
import type { Decision, PartWrite, TrackingPlan, TrackingReader, UserWrite } from "../storage/tracking";
import type { StoredEvent as Event } from "../storage/events";
import type { StoredUser, StoredUser as User } from "../storage/users";
import type { Clock } from "./clock";
import { type Prepared, KINDS, shownOf } from "./kinds";
import type { Change, EventDraft, Kind, Loaded, Shown, Update } from "./kinds/kind";
import type { TrackInput } from "./schema";
import { deviceAfter } from "./device";
import { ownsDevice } from "./visible";
import { type Fix, isStopped } from "./fix";
import { outbox, asRecorded, eventsOf, graded } from "./plan";

export interface TrackResult {
  user: User;
  /** what the user's wire form shows of the kinds after the update (its geofences, its trip, …) */
  shown: Shown;
  events: Event[];
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

/** Each kind's state for the update, loaded in the kinds' order (a kind may use those before it). */
export async function loadKinds(
  kinds: readonly Kind<unknown>[],
  u: Omit<Update, "loaded">,
  load: (kind: Kind<unknown>, u: Update) => Promise<unknown>,
): Promise<Map<Kind<unknown>, unknown>> {
  const states = new Map<Kind<unknown>, unknown>();
  const loaded: Loaded = <S>(kind: Kind<S>) => {
    if (!states.has(kind as Kind<unknown>))
      throw new Error(`kind "${kind.name}" is used before it is loaded`);
    return states.get(kind as Kind<unknown>) as S;
  };
  // One update for every kind (made once: a dense move runs this for each update).
  const update: Update = { ...u, loaded };
  for (const kind of kinds) states.set(kind, await load(kind, update));
  return states;
}

/** What the kinds keep on the user after the fix (their `next`), to spread over its fields. */
export const keptByKinds = (states: Map<Kind<unknown>, unknown>, before: StoredUser | null, fix: Fix) =>
  Object.assign(
    {},
    ...[...states].map(([kind, state]) => kind.next?.(before, fix, state)),
  ) as Partial<UserWrite>;

/** What every kind finds of one update, together: its events, its writes, and what the user shows. */
export function detectAll(
  states: Map<Kind<unknown>, unknown>,
  change: Change,
): { events: EventDraft[]; writes: PartWrite[]; shown: Shown } {
  const events: EventDraft[] = [];
  const writes: PartWrite[] = [];
  const shown: Shown = {};
  for (const [kind, state] of states) {
    const found = kind.detect(change, state);
    events.push(...found.events);
    writes.push(...(found.writes ?? []));
    Object.assign(shown, found.shown);
  }
  return { events, writes, shown };
}

/** The user's fields after an update: what it sent, else what the user had; then what the kinds keep. */
function userAfter(
  input: TrackInput,
  before: StoredUser | null,
  userId: string | null,
  at: Date,
  kept: Partial<UserWrite>,
): UserWrite {
  return {
    deviceId: input.deviceId,
    userId,
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
    // What the kinds keep on the user, spread last (docs/development.md, "Objects on hot paths").
    ...kept,
  };
}

/**
 * What one update changes: each kind loads what it needs inside the transaction that will write
 * the plan, decides from it alone, and the events are graded on the verdicts given to their
 * classes so far.
 */
export async function decide(
  read: TrackingReader,
  key: Pick<AuthKey, "live" | "kind">,
  input: TrackInput,
  clock: Clock,
  prepared: Prepared = new Map(),
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
  if (before && input.updatedAt && at < before.actualUpdatedAt) return unchanged(read, before, owned);

  const fix: Fix = {
    latitude: input.latitude,
    longitude: input.longitude,
    accuracy: input.accuracy,
    at,
    stopped: isStopped(input.stopped, input.longitude, input.latitude, before),
    replayed: input.replayed === true,
  };
  // Asked before the kinds' reads, without waiting: on PostgreSQL both travel in one round trip
  // (server/db/postgresql/pool.ts). The webhooks are awaited by outbox().
  const webhooks = read.webhooksFor(live);
  webhooks.catch(() => undefined);
  const userId = input.userId ?? before?.userId ?? null;
  const states = await loadKinds(
    KINDS,
    { read, key, fix, before, userId, deviceId: input.deviceId, owned, clock },
    (kind, u) => kind.load(u, prepared.get(kind.name)),
  );
  const after = userAfter(input, before, userId, at, keptByKinds(states, before, fix));
  const user: User = before
    ? { seq: before.seq, id: before.id, live: before.live, createdAt: before.createdAt, ...after }
    : { seq: 0, id: clock.newId(now.getTime()), live, createdAt: at, ...after };

  const detected = detectAll(states, { before, after, fix });
  const events = await graded(read, live, eventsOf(detected.events, user, fix, live, clock));
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
    events,
    outbox: events.length
      ? outbox(await webhooks, live, user, detected.shown, recorded(user.seq), clock)
      : null,
    writes: detected.writes,
  };
  return {
    plan,
    answer: (written) => {
      const userSeq = written?.userSeq ?? user.seq;
      return {
        user: { ...user, seq: userSeq },
        shown: detected.shown,
        events: recorded(userSeq, written?.eventSeqs),
        owned,
      };
    },
  };
}

/**
 * An update older than what the store holds: nothing changes, and the answer is the user as stored,
 * with what the kinds show of it (an answer without the trip makes the SDKs end theirs); to a
 * request that does not own the device, only what it sent (./visible.ts), so nothing of the user
 * is read.
 */
async function unchanged(
  read: TrackingReader,
  user: StoredUser,
  owned: boolean,
): Promise<Decision<TrackResult>> {
  const shown = owned ? await shownOf(read, user) : {};
  return { plan: null, answer: () => ({ user, shown, events: [], owned }) };
}
