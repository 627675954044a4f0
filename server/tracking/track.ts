import type { AuthKey } from "../auth/keys";
import type { Event, User } from "../db/client";
import { monotonicNow, newId } from "../db/ids";
import {
  type TrackedGeofence,
  type UserRow,
  type UserWrite,
  addMembership,
  geofenceFields,
  geofencesBySeqs,
  geofencesForUpdate,
  insertEvent,
  insertLocation,
  insertUser,
  markDwelled,
  membershipsOf,
  removeMembership,
  transaction,
  updateUser,
  userByDeviceId,
  userByUserId,
  userFromRow,
  verificationCounts,
} from "../db/sqlite/tracking";
import { withWriteLock } from "../db/write-lock";
import { bboxAround } from "../geo/distance";
import { ringAreaAndCentroid } from "../geo/polygon";
import type { GeofenceFields } from "../geofences/schema";
import { signedDistanceToShape } from "../geofences/shape";
import {
  ENTER_AT,
  EXIT_AT,
  MIN_ACCURACY,
  adjustedProbability,
  bandOf,
  confidenceOf,
  insideFraction,
} from "./confidence";
import type { TrackInput } from "./schema";
import { type Region, embeddedRegionsAt } from "../regions/embedded";
import { embeddedGeofence, trimUser } from "./serialize";

/** Minutes inside before user.dwelled_in_geofence, for geofences without their own dwellThreshold. */
export const DEFAULT_DWELL_MINUTES = 5;
/** Geofences farther than this from the location are not considered, however poor the accuracy. */
const MAX_REACH_M = 5000;

export interface TrackResult {
  user: User;
  geofences: GeofenceFields[];
  events: Event[];
}

interface Pending {
  live: boolean;
  input: TrackInput;
  resolve(r: TrackResult): void;
  reject(e: unknown): void;
}

const queue: Pending[] = [];
let flushing = false;

/**
 * Applies one location update: the user is created or updated, the update is kept in the
 * history, and geofence entries, exits and dwells become events.
 *
 * Updates are applied one after the other under the process's write lock, so two updates of
 * one device can never both see the same "before" state. Updates that arrive while others are
 * being written are applied together in one transaction (group commit): a commit costs more
 * than an update, so under load this multiplies throughput. Each update runs in a savepoint of
 * its own, so a failing one fails alone; each is acknowledged only after its commit.
 */
export function track(key: AuthKey, input: TrackInput): Promise<TrackResult> {
  return new Promise((resolve, reject) => {
    queue.push({ live: key.live, input, resolve, reject });
    if (!flushing) {
      flushing = true;
      waitingSince = performance.now();
      setImmediate(flush);
    }
  });
}

const MAX_BATCH = 64;
/** How long a batch may wait for updates whose bodies are still being read. */
const MAX_WAIT_MS = 2;
let arriving = 0;
let waitingSince = 0;

/**
 * Reads an update that will be passed to `track`: while bodies are still arriving, the next
 * commit waits for them (up to MAX_WAIT_MS), so concurrent updates share it.
 */
export async function readingUpdate<T>(read: () => Promise<T>): Promise<T> {
  arriving++;
  try {
    return await read();
  } finally {
    arriving--;
  }
}

function flush(): void {
  if (arriving > 0 && queue.length < MAX_BATCH && performance.now() - waitingSince < MAX_WAIT_MS) {
    setImmediate(flush);
    return;
  }
  const batch = queue.splice(0, MAX_BATCH);
  const outcomes: ({ ok: true; result: TrackResult } | { ok: false; error: unknown })[] = [];
  withWriteLock(() =>
    transaction(() => {
      const now = new Date();
      for (const item of batch) {
        try {
          outcomes.push({ ok: true, result: transaction(() => applyUpdate(item.live, item.input, now)) });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
      }
    }),
  )
    .then(
      () =>
        batch.forEach((item, i) => {
          const o = outcomes[i]!;
          if (o.ok) item.resolve(o.result);
          else item.reject(o.error);
        }),
      (error: unknown) => batch.forEach((item) => item.reject(error)),
    )
    .finally(() => {
      waitingSince = performance.now();
      if (queue.length) setImmediate(flush);
      else flushing = false;
    });
}

const regionOf = (v: unknown): Region | null => (v && typeof v === "object" ? (v as Region) : null);
const sameRegion = (a: Region | null, b: Region | null) =>
  !!a && !!b && a.type === b.type && (a.code ?? a.name) === (b.code ?? b.name);

/**
 * The country and state of a location (embedded data, docs/data.md). At sea, or in the slivers
 * between coarse shapes along coasts, the user keeps the regions it was in, so a walk along a
 * shore does not flip it out of and back into its country.
 */
function regionsFor(lng: number, lat: number, prev: User | undefined) {
  const found = embeddedRegionsAt(lng, lat);
  if (!found.country) return { country: regionOf(prev?.country), state: regionOf(prev?.state) };
  return { country: found.country, state: found.state ?? null };
}

/** The probability that a location with this accuracy lies inside the geofence. */
export function insideProbability(g: TrackedGeofence, lat: number, lng: number, accuracy: number): number {
  const area = g.type === "circle" ? Math.PI * g.radius * g.radius : ringAreaAndCentroid(g.ring).area;
  return insideFraction(signedDistanceToShape(lng, lat, g), accuracy, area);
}

function findUser(live: boolean, input: TrackInput): UserRow | undefined {
  if (!input.userId) return userByDeviceId(live, input.deviceId, false);
  // A device seen before without a userId is adopted by the user it now reports.
  return userByUserId(live, input.userId) ?? userByDeviceId(live, input.deviceId, true);
}

function applyUpdate(live: boolean, input: TrackInput, now: Date): TrackResult {
  const at = input.updatedAt ?? now;
  const existing = findUser(live, input);
  if (existing && at < new Date(existing.updatedAt)) {
    // An update older than what we know changes nothing.
    return { user: userFromRow(existing), geofences: currentGeofences(existing.seq), events: [] };
  }
  const prev = existing ? userFromRow(existing) : undefined;
  const regions = regionsFor(input.longitude, input.latitude, prev);
  const write: UserWrite = {
    deviceId: input.deviceId,
    userId: input.userId ?? prev?.userId ?? null,
    description: input.description ?? prev?.description ?? null,
    metadata: input.metadata !== undefined ? input.metadata : (prev?.metadata ?? null),
    deviceType: input.deviceType ?? prev?.deviceType ?? null,
    foreground: input.foreground ?? prev?.foreground ?? null,
    stopped: input.stopped ?? prev?.stopped ?? null,
    latitude: input.latitude,
    longitude: input.longitude,
    accuracy: input.accuracy,
    country: regions.country as User["country"],
    state: regions.state as User["state"],
    updatedAt: at,
  };
  let user: User;
  if (existing && prev) {
    updateUser(existing.seq, write);
    user = { ...prev, ...write };
  } else {
    const id = newId(now.getTime());
    user = { ...write, seq: insertUser(id, live, write, at), id, live, createdAt: at };
  }
  const seq = user.seq;
  insertLocation(seq, input.latitude, input.longitude, input.accuracy, at, now);

  const { latitude: lat, longitude: lng, accuracy } = input;
  const members = new Map(membershipsOf(seq).map((m) => [m.geofenceSeq, m]));
  const reach = Math.min(Math.max(accuracy, MIN_ACCURACY), MAX_REACH_M);
  const candidates = geofencesForUpdate(live, bboxAround(lng, lat, reach), [...members.keys()]);

  const events: Event[] = [];
  const inside: GeofenceFields[] = [];
  /** Stores an event about this update; `about` says what it concerns and how sure it is. */
  const record = (
    type: string,
    about: Pick<
      Event,
      "geofenceId" | "geofence" | "region" | "confidence" | "probability" | "band" | "duration"
    >,
  ) => {
    const event: Event = {
      seq: 0,
      id: newId(),
      live,
      type,
      userSeq: seq,
      user: trimUser(user),
      latitude: lat,
      longitude: lng,
      accuracy,
      verification: 0,
      verifiedAt: null,
      verifiedPlaceId: null,
      createdAt: monotonicNow(),
      actualCreatedAt: at,
      ...about,
    };
    event.seq = insertEvent(event);
    events.push(event);
  };
  const emit = (type: string, g: TrackedGeofence, p: number, duration: number | null) => {
    const band = bandOf(p);
    const { accepted, rejected } = verificationCounts(g.id, type, band);
    record(type, {
      geofenceId: g.id,
      geofence: embeddedGeofence(geofenceFields(g)) as Event["geofence"],
      region: null,
      confidence: confidenceOf(adjustedProbability(p, accepted, rejected)),
      probability: p,
      band,
      duration,
    });
  };

  for (const g of candidates) {
    const member = members.get(g.seq);
    if (!g.enabled) {
      // Disabled geofences make no events; a user in one is simply no longer counted inside.
      if (member) removeMembership(seq, g.seq);
      continue;
    }
    const p = insideProbability(g, lat, lng, accuracy);
    if (!member) {
      if (p >= ENTER_AT) {
        addMembership(seq, g.seq, at);
        emit("user.entered_geofence", g, p, null);
        inside.push(geofenceFields(g));
      }
      continue;
    }
    const enteredAt = new Date(member.enteredAt);
    if (p <= EXIT_AT) {
      removeMembership(seq, g.seq);
      const minutes = Math.max(0, (at.getTime() - enteredAt.getTime()) / 60_000);
      emit("user.exited_geofence", g, 1 - p, Math.round(minutes * 100) / 100);
      continue;
    }
    inside.push(geofenceFields(g));
    const dwell = (g.dwellThreshold ?? DEFAULT_DWELL_MINUTES) * 60_000;
    if (!member.dwelled && at.getTime() - enteredAt.getTime() >= dwell) {
      markDwelled(seq, g.seq);
      emit("user.dwelled_in_geofence", g, p, null);
    }
  }
  // Region changes: exits (state, then country) before entries (country, then state).
  const regionEvent = (type: string, region: Region) =>
    record(type, {
      geofenceId: null,
      geofence: null,
      region: region as unknown as Event["region"],
      // Region shapes are coarse next to a device's accuracy; see docs/confidence.md.
      confidence: 3,
      probability: 1,
      band: "core",
      duration: null,
    });
  const before = { country: regionOf(prev?.country), state: regionOf(prev?.state) };
  for (const kind of ["state", "country"] as const) {
    const old = before[kind];
    if (old && !sameRegion(old, regions[kind])) regionEvent(`user.exited_region_${kind}`, old);
  }
  for (const kind of ["country", "state"] as const) {
    const current = regions[kind];
    if (current && !sameRegion(current, before[kind])) regionEvent(`user.entered_region_${kind}`, current);
  }

  return { user, geofences: inside, events };
}

/** The enabled geofences a user is in now. */
export function currentGeofences(userSeq: number): GeofenceFields[] {
  const seqs = membershipsOf(userSeq).map((m) => m.geofenceSeq);
  return geofencesBySeqs(seqs)
    .filter((g) => g.enabled)
    .map(geofenceFields);
}
