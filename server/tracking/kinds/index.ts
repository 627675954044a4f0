import type { TrackingReader } from "../../storage/tracking";
import type { StoredUser } from "../../storage/users";
import type { TrackInput } from "../schema";
import { geofences } from "./geofences";
import type { Kind, Shown } from "./kind";
import { places } from "./places";
import { regions } from "./regions";
import { trips } from "../trips/kind";
import { beacons } from "../beacons/kind";

/**
 * Every kind of event, in the order their events are listed and their states loaded (a kind
 * loads after the kinds it uses): a new kind is its module (./kind.ts) added here.
 */
export const KINDS: readonly Kind<unknown>[] = [geofences, places, regions, trips, beacons];

/** What the kinds find before an update's transaction, by kind name (../track.ts). */
export type Prepared = ReadonlyMap<string, unknown>;

export async function prepareKinds(live: boolean, input: TrackInput): Promise<Prepared> {
  const found = await Promise.all(KINDS.map(async (k) => [k.name, await k.prepare?.(live, input)] as const));
  return new Map(found.filter(([, v]) => v !== undefined));
}

/** What the wire forms of stored users of one world show of every kind, read at once for all, in order. */
export async function shownOfMany(users: readonly StoredUser[]): Promise<Shown[]> {
  if (!users.length) return [];
  const parts = await Promise.all(KINDS.map((k) => k.storedMany?.(users)));
  return users.map((_, i) => Object.assign({}, ...parts.map((p) => p?.[i])) as Shown);
}

/** What a stored user's wire form shows of every kind (its geofences, its trip, …). */
export async function shownOf(read: TrackingReader, user: StoredUser): Promise<Shown> {
  const parts = await Promise.all(KINDS.map((k) => k.stored?.(read, user)));
  return Object.assign({}, ...parts) as Shown;
}
