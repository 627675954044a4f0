import type { EventWrite, PartWrite, TrackingPlan, TrackingReader, Written } from "../storage/tracking";
import type { OutboxWrite, WebhookTarget } from "../storage/webhook-records";
import type { StoredEvent as Event } from "../storage/events";
import type { StoredUser as User } from "../storage/users";
import { estimatedPrecision, gradeOf } from "../events/confidence";
import type { Clock } from "./clock";
import { shownOf } from "./kinds";
import type { EventDraft, Shown } from "./kinds/kind";
import { outboxFor } from "../webhooks/outbox";
import { serializeEvent, serializeUser, trimUser } from "./serialize";
import type { Fix } from "./fix";

/**
 * What a decision writes of its events (./decide.ts): each draft as an event of the update,
 * graded on the verdicts of its class, with what it owes webhooks; and the plan for events made
 * outside a location update (a trip call, a conversion).
 */

/**
 * What the update's events owe the world's enabled webhooks (server/webhooks/outbox.ts): the
 * events and the user as the API serializes them now, written with the events.
 */
export function outbox(
  targets: readonly WebhookTarget[],
  live: boolean,
  user: User,
  shown: Shown,
  events: Event[],
  clock: Clock,
): OutboxWrite | null {
  if (!targets.length) return null;
  const wire = events.map((e) => ({ id: e.id, type: e.type, wire: serializeEvent(e) }));
  return outboxFor(targets, wire, { id: user.id, live, wire: serializeUser(user, shown) }, clock);
}

/**
 * A plan for events of a user made outside a location update (a trip call): at the user's last
 * location, at `at`, with what they owe webhooks; the user row is written as it is.
 */
export async function userEventsPlan(
  read: TrackingReader,
  user: User,
  drafts: EventDraft[],
  writes: PartWrite[],
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
  const shown = await shownOf(read, user);
  const recorded = (written: Written | null) =>
    events.map((e, i) => asRecorded(e, written?.eventSeqs[i] ?? 0, user.seq));
  const { seq, id, createdAt: userCreatedAt, live: _live, ...write } = user;
  return {
    plan: {
      user: { seq, id, live, createdAt: userCreatedAt, updatedBefore: write.updatedAt, write },
      location: null,
      events,
      outbox: events.length
        ? outbox(await read.webhooksFor(live), live, user, shown, recorded(null), clock)
        : null,
      writes,
    },
    recorded,
  };
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
  kindFields: e.kindFields,
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
    const about = d.about;
    // Every field listed, none spread (docs/development.md, "Objects on hot paths").
    return {
      trip: about.trip ?? null,
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
      geofenceId: about.geofenceId ?? null,
      geofence: about.geofence ?? null,
      region: about.region ?? null,
      place: about.place ?? null,
      placeId: about.placeId ?? null,
      alternatePlaces: about.alternatePlaces ?? null,
      kindFields: about.kindFields ?? null,
      probability: d.probability,
      band: d.band,
      duration: d.duration,
      metadata: null,
      subject: d.subject,
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
