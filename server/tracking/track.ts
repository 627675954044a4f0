import type { AuthKey } from "../auth/keys";
import type { StoredEvent as Event, StoredUser as User } from "../storage";
import { monotonicNow, newId } from "../db/ids";
import {
  type Decision,
  type StoredUser,
  type TrackedGeofence,
  type TrackingPlan,
  type TrackingReader,
  type UserWrite,
  storage,
} from "../storage";
import { bboxAround, haversine } from "../geo/distance";
import { ringAreaAndCentroid } from "../geo/polygon";
import type { GeofenceFields } from "../geofences/schema";
import { signedDistanceToShape } from "../geofences/shape";
import {
  ENTER_AT,
  EXIT_AT,
  MIN_ACCURACY,
  bandOf,
  estimatedPrecision,
  gradeOf,
  insideFraction,
} from "./confidence";
import { eventSubject } from "../events/subject";
import type { TrackInput } from "./schema";
import type { Region } from "../regions/embedded";
import { REGION_TYPES, type Regions, regionsAt } from "../geodata/regions";
import { type WirePlace, distanceToPlace, placeById, serializePlace } from "../geodata/places";
import { type Detection, LEAVE_AT_M, VERDICT_RADIUS_M, detectPlace } from "./places";
import { embeddedGeofence, trimUser } from "./serialize";
import { decodedOnce } from "../geofences/decoded";

/** Minutes inside before user.dwelled_in_geofence, for geofences without their own dwellThreshold. */
export const DEFAULT_DWELL_MINUTES = 5;
/** Postal areas are small next to a fix's accuracy, and the embedded US ones approximate. */
const POSTAL_CODE_PROBABILITY = 0.8;
/** Geofences farther than this from the location are not considered, however poor the accuracy. */
const MAX_REACH_M = 5000;

export interface TrackResult {
  user: User;
  geofences: GeofenceFields[];
  events: Event[];
}

/**
 * Applies one location update: the user is created or updated, the update is kept in the
 * history, and geofence entries, exits and dwells become events.
 *
 * The update is decided (`decide`, below) inside the transaction that writes it, with no other
 * update of the device decided meanwhile: the tracking store (server/storage/port.ts) owns the
 * transaction, the lock and any batching, so two updates of one device never both see the same
 * "before" state, and one answered update is one written update.
 */
export function track(key: AuthKey, input: TrackInput): Promise<TrackResult> {
  return storage().tracking.apply(
    { live: key.live, deviceId: input.deviceId, userId: input.userId ?? null },
    (read) => decide(read, key.live, input, monotonicNow()),
  );
}

const regionOf = (v: unknown): Region | null => (v && typeof v === "object" ? (v as Region) : null);
const sameRegion = (a: Region | null, b: Region | null) =>
  !!a && !!b && a.type === b.type && (a.code ?? a.name) === (b.code ?? b.name);

type UserRegions = Record<(typeof REGION_TYPES)[number], Region | null>;

/**
 * The regions of a location (docs/data.md). At sea, or in the slivers between coarse shapes
 * along coasts, the user keeps the regions it was in, so a walk along a shore does not flip it
 * out of and back into its country.
 */
function regionsFor(lng: number, lat: number, prev: User | undefined): UserRegions {
  const found: Regions = regionsAt(lng, lat);
  const keep = !found.country;
  return Object.fromEntries(
    REGION_TYPES.map((t) => [t, keep ? regionOf(prev?.[t]) : (found[t] ?? null)]),
  ) as UserRegions;
}

/** Two fixes this close count as standing still when the device does not say. */
const SAME_SPOT_M = 25;

/**
 * Whether the user is stopped: as the device says, or, when it does not say, when this fix is
 * within 25 m of the previous one.
 */
function isStopped(input: TrackInput, prev: User | undefined): boolean {
  if (input.stopped !== undefined) return input.stopped;
  return !!prev && haversine(prev.longitude, prev.latitude, input.longitude, input.latitude) <= SAME_SPOT_M;
}

/** The probability that a location with this accuracy lies inside the geofence. */
export function insideProbability(
  g: Pick<TrackedGeofence, "type" | "radius" | "ring" | "centerLng" | "centerLat">,
  lat: number,
  lng: number,
  accuracy: number,
): number {
  const area = g.type === "circle" ? Math.PI * g.radius * g.radius : ringAreaAndCentroid(g.ring).area;
  return insideFraction(signedDistanceToShape(lng, lat, g), accuracy, area);
}

interface PlaceChange {
  place: WirePlace | null;
  enteredAt: Date | null;
  exit?: { place: WirePlace; duration: number; probability: number };
  enter?: Detection;
}

/**
 * Where the user is now as far as places go (server/tracking/places.ts): a stopped user at a
 * different place than before leaves the old one and enters the new one; a user farther than
 * 100 m (beyond its accuracy) from its place leaves it.
 */
async function placeChangeFor(
  read: TrackingReader,
  live: boolean,
  input: TrackInput,
  prev: User | undefined,
  at: Date,
): Promise<PlaceChange> {
  const { longitude: lng, latitude: lat, accuracy } = input;
  const current = (prev?.place as WirePlace | null | undefined) ?? null;
  const since = prev?.placeEnteredAt ?? null;
  let detection: PlaceChange["enter"];
  if (isStopped(input, prev)) {
    const verdicts = await read.placeVerdictsInBox(live, bboxAround(lng, lat, VERDICT_RADIUS_M));
    detection = detectPlace(lng, lat, accuracy, verdicts);
  }
  const stored = current ? placeById(current._id) : undefined;
  const beyond = current ? (stored ? distanceToPlace(lng, lat, stored) - accuracy : Infinity) : 0;
  const leaving = !!current && (beyond > LEAVE_AT_M || (!!detection && detection.place.oid !== current._id));
  const exit =
    current && leaving
      ? {
          place: current,
          duration: since
            ? Math.round(Math.max(0, (at.getTime() - since.getTime()) / 60_000) * 100) / 100
            : 0,
          // Sure when far beyond the accuracy or stopped at another place; less so otherwise.
          probability: beyond > 2 * LEAVE_AT_M || detection ? 1 : 0.8,
        }
      : undefined;
  if (detection && (!current || leaving)) {
    return { place: serializePlace(detection.place), enteredAt: at, exit, enter: detection };
  }
  if (leaving) return { place: null, enteredAt: null, exit };
  return { place: current, enteredAt: since };
}

async function findUser(read: TrackingReader, live: boolean, input: TrackInput): Promise<StoredUser | null> {
  if (!input.userId) return read.userByDeviceId(live, input.deviceId, false);
  // A device seen before without a userId is adopted by the user it now reports.
  return (await read.userByUserId(live, input.userId)) ?? read.userByDeviceId(live, input.deviceId, true);
}

/**
 * The updatedAt a user is stored with: the update's time, or 1 ms later for each user of the
 * world already stored at that instant. User lists page on updatedAt alone (Radar's cursors are
 * datetimes), so two users with one updatedAt would let a page boundary skip one of them. It is
 * the lists' key only: the device's own order is kept by actualUpdatedAt.
 */
async function distinctUpdatedAt(
  read: TrackingReader,
  live: boolean,
  at: Date,
  seq: number | null,
): Promise<Date> {
  let t = at;
  while (await read.userUpdatedAtTaken(live, t, seq)) t = new Date(t.getTime() + 1);
  return t;
}

/**
 * What one update changes, decided from what the store holds now (read inside the transaction
 * that will write the plan) and the embedded region and place data.
 */
async function decide(
  read: TrackingReader,
  live: boolean,
  input: TrackInput,
  now: Date,
): Promise<Decision<TrackResult>> {
  const at = input.updatedAt ?? now;
  const existing = await findUser(read, live, input);
  // Which of a device's updates is newer is decided on the times it sent (actualUpdatedAt), never
  // on updatedAt: that one is moved on to keep user lists' cursors apart, and may run ahead of
  // the device's next update.
  if (existing && at < existing.actualUpdatedAt) {
    // An update older than what we know changes nothing.
    const seqs = (await read.memberships(existing.seq)).map((m) => m.geofenceSeq);
    const geofences: GeofenceFields[] = (await read.geofencesBySeqs(seqs)).filter((g) => g.enabled);
    return { plan: null, answer: () => ({ user: existing, geofences, events: [] }) };
  }
  const prev = existing ?? undefined;
  const regions = regionsFor(input.longitude, input.latitude, prev);
  const placeChange = await placeChangeFor(read, live, input, prev, at);
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
    postalCode: regions.postalCode as User["postalCode"],
    dma: regions.dma as User["dma"],
    place: placeChange.place as User["place"],
    placeEnteredAt: placeChange.enteredAt,
    actualUpdatedAt: at,
    updatedAt: await distinctUpdatedAt(read, live, at, existing?.seq ?? null),
  };
  const user: User = prev
    ? { ...prev, ...write }
    : { ...write, seq: 0, id: newId(now.getTime()), live, createdAt: at };
  const plan: TrackingPlan = {
    user: { seq: prev ? prev.seq : null, id: user.id, live, createdAt: user.createdAt, write },
    location: {
      latitude: input.latitude,
      longitude: input.longitude,
      accuracy: input.accuracy,
      recordedAt: at,
      receivedAt: now,
    },
    entered: [],
    exited: [],
    dwelled: [],
    events: [],
  };

  const { latitude: lat, longitude: lng, accuracy } = input;
  const members = new Map(prev ? (await read.memberships(prev.seq)).map((m) => [m.geofenceSeq, m]) : []);
  const reach = Math.min(Math.max(accuracy, MIN_ACCURACY), MAX_REACH_M);
  const candidates = await decodedOnce(
    await read.geofenceVersionsNear(live, bboxAround(lng, lat, reach), [...members.keys()]),
    (seqs) => read.geofencesBySeqs(seqs),
  );

  const inside: GeofenceFields[] = [];
  // Every event of the update copies the user as it is after it.
  const userCopy = trimUser(user);
  /**
   * An event about this update. `about` says what it concerns and `probability` how likely it
   * is from geometry (or place detection) alone.
   */
  const record = (
    type: string,
    about: Pick<Event, "geofenceId" | "geofence" | "probability" | "band" | "duration"> &
      Partial<Pick<Event, "region" | "place" | "placeId" | "alternatePlaces">>,
  ) => {
    plan.events.push({
      id: newId(),
      live,
      type,
      user: userCopy,
      latitude: lat,
      longitude: lng,
      accuracy,
      region: null,
      place: null,
      placeId: null,
      alternatePlaces: null,
      createdAt: monotonicNow(),
      actualCreatedAt: at,
      ...about,
      subject: eventSubject({ ...about, region: regionOf(about.region) }),
      // Set below, from the verdicts on the event's class, read for all events at once.
      confidence: 0,
    });
  };
  const emit = (type: string, g: TrackedGeofence, p: number, duration: number | null) =>
    record(type, {
      geofenceId: g.id,
      geofence: embeddedGeofence(g) as Event["geofence"],
      probability: p,
      band: bandOf(p),
      duration,
    });

  for (const g of candidates) {
    const member = members.get(g.seq);
    if (!g.enabled) {
      // Disabled geofences make no events; a user in one is simply no longer counted inside.
      if (member) plan.exited.push(g.seq);
      continue;
    }
    const p = insideProbability(g, lat, lng, accuracy);
    if (!member) {
      if (p >= ENTER_AT) {
        plan.entered.push({ geofenceSeq: g.seq, enteredAt: at });
        emit("user.entered_geofence", g, p, null);
        inside.push(g);
      }
      continue;
    }
    const enteredAt = member.enteredAt;
    if (p <= EXIT_AT) {
      plan.exited.push(g.seq);
      const minutes = Math.max(0, (at.getTime() - enteredAt.getTime()) / 60_000);
      emit("user.exited_geofence", g, 1 - p, Math.round(minutes * 100) / 100);
      continue;
    }
    inside.push(g);
    const dwell = (g.dwellThreshold ?? DEFAULT_DWELL_MINUTES) * 60_000;
    if (!member.dwelled && at.getTime() - enteredAt.getTime() >= dwell) {
      plan.dwelled.push(g.seq);
      emit("user.dwelled_in_geofence", g, p, null);
    }
  }
  // Place changes: the exit before the entry.
  const { exit, enter } = placeChange;
  if (exit) {
    record("user.exited_place", {
      geofenceId: null,
      geofence: null,
      place: exit.place as Event["place"],
      placeId: exit.place._id,
      probability: exit.probability,
      band: "core",
      duration: exit.duration,
    });
  }
  if (enter) {
    record("user.entered_place", {
      geofenceId: null,
      geofence: null,
      place: serializePlace(enter.place) as Event["place"],
      placeId: enter.place.oid,
      alternatePlaces: enter.alternates.map(serializePlace) as Event["alternatePlaces"],
      probability: enter.probability,
      band: "core",
      duration: null,
    });
  }

  // Region changes: exits (smallest first) before entries (largest first).
  const regionEvent = (type: string, region: Region) =>
    record(type, {
      geofenceId: null,
      geofence: null,
      region: region as unknown as Event["region"],
      // Country and state shapes are coarse next to a device's accuracy; postal areas are not,
      // and the embedded ones are approximate: see docs/confidence.md.
      probability: region.type === "postalCode" ? POSTAL_CODE_PROBABILITY : 1,
      band: "core",
      duration: null,
    });
  const eventName = { country: "country", state: "state", postalCode: "postal_code", dma: "dma" } as const;
  for (const kind of [...REGION_TYPES].reverse()) {
    const old = regionOf(prev?.[kind]);
    if (old && !sameRegion(old, regions[kind])) regionEvent(`user.exited_region_${eventName[kind]}`, old);
  }
  for (const kind of REGION_TYPES) {
    const current = regions[kind];
    if (current && !sameRegion(current, regionOf(prev?.[kind]))) {
      regionEvent(`user.entered_region_${eventName[kind]}`, current);
    }
  }

  // Each event's confidence is the estimated precision of its class (subject, type and band),
  // given the verdicts on the class's earlier events (docs/confidence.md).
  const classified = plan.events.filter((e) => e.subject !== null);
  const counts = await read.verificationCounts(
    live,
    classified.map((e) => ({ subject: e.subject!, type: e.type, band: e.band })),
  );
  const countsOf = new Map(classified.map((e, i) => [e, counts[i]!]));
  for (const e of plan.events) {
    const { accepted, rejected } = countsOf.get(e) ?? { accepted: 0, rejected: 0 };
    e.confidence = gradeOf(e.type)(estimatedPrecision(e.probability, accepted, rejected));
  }

  return {
    plan,
    answer: (written) => {
      const userSeq = written?.userSeq ?? user.seq;
      const events: Event[] = plan.events.map((e, i) => ({
        ...e,
        seq: written?.eventSeqs[i] ?? 0,
        userSeq,
        verification: 0,
        verifiedAt: null,
        verifiedPlaceId: null,
        verifiedPlace: null,
      }));
      return { user: { ...user, seq: userSeq }, geofences: inside, events };
    },
  };
}
