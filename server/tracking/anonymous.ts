import type { AuthKey } from "../auth/keys";
import { placeById, serializePlace } from "../geodata/places";
import { REGION_TYPES, type Regions } from "../geodata/regions";
import { regionById, regionId } from "../regions/ids";
import type { Decision, Membership, TrackingReader, UserWrite } from "../storage/tracking";
import type { StoredUser } from "../storage/users";
import { storage } from "../storage";
import { type Clock, asRecorded, eventsOf, outbox, graded } from "./plan";
import { type TrackResult, detectAll, insideAfter } from "./decide";
import { geofences } from "./detectors/geofences";
import { places } from "./detectors/places";
import { regions } from "./detectors/regions";
import type { Detector, EventDraft } from "./detectors/types";
import type { TrackInput } from "./schema";
import { type Fix, loadSnapshot } from "./snapshot";

/**
 * Anonymous tracking, as Radar's SDKs mean it (`anonymous: true`, `deviceId: "anonymous"`): the
 * device keeps its own state — the geofences, the place and the regions it is in, as the last
 * answer told it — and sends it with each update. Nothing of the device is stored or read: no
 * user, history, membership or log. Its events are decided from the state it sent against the
 * fix, stored and sent to webhooks under no user (their `user` is `{deviceId: "anonymous"}`), and
 * the answer holds only what this update decided: two anonymous devices never see each other.
 */

/** What an anonymous device's events say of their user. */
const NO_ONE = { deviceId: "anonymous" };

/** The kinds an anonymous device can have state of (no trips: a trip needs its user). */
const DETECTORS: readonly Detector[] = [geofences, places, regions];

export function trackAnonymous(key: AuthKey, input: TrackInput, clock: Clock): Promise<TrackResult> {
  // Nothing of one anonymous update waits for another's: each holds a lock of its own.
  const device = { live: key.live, deviceId: `anonymous:${clock.newId()}`, userId: null };
  return storage().tracking.apply(device, (read) => decideAnonymous(read, key.live, input, clock));
}

/**
 * The regions the device says it is in, by kind: the one at the fix (`here`) when it names it,
 * else one this thread answered.
 */
function regionsSent(ids: readonly string[], here: Regions): Regions {
  const named = new Set(ids);
  const found: Regions = {};
  for (const id of ids) {
    const r = regionById(id);
    if (r && (REGION_TYPES as readonly string[]).includes(r.type)) found[r.type as keyof typeof found] = r;
  }
  for (const type of REGION_TYPES) {
    const r = here[type];
    if (r && named.has(regionId(r))) found[type] = r;
  }
  return found;
}

/** The device as it says it was: a user that is never stored (its regions are set from the snapshot's). */
async function deviceBefore(
  read: TrackingReader,
  live: boolean,
  input: TrackInput,
  fix: Fix,
  clock: Clock,
): Promise<{ before: StoredUser; memberships: Membership[] }> {
  const seqs = await read.geofenceSeqsByIds(live, input.geofenceIds ?? []);
  const place = input.placeId ? placeById(input.placeId) : undefined;
  const epoch = new Date(0);
  return {
    // Entered at this fix as far as it is known here (dwelled: no dwell is made of an unknown stay).
    memberships: seqs.map((geofenceSeq) => ({ geofenceSeq, enteredAt: fix.at, dwelled: true })),
    before: {
      seq: -1,
      id: clock.newId(fix.at.getTime()),
      live,
      deviceId: "anonymous",
      userId: null,
      description: null,
      metadata: null,
      deviceType: null,
      device: null,
      foreground: null,
      stopped: null,
      latitude: fix.latitude,
      longitude: fix.longitude,
      accuracy: fix.accuracy,
      country: null,
      state: null,
      postalCode: null,
      dma: null,
      place: (place ? serializePlace(place) : null) as StoredUser["place"],
      placeEnteredAt: null,
      createdAt: fix.at,
      actualUpdatedAt: epoch,
      updatedAt: epoch,
    },
  };
}

export async function decideAnonymous(
  read: TrackingReader,
  live: boolean,
  input: TrackInput,
  clock: Clock,
): Promise<Decision<TrackResult>> {
  const at = input.updatedAt ?? clock.wall();
  const fix: Fix = {
    latitude: input.latitude,
    longitude: input.longitude,
    accuracy: input.accuracy,
    at,
    stopped: input.stopped ?? false,
    replayed: input.replayed === true,
  };
  const { before, memberships } = await deviceBefore(read, live, input, fix, clock);
  const snapshot = await loadSnapshot({ ...read, memberships: async () => memberships }, live, fix, before);
  // The regions it says it was in, judged against those at the fix (the snapshot's).
  Object.assign(before, regionsSent(input.regionIds ?? [], snapshot.regions));
  const after: UserWrite = {
    deviceId: "anonymous",
    userId: null,
    description: null,
    metadata: null,
    deviceType: input.deviceType ?? null,
    device: null,
    foreground: input.foreground ?? null,
    stopped: input.stopped ?? null,
    latitude: fix.latitude,
    longitude: fix.longitude,
    accuracy: fix.accuracy,
    country: null,
    state: null,
    postalCode: null,
    dma: null,
    place: null,
    placeEnteredAt: null,
    actualUpdatedAt: at,
    updatedAt: at,
    ...Object.assign({}, ...DETECTORS.map((d) => d.next?.(before, fix, snapshot))),
  };
  const user: StoredUser = { seq: 0, id: before.id, live, createdAt: at, ...after };
  const detected = detectAll(DETECTORS, { before, after, fix, snapshot });
  // How long the device stayed is not known here.
  const drafts: EventDraft[] = detected.events.map((e) => ({ ...e, duration: null }));
  const made = eventsOf(drafts, user, fix, live, clock);
  for (const e of made) e.user = NO_ONE;
  const events = await graded(read, live, made);
  const inside = insideAfter(snapshot, detected.memberships);
  const recorded = (eventSeqs?: number[]) => events.map((e, i) => asRecorded(e, eventSeqs?.[i] ?? 0, 0));
  return {
    plan: {
      user: null,
      location: null,
      entered: [],
      exited: [],
      dwelled: [],
      events,
      outbox: events.length
        ? outbox(await read.webhooksFor(live), live, user, inside, recorded(), clock)
        : null,
      trips: [],
    },
    answer: (written) => ({
      user,
      geofences: inside,
      events: recorded(written?.eventSeqs),
      trip: null,
      owned: true,
    }),
  };
}
