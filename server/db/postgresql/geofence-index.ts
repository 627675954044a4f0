import { GeofenceIndex, type IndexedGeofence } from "../geofence-index";
import { processOnce } from "../../process-once";
import { type Queryable, rows } from "./sql";

/** A geofence's version: its updatedAt in ms (EXTRACT gives seconds as numeric, exact to the microsecond). */
export const VERSION = `(EXTRACT(EPOCH FROM "updatedAt") * 1000)::float8`;

// "updatedAt" is a column of "Geofence" alone in the joins below.
const COLUMNS = `g."seq", g."live", g."minLng", g."minLat", g."maxLng", g."maxLat", g."tag", g."enabled", ${VERSION} AS "version"`;
/** The counter and every geofence, in one statement (one snapshot): at least the counter's row. */
const ALL = `SELECT c."n"::float8 AS "last", ${COLUMNS}
  FROM "GeofenceChangeCounter" c LEFT JOIN "Geofence" g ON TRUE ORDER BY g."seq"`;
const SINCE = `SELECT c."n"::float8 AS "n", c."seq" AS "changed", ${COLUMNS}
  FROM "GeofenceChange" c LEFT JOIN "Geofence" g ON g."seq" = c."seq" WHERE c."n" > $1 ORDER BY c."n"`;

type Row = { [K in keyof IndexedGeofence]: IndexedGeofence[K] | null };

const indexed = (r: Row): IndexedGeofence | null =>
  r.seq === null
    ? null
    : {
        seq: r.seq,
        version: r.version!,
        live: r.live!,
        tag: r.tag ?? null,
        enabled: r.enabled!,
        minLng: r.minLng!,
        minLat: r.minLat!,
        maxLng: r.maxLng!,
        maxLat: r.maxLat!,
      };

/**
 * This process's index (each thread keeps its own: the tracking thread for its batches, the
 * HTTP thread for searches), and its first load while it runs.
 */
const held = () =>
  processOnce("postgresql-geofence-index", () => ({
    index: new GeofenceIndex(),
    loading: null as Promise<void> | null,
    /** a searches' refresh not sent yet (geofencesForSearch) */
    next: null as Promise<GeofenceIndex> | null,
  }));

/**
 * Tracking's index of geofences (../geofence-index.ts), brought up to date from PostgreSQL's
 * "GeofenceChange" table (migration 20261212000000_geofence_changes: the number of each
 * geofence's last change, handed out in commit order) in the transaction about to read it: all
 * geofences the first time, then the changes since the last one applied (one statement, usually
 * no row). What it answers is what a statement run at that moment would (under READ COMMITTED each
 * statement of a transaction sees the commits made before it, as the statement it replaces did).
 */
export async function geofencesNow(client: Queryable): Promise<GeofenceIndex> {
  const h = held();
  const { index } = h;
  if (!index.loaded) {
    h.loading ??= rows<Row & { last: number }>(ALL, [], client)
      .then((found) => {
        index.load(
          found[0]!.last,
          found.flatMap((r) => indexed(r) ?? []),
        );
      })
      .finally(() => {
        h.loading = null;
      });
    await h.loading;
    return index;
  }
  const changes = await rows<Row & { n: number; changed: number }>(SINCE, [index.last], client);
  if (changes.length) index.apply(changes.map((c) => ({ n: c.n, seq: c.changed, now: indexed(c) })));
  return index;
}

/**
 * The index brought up to date for a search. The searches that ask before the refresh is sent
 * (within one turn of the event loop) share it: sent after each of them asked, it sees every
 * commit made before any of them began, as a refresh of its own would, for one round trip.
 */
export function geofencesForSearch(client: Queryable): Promise<GeofenceIndex> {
  const h = held();
  h.next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
    h.next = null;
    return geofencesNow(client);
  });
  return h.next;
}
