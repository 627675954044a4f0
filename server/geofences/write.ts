import type { AuthKey } from "../auth/keys";
import { Prisma, prisma } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { withWriteLock } from "../db/write-lock";
import { reconcileMembers } from "../tracking/memberships";
import { monotonicNow, newId } from "../db/ids";
import { ApiError } from "../http/errors";
import { type GeofenceWrite, geofenceColumns } from "./schema";

function columns(input: GeofenceWrite) {
  const c = geofenceColumns(input);
  return { ...c, metadata: c.metadata ?? Prisma.DbNull };
}

const duplicate = (tag: string | undefined, externalId: string | undefined) =>
  new ApiError(
    "conflict",
    `externalId: a geofence with tag "${tag}" and externalId "${externalId}" already exists; PUT /v1/geofences/{tag}/{externalId} updates it`,
    "externalId",
  );

/** Creates a geofence; the (tag, externalId) pair is unique per world (the index enforces it). */
export async function createGeofence(key: AuthKey, input: GeofenceWrite) {
  try {
    return await withWriteLock(() => {
      const now = monotonicNow();
      return prisma.geofence.create({
        data: { id: newId(now.getTime()), live: key.live, ...columns(input), createdAt: now, updatedAt: now },
      });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw duplicate(input.tag, input.externalId);
    throw e;
  }
}

/**
 * Replaces the geofence with this tag and externalId, or creates it. Users it no longer
 * contains are taken out of it.
 */
export async function upsertGeofence(key: AuthKey, tag: string, externalId: string, input: GeofenceWrite) {
  const data = columns({ ...input, tag, externalId });
  return withWriteLock(async () => {
    const now = monotonicNow();
    const geofence = await prisma.geofence.upsert({
      where: { live_tag_externalId: { live: key.live, tag, externalId } },
      create: { id: newId(now.getTime()), live: key.live, ...data, createdAt: now, updatedAt: now },
      update: { ...data, updatedAt: now },
    });
    reconcileMembers(geofence.seq);
    return geofence;
  });
}
