import type { AuthKey } from "../auth/keys";
import { pageOfWholeInstants } from "../storage/paging";
import { notFound } from "../errors";
import type { z } from "zod";
import { type GeofenceRef } from "../storage/geofences";
import { GEOFENCE_SORTS } from "../storage/geofence-records";
import { storage } from "../storage";
import type { listQuerySchema } from "./schema";
import { type TableQuery, pageOf } from "../http/table";

export type { GeofenceRef };

const describe = (ref: GeofenceRef) =>
  "id" in ref ? `geofence ${ref.id}` : `geofence with tag "${ref.tag}" and externalId "${ref.externalId}"`;

export async function getGeofence(key: AuthKey, ref: GeofenceRef) {
  const found = await storage().geofences.byRef(key.live, ref);
  if (!found) throw notFound(describe(ref));
  return found;
}

export function findGeofenceById(key: AuthKey, id: string) {
  return storage().geofences.byRef(key.live, { id });
}

export async function deleteGeofence(key: AuthKey, ref: GeofenceRef) {
  if (!(await storage().geofences.delete(key.live, ref))) throw notFound(describe(ref));
}

/** Newest first (createdAt, then _id), a page never splitting geofences created at one instant. */
export async function listGeofences(key: AuthKey, q: z.output<typeof listQuerySchema>) {
  const { items, hasMore } = await pageOfWholeInstants(
    (w, take) =>
      storage().geofences.list(
        {
          live: key.live,
          tag: q.tag,
          externalId: q.externalId,
          createdBefore: w.before,
          createdAfter: w.after,
          updatedBefore: q.updatedBefore,
          updatedAfter: q.updatedAfter,
          metadata: q.metadataFilter,
          bounds: q.bounds,
          search: q.search,
        },
        take,
      ),
    { before: q.createdBefore, after: q.createdAfter },
    q.limit,
    (g) => g.createdAt,
  );
  return { geofences: items, hasMore };
}

export { GEOFENCE_SORTS };

/** The geofences table: searched (description, tag, external ID), sorted and paged by the database. */
export async function geofenceTable(key: AuthKey, q: TableQuery<(typeof GEOFENCE_SORTS)[number]>) {
  return storage().geofences.table(key.live, { search: q.search, sort: q.sort, dir: q.dir, ...pageOf(q) });
}
