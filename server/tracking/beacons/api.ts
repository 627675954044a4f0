import type { AuthKey } from "../../auth/keys";
import { ApiError, notFound } from "../../errors";
import { bboxAround, haversine } from "../../geo/distance";
import type { BeaconRef, StoredBeacon } from "../../storage/beacons";
import { pageOfWholeInstants } from "../../storage/paging";
import { storage } from "../../storage";
import {
  type BeaconPatch,
  type BeaconWrite,
  type beaconListSchema,
  BEACON_LIST_LIMIT,
  beaconColumns,
} from "./schema";
import type { z } from "zod";

/* The beacons API (docs/beacons.md), shaped like the geofences API. */

const describe = (ref: BeaconRef) =>
  "id" in ref ? `beacon ${ref.id}` : `beacon with tag "${ref.tag}" and externalId "${ref.externalId}"`;

/** The 409 for a tag and externalId another beacon has: it names that beacon. */
async function identityConflict(key: AuthKey, tag: string | null, externalId: string | null) {
  const other =
    tag !== null && externalId !== null ? await storage().beacons.byRef(key.live, { tag, externalId }) : null;
  const owner = other ? `beacon ${other.id} ("${other.description}")` : "another beacon";
  return new ApiError(
    "conflict",
    `externalId: tag "${tag}" and externalId "${externalId}" are already used by ${owner}; PUT /v1/beacons/{tag}/{externalId} replaces it`,
    "externalId",
  );
}

export async function createBeacon(key: AuthKey, input: BeaconWrite): Promise<StoredBeacon> {
  const columns = beaconColumns(input);
  const beacon = await storage().beacons.create(key.live, columns);
  if (!beacon) throw await identityConflict(key, columns.tag, columns.externalId);
  return beacon;
}

/** Replaces the beacon with this tag and externalId, or makes it. */
export async function upsertBeacon(key: AuthKey, tag: string, externalId: string, input: BeaconWrite) {
  const { beacon } = await storage().beacons.put(key.live, { ...beaconColumns(input), tag, externalId });
  return beacon;
}

/** Changes the fields sent of a beacon and keeps the others. */
export async function updateBeacon(key: AuthKey, ref: BeaconRef, patch: BeaconPatch): Promise<StoredBeacon> {
  const before = await getBeacon(key, ref);
  const columns = beaconColumns(patch, before);
  const changed = await storage().beacons.update(key.live, { id: before.id }, columns);
  if (changed === "taken") throw await identityConflict(key, columns.tag, columns.externalId);
  if (!changed) throw notFound(describe(ref));
  return changed;
}

export async function getBeacon(key: AuthKey, ref: BeaconRef): Promise<StoredBeacon> {
  const found = await storage().beacons.byRef(key.live, ref);
  if (!found) throw notFound(describe(ref));
  return found;
}

export async function deleteBeacon(key: AuthKey, ref: BeaconRef): Promise<void> {
  if (!(await storage().beacons.delete(key.live, ref))) throw notFound(describe(ref));
}

/** Newest first (createdAt, then _id), a page never splitting beacons made at one instant. */
export async function listBeacons(key: AuthKey, q: z.output<typeof beaconListSchema>) {
  const { items, hasMore } = await pageOfWholeInstants(
    (w, take) =>
      storage().beacons.list(
        { live: key.live, tag: q.tag, createdBefore: w.before, createdAfter: w.after },
        take,
      ),
    { before: q.createdBefore, after: q.createdAfter },
    q.limit ?? BEACON_LIST_LIMIT.default,
    (b) => b.createdAt,
  );
  return { beacons: items, hasMore };
}

/**
 * GET /v1/search/beacons: the enabled beacons within `radius` meters of `near`, nearest first, and
 * the UUIDs the device should range (every enabled beacon's of the world: the SDKs range by UUID).
 */
export async function searchBeacons(
  key: AuthKey,
  near: { latitude: number; longitude: number },
  radius: number,
  limit: number,
) {
  const found = await storage().beacons.inBox(key.live, bboxAround(near.longitude, near.latitude, radius));
  const distance = (b: StoredBeacon) => haversine(near.longitude, near.latitude, b.longitude, b.latitude);
  const beacons = found
    .map((b) => ({ b, d: distance(b) }))
    .filter(({ d }) => d <= radius)
    .sort((x, y) => x.d - y.d || x.b.seq - y.b.seq)
    .slice(0, limit)
    .map(({ b }) => b);
  return { beacons, uuids: await storage().beacons.uuids(key.live) };
}
