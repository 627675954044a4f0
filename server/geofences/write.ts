import type { AuthKey } from "../auth/keys";
import { type Geofence, Prisma, prisma } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { withWriteLock } from "../db/write-lock";
import { reconcileMembers } from "../tracking/memberships";
import { monotonicNow, newId } from "../db/ids";
import { ApiError, notFound } from "../http/errors";
import { validate } from "../http/request";
import {
  type GeofencePatch,
  type GeofenceWrite,
  geofenceColumns,
  geofenceWriteSchema,
  ringOf,
} from "./schema";

/** A write's columns as Prisma stores them (no metadata: SQL NULL). */
export function columns(input: GeofenceWrite) {
  const c = geofenceColumns(input);
  return { ...c, metadata: c.metadata ?? Prisma.DbNull };
}

/**
 * The 409 for a tag and externalId another geofence has: it names that geofence, so a person
 * can go and look at it rather than overwrite it.
 */
async function identityConflict(key: AuthKey, tag: string | undefined, externalId: string | undefined) {
  const other =
    tag !== undefined && externalId !== undefined
      ? await prisma.geofence.findFirst({ where: { live: key.live, tag, externalId } })
      : null;
  const owner = other ? `geofence ${other.id} ("${other.description}")` : "another geofence";
  return new ApiError(
    "conflict",
    `externalId: tag "${tag}" and externalId "${externalId}" are already used by ${owner}; PUT /v1/geofences/{tag}/{externalId} replaces it`,
    "externalId",
  );
}

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
    if (isUniqueViolation(e)) throw await identityConflict(key, input.tag, input.externalId);
    throw e;
  }
}

/**
 * Replaces the geofence with this tag and externalId, or creates it. Users it no longer
 * contains are taken out of it.
 */
export async function upsertGeofence(key: AuthKey, tag: string, externalId: string, input: GeofenceWrite) {
  const data = columns({ ...input, tag, externalId });
  const geofence = await withWriteLock(() => {
    const now = monotonicNow();
    return prisma.geofence.upsert({
      where: { live_tag_externalId: { live: key.live, tag, externalId } },
      create: { id: newId(now.getTime()), live: key.live, ...data, createdAt: now, updatedAt: now },
      update: { ...data, updatedAt: now },
    });
  });
  await reconcileMembers(geofence.seq);
  return geofence;
}

/** A stored geofence as the write body that would make it: what a partial update applies to. */
function asWrite(g: Geofence): Record<string, unknown> {
  return {
    description: g.description,
    type: g.type,
    coordinates: g.type === "circle" ? [g.centerLng, g.centerLat] : ringOf(g),
    ...(g.type === "circle" && { radius: g.radius }),
    tag: g.tag,
    externalId: g.externalId,
    metadata: g.metadata,
    enabled: g.enabled,
    dwellThreshold: g.dwellThreshold,
  };
}

/**
 * Changes the fields a patch names of the geofence with this _id and keeps every other one.
 * The result is held to the rules of a create; a tag and externalId another geofence has are a
 * 409 (nothing is overwritten). With `unmodifiedSince` (the updatedAt the caller last saw), a
 * geofence changed since is not touched: 412.
 */
export async function updateGeofence(key: AuthKey, id: string, patch: GeofencePatch, unmodifiedSince?: Date) {
  const geofence = await withWriteLock(async () => {
    const stored = await prisma.geofence.findFirst({ where: { id, live: key.live } });
    if (!stored) throw notFound(`geofence ${id}`);
    if (unmodifiedSince && stored.updatedAt.getTime() !== unmodifiedSince.getTime()) {
      throw new ApiError(
        "precondition_failed",
        `geofence ${id} was changed at ${stored.updatedAt.toISOString()}, after the version you edited; load it again`,
      );
    }
    if (patch.type !== undefined && patch.type !== stored.type && patch.coordinates === undefined) {
      throw new ApiError("invalid_input", "coordinates: are required to change the type", "coordinates");
    }
    const input = validate(geofenceWriteSchema, { ...asWrite(stored), ...patch });
    try {
      // Only the version read above is changed: another app process may have changed it since.
      const { count } = await prisma.geofence.updateMany({
        where: { seq: stored.seq, updatedAt: stored.updatedAt },
        data: { ...columns(input), updatedAt: monotonicNow() },
      });
      const updated = await prisma.geofence.findUnique({ where: { seq: stored.seq } });
      if (!updated) throw notFound(`geofence ${id}`);
      if (!count) {
        throw new ApiError(
          "precondition_failed",
          `geofence ${id} was changed at ${updated.updatedAt.toISOString()} while this change was made; load it again`,
        );
      }
      return updated;
    } catch (e) {
      if (isUniqueViolation(e)) throw await identityConflict(key, input.tag, input.externalId);
      throw e;
    }
  });
  await reconcileMembers(geofence.seq);
  return geofence;
}
