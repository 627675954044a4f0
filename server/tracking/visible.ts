import type { AuthKey } from "../auth/keys";
import type { StoredEvent } from "../storage/events";
import type { StoredUser } from "../storage/users";
import { deviceAfter } from "./device";
import { serializeEvent } from "./serialize";
import type { TrackInput } from "./schema";

/**
 * What an answer to a publishable key may carry (docs/security.md). The key ships in every app,
 * so it is known to everyone, and devices are not authenticated: a request may write as any
 * device (Radar's model, which the SDKs depend on), but its answer carries stored state only
 * when the request proves it is the user's device — it names the deviceId or the installId of
 * the user's last accepted update — or when the request sent that state itself. Secret keys and
 * dashboard sessions see everything.
 */

/** The device identities a request names. */
export interface Claimed {
  deviceId?: string | null;
  installId?: string | null;
}

/** Whether the request names the device of the user's last accepted update. */
export function ownsDevice(user: Pick<StoredUser, "deviceId" | "device">, claimed: Claimed): boolean {
  if (claimed.deviceId && claimed.deviceId === user.deviceId) return true;
  const installId = (user.device as { installId?: unknown } | null)?.installId;
  return !!claimed.installId && claimed.installId === installId;
}

/** Whether an answer to `key` may carry the stored state of a user the request does (not) own. */
export const mayRead = (key: Pick<AuthKey, "kind">, owned: boolean) => owned || key.kind !== "publishable";

/**
 * A location update's user as the request itself sent it: the identifier of the record it was
 * written to (the SDKs read no user without one), the fields and the fix it sent, at its time;
 * none of the stored user's geofences, place, regions, trip or profile.
 */
export function sentUser(id: string, input: TrackInput, at: Date, live: boolean): Record<string, unknown> {
  const w: Record<string, unknown> = { _id: id };
  if (input.userId) w.userId = input.userId;
  w.deviceId = input.deviceId;
  if (input.description !== undefined) w.description = input.description;
  if (input.metadata !== undefined && input.metadata !== null) w.metadata = input.metadata;
  w.location = { type: "Point", coordinates: [input.longitude, input.latitude] };
  w.locationAccuracy = input.accuracy;
  if (input.foreground !== undefined) w.foreground = input.foreground;
  if (input.stopped !== undefined) w.stopped = input.stopped;
  if (input.deviceType !== undefined) w.deviceType = input.deviceType;
  Object.assign(w, deviceAfter(undefined, input));
  w.geofences = [];
  w.updatedAt = at.toISOString();
  w.actualUpdatedAt = at.toISOString();
  w.live = live;
  return w;
}

/**
 * An event of a user the request does not own, as it may see it: its own fields, without the
 * user's location, and with only the identities the request sent (a conversion for a userId).
 */
export function sentEvent(
  e: StoredEvent,
  sent: Claimed & { userId?: string | null },
): Record<string, unknown> {
  const { location: _location, locationAccuracy: _accuracy, ...rest } = serializeEvent(e);
  const user: Record<string, unknown> = { _id: (e.user as { _id?: string } | null)?._id };
  if (sent.userId) user.userId = sent.userId;
  if (sent.deviceId) user.deviceId = sent.deviceId;
  return { ...rest, user };
}
