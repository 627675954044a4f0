import type { Json } from "./json";

/* Events: lists, verdicts and the counts the confidence model reads. */

export interface StoredEvent {
  seq: number;
  id: string;
  live: boolean;
  type: string;
  userSeq: number;
  /** the user as it was when the event happened (trimmed) */
  user: Json;
  geofenceId: string | null;
  /** the geofence as it was when the event happened (without geometry) */
  geofence: Json;
  /** the class its verdicts are pooled over (server/events/subject.ts) */
  subject: string | null;
  region: Json;
  place: Json;
  placeId: string | null;
  alternatePlaces: Json;
  verifiedPlace: Json;
  latitude: number;
  longitude: number;
  accuracy: number;
  confidence: number;
  probability: number;
  /** "core" or "edge" */
  band: string;
  verification: number;
  verifiedAt: Date | null;
  verifiedPlaceId: string | null;
  duration: number | null;
  /** a conversion's own fields (revenue among them) */
  metadata: Json;
  /** a trip event's trip, as it was (wire form) */
  trip: Json;
  createdAt: Date;
  actualCreatedAt: Date;
  /** made from a location the SDK replayed (stored offline, sent later) */
  replayed: boolean;
  /**
   * what a kind of event says of what the event is about when it has no column of its own (a
   * beacon's `beacon`): wire fields, merged into the event's wire form
   */
  kindFields: Json;
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
