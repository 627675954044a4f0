import type { AuthKey } from "../auth/keys";
import type { IsochroneMaking, StoredGeofence } from "../storage/geofence-records";
import { storage } from "../storage";
import { shaped } from "./isochrones";
import { reconcileMembers } from "./memberships";
import { ApiError, notFound } from "../errors";
import { validate } from "../http/request";
import {
  type GeofencePatch,
  type GeofenceWrite,
  geofenceColumns,
  geofenceWriteSchema,
  ringOf,
} from "./schema";

/**
 * The 409 for a tag and externalId another geofence has: it names that geofence, so a person
 * can go and look at it rather than overwrite it.
 */
async function identityConflict(key: AuthKey, tag: string | null, externalId: string | null) {
  const other =
    tag !== null && externalId !== null
      ? await storage().geofences.byRef(key.live, { tag, externalId })
      : null;
  const owner = other ? `geofence ${other.id} ("${other.description}")` : "another geofence";
  return new ApiError(
    "conflict",
    `externalId: tag "${tag}" and externalId "${externalId}" are already used by ${owner}; PUT /v1/geofences/{tag}/{externalId} replaces it`,
    "externalId",
  );
}

/** Creates a geofence; the (tag, externalId) pair is unique per world (the store enforces it). */
export async function createGeofence(key: AuthKey, input: GeofenceWrite): Promise<StoredGeofence> {
  const columns = geofenceColumns(await shaped(input));
  const geofence = await storage().geofences.create(key.live, columns);
  if (!geofence) throw await identityConflict(key, columns.tag, columns.externalId);
  return geofence;
}

/**
 * Replaces the geofence with this tag and externalId, or creates it. Users it no longer
 * contains are taken out of it.
 */
export async function upsertGeofence(key: AuthKey, tag: string, externalId: string, input: GeofenceWrite) {
  const { geofence } = await storage().geofences.put(key.live, {
    ...geofenceColumns(await shaped(input)),
    tag,
    externalId,
  });
  await reconcileMembers(geofence.seq);
  return geofence;
}

/** A stored geofence as the write body that would make it: what a partial update applies to. */
export function asWrite(g: StoredGeofence): Record<string, unknown> {
  const making = g.isochrone as IsochroneMaking | null;
  return {
    description: g.description,
    type: g.type,
    coordinates: g.type === "polygon" ? ringOf(g) : [g.centerLng, g.centerLat],
    ...(g.type === "circle" && { radius: g.radius }),
    ...(making && { radius: making.minutes, mode: making.mode }),
    tag: g.tag,
    externalId: g.externalId,
    metadata: g.metadata,
    enabled: g.enabled,
    dwellThreshold: g.dwellThreshold,
    userIds: g.userIds,
    stopDetection: g.stopDetection,
    disableAfter: g.disableAfter?.toISOString() ?? null,
    deleteAfter: g.deleteAfter?.toISOString() ?? null,
  };
}

const changedSince = (id: string, at: Date, when: string) =>
  new ApiError(
    "precondition_failed",
    `geofence ${id} was changed at ${at.toISOString()}, ${when}; load it again`,
  );

/**
 * How often a patch without a precondition is tried on a version changed meanwhile. An attempt
 * fails only when another write to the geofence landed in between, so n patches sent at once
 * all land within n attempts each; the bound only stops a patch starving under a stream of
 * writes to one geofence (that patch then answers 412).
 */
const PATCH_ATTEMPTS = 32;

/**
 * Changes the fields a patch names of the geofence with this _id and keeps every other one.
 * The result is held to the rules of a create; a tag and externalId another geofence has are a
 * 409 (nothing is overwritten). With `unmodifiedSince` (the updatedAt the caller last saw), a
 * geofence changed since is not touched: 412. The patch is applied to the version read here
 * and written only if that is still the version stored: without a precondition, a change made
 * meanwhile (by another request or app process) has the patch applied again to it; with one,
 * it is a 412.
 */
export async function updateGeofence(key: AuthKey, id: string, patch: GeofencePatch, unmodifiedSince?: Date) {
  let stored = await storage().geofences.byRef(key.live, { id });
  if (!stored) throw notFound(`geofence ${id}`);
  if (unmodifiedSince && stored.updatedAt.getTime() !== unmodifiedSince.getTime()) {
    throw changedSince(id, stored.updatedAt, "after the version you edited");
  }
  for (let attempt = 1; ; attempt++) {
    if (patch.type !== undefined && patch.type !== stored.type && patch.coordinates === undefined) {
      throw new ApiError("invalid_input", "coordinates: are required to change the type", "coordinates");
    }
    const columns = geofenceColumns(
      await shaped(validate(geofenceWriteSchema, { ...asWrite(stored), ...patch })),
    );
    const result = await storage().geofences.update(stored.seq, stored.updatedAt, columns);
    switch (result.status) {
      case "gone":
        throw notFound(`geofence ${id}`);
      case "taken":
        throw await identityConflict(key, columns.tag, columns.externalId);
      case "changed":
        // The store answers with the version that won: the patch is applied to it next.
        if (!unmodifiedSince && attempt < PATCH_ATTEMPTS) {
          stored = result.geofence;
          continue;
        }
        throw changedSince(id, result.geofence.updatedAt, "while this change was made");
    }
    await reconcileMembers(result.geofence.seq);
    return result.geofence;
  }
}

/**
 * An isochrone geofence drawn again on the roads imported now (server/planner/isochrone-
 * geofences.ts), as a new version with the rest of it kept; a change made meanwhile wins (it was
 * drawn on the new roads). False when it was not written.
 */
export async function redrawIsochrone(g: StoredGeofence): Promise<boolean> {
  const columns = geofenceColumns(await shaped(validate(geofenceWriteSchema, asWrite(g))));
  const result = await storage().geofences.update(g.seq, g.updatedAt, columns);
  if (result.status !== "updated") return false;
  await reconcileMembers(result.geofence.seq);
  return true;
}
