import { env } from "../../config/env";
import type { StoredTrip, TripOwner, TripTrackingReader, TripWrite } from "../../storage/trips";
import {
  DEFAULT_APPROACHING_MINUTES,
  type Destination,
  type TripLeg,
  destinationColumns,
  isEnded,
} from "./model";
import type { Trip } from "./progress";
import type { TripOptions } from "./options";
import type { Clock } from "../clock";

export type { Destination } from "./model";

/** Making trips and changing their options: shared by the track body's tripOptions and the trip calls. */

/** What a new trip is made of. */
export interface TripFields {
  externalId: string;
  owner: { userId: string | null; deviceId: string | null };
  status: "pending" | "started";
  mode?: string;
  metadata?: Record<string, unknown> | null;
  destination: Destination | null;
  approachingThreshold?: number;
  scheduledArrivalAt?: Date;
  legs?: TripLeg[];
}

/**
 * Where a new trip's id and createdAt come from (the tracking clock's): createdAt is the list's
 * cursor, so it is the strictly increasing clock's; the trip's other times are `at`, as they
 * happened (the machine's time, or the device's for a trip started by an update).
 */
type TripClock = Pick<Clock, "newId" | "now">;

export const ownerOf = (userId: string | null, deviceId: string): TripOwner =>
  userId ? { userId } : { deviceId };

export function newTrip(live: boolean, f: TripFields, at: Date, clock: TripClock): Trip {
  const started = f.status === "started";
  const createdAt = clock.now();
  return {
    id: clock.newId(createdAt.getTime()),
    live,
    externalId: f.externalId,
    userId: f.owner.userId,
    deviceId: f.owner.userId ? null : f.owner.deviceId,
    status: f.status,
    mode: f.mode ?? "car",
    metadata: f.metadata ?? null,
    ...destinationColumns(f.destination),
    approachingThreshold: f.approachingThreshold ?? DEFAULT_APPROACHING_MINUTES,
    scheduledArrivalAt: f.scheduledArrivalAt ?? null,
    etaDistance: null,
    etaDuration: null,
    etaSource: null,
    delayMinutes: null,
    legs: f.legs?.length ? f.legs : null,
    startNotified: false,
    createdAt,
    updatedAt: at,
    startedAt: started ? at : null,
    endedAt: null,
    expiresAt: new Date(at.getTime() + env().TRIP_EXPIRY_HOURS * 3_600_000),
  };
}

/** A trip's options changed as given (fields absent are kept; a new destination replaces the old). */
export function withOptions(
  trip: Trip,
  o: Omit<TripOptions, "externalId">,
  destination: Destination | null | undefined,
  at: Date,
): Trip {
  return {
    ...trip,
    ...(o.mode !== undefined && { mode: o.mode }),
    ...(o.metadata !== undefined && { metadata: o.metadata }),
    ...(o.approachingThreshold !== undefined && { approachingThreshold: o.approachingThreshold }),
    ...(o.scheduledArrivalAt !== undefined && { scheduledArrivalAt: o.scheduledArrivalAt }),
    ...(destination && !trip.legs && destinationColumns(destination)),
    updatedAt: at,
  };
}

const owns = (owner: TripOwner, t: StoredTrip) =>
  "userId" in owner ? t.userId === owner.userId : t.userId === null && t.deviceId === owner.deviceId;

export const withoutSeq = ({ seq: _seq, ...trip }: StoredTrip): Trip => trip;

/**
 * The trip a track body's tripOptions put the user on (as the SDKs send them with every update
 * while a trip runs): the trip of that externalId, made (started) when there is none, started when
 * pending, its options applied when active; none when it has ended (the answer then has no
 * user.trip, and the SDK stops its trip). Another trip the user was on is canceled, when
 * `mayEndOther` (the update comes from the user's own device, or with a secret key).
 */
export async function tripFromOptions(
  read: TripTrackingReader,
  live: boolean,
  owner: TripOwner,
  o: TripOptions,
  {
    destination,
    at,
    clock,
    mayEndOther,
  }: { destination: Destination | null; at: Date; clock: TripClock; mayEndOther: boolean },
): Promise<{ current: TripWrite | null; replaced: TripWrite | null }> {
  const found = await read.tripByRef(live, { externalId: o.externalId });
  const active = await read.activeTrip(live, owner);
  let current: TripWrite | null;
  if (!found) {
    const fields: TripFields = {
      externalId: o.externalId,
      owner: {
        userId: "userId" in owner ? owner.userId : null,
        deviceId: "deviceId" in owner ? owner.deviceId : null,
      },
      status: "started",
      mode: o.mode,
      metadata: o.metadata,
      destination,
      approachingThreshold: o.approachingThreshold,
      scheduledArrivalAt: o.scheduledArrivalAt,
    };
    current = { seq: null, trip: newTrip(live, fields, at, clock) };
  } else if (isEnded(found.status) || !owns(owner, found)) {
    // Ended, or another user's: not this user's trip to move on.
    current = null;
  } else {
    const trip = withOptions(withoutSeq(found), o, destination, at);
    if (trip.status === "pending") Object.assign(trip, { status: "started", startedAt: at });
    current = { seq: found.seq, trip };
  }
  const replaced =
    mayEndOther && current && active && active.seq !== current.seq
      ? { seq: active.seq, trip: { ...withoutSeq(active), status: "canceled", endedAt: at, updatedAt: at } }
      : null;
  return { current, replaced };
}
