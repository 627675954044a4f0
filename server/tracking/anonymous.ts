import type { AuthKey } from "../auth/keys";
import type { Decision, TrackingReader, UserWrite } from "../storage/tracking";
import type { StoredUser } from "../storage/users";
import { storage } from "../storage";
import type { Clock } from "./clock";
import { asRecorded, eventsOf, outbox, graded } from "./plan";
import { type TrackResult, detectAll, keptByKinds, loadKinds } from "./decide";
import { KINDS } from "./kinds";
import type { Kind } from "./kinds/kind";
import type { TrackInput } from "./schema";
import type { Fix } from "./fix";

/**
 * Anonymous tracking, as Radar's SDKs mean it (`anonymous: true`, `deviceId: "anonymous"`): the
 * device keeps its own state — the geofences, the place and the regions it is in, as the last
 * answer told it — and sends it with each update. Nothing of the device is stored or read: no
 * user, history, membership or log. Its events are decided from the state it sent against the
 * fix (each kind's `sent`), stored and sent to webhooks under no user (their `user` is
 * `{deviceId: "anonymous"}`), and the answer holds only what this update decided: two anonymous
 * devices never see each other.
 */

/** What an anonymous device's events say of their user. */
const NO_ONE = { deviceId: "anonymous" };

/** The kinds an anonymous device can have state of (those that read it from what it sends: no trips). */
const ANONYMOUS_KINDS = KINDS.filter((k) => k.sent);

export function trackAnonymous(key: AuthKey, input: TrackInput, clock: Clock): Promise<TrackResult> {
  // Nothing of one anonymous update waits for another's: each holds a lock of its own.
  const device = { live: key.live, deviceId: `anonymous:${clock.newId()}`, userId: null };
  return storage().tracking.apply(device, (read) => decideAnonymous(read, key, input, clock));
}

/** The fields of a user that is never stored, with nothing of its own yet. */
const NOBODY: Omit<UserWrite, "latitude" | "longitude" | "accuracy" | "actualUpdatedAt" | "updatedAt"> = {
  deviceId: "anonymous",
  userId: null,
  description: null,
  metadata: null,
  deviceType: null,
  device: null,
  foreground: null,
  stopped: null,
  country: null,
  state: null,
  postalCode: null,
  dma: null,
  place: null,
  placeEnteredAt: null,
};

export async function decideAnonymous(
  read: TrackingReader,
  key: Pick<AuthKey, "live" | "kind">,
  input: TrackInput,
  clock: Clock,
): Promise<Decision<TrackResult>> {
  const live = key.live;
  const at = input.updatedAt ?? clock.wall();
  const fix: Fix = {
    latitude: input.latitude,
    longitude: input.longitude,
    accuracy: input.accuracy,
    at,
    stopped: input.stopped ?? false,
    replayed: input.replayed === true,
  };
  const epoch = new Date(0);
  // The device as it says it was: a user that is never stored, with what each kind says it sent.
  const before: StoredUser = {
    seq: -1,
    id: clock.newId(at.getTime()),
    live,
    ...NOBODY,
    latitude: fix.latitude,
    longitude: fix.longitude,
    accuracy: fix.accuracy,
    createdAt: at,
    actualUpdatedAt: epoch,
    updatedAt: epoch,
  };
  const states = await loadKinds(
    ANONYMOUS_KINDS,
    { read, key, fix, before, userId: null, deviceId: "anonymous", owned: true, clock },
    async (kind: Kind<unknown>, u) => {
      const { state, before: fields } = await kind.sent!(u, input);
      Object.assign(before, fields);
      return state;
    },
  );
  const after: UserWrite = {
    ...NOBODY,
    deviceType: input.deviceType ?? null,
    foreground: input.foreground ?? null,
    stopped: input.stopped ?? null,
    latitude: fix.latitude,
    longitude: fix.longitude,
    accuracy: fix.accuracy,
    actualUpdatedAt: at,
    updatedAt: at,
    ...keptByKinds(states, before, fix),
  };
  const user: StoredUser = { seq: 0, id: before.id, live, createdAt: at, ...after };
  const detected = detectAll(states, { before, after, fix });
  // How long the device stayed is not known here.
  const made = eventsOf(
    detected.events.map((e) => ({ ...e, duration: null })),
    user,
    fix,
    live,
    clock,
  );
  for (const e of made) e.user = NO_ONE;
  const events = await graded(read, live, made);
  const recorded = (eventSeqs?: number[]) => events.map((e, i) => asRecorded(e, eventSeqs?.[i] ?? 0, 0));
  return {
    plan: {
      user: null,
      location: null,
      events,
      outbox: events.length
        ? outbox(await read.webhooksFor(live), live, user, detected.shown, recorded(), clock)
        : null,
      writes: [],
    },
    answer: (written) => ({ user, shown: detected.shown, events: recorded(written?.eventSeqs), owned: true }),
  };
}
