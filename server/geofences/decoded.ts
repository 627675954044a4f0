import { processOnce } from "../process-once";
import type { GeofenceVersion, TrackedGeofence } from "../storage/geofences";

/**
 * Geofences decoded once per version, for tracking and search. In a dense area an update or a
 * search meets dozens of geofences, the same ones again and again: the store is asked only which
 * geofences are near and which version of each it holds (seq and updatedAt, which every write
 * moves on), and full rows (rings, metadata) are read and decoded only for versions not seen
 * before. The store still decides which geofences exist and which version is current, so this
 * is correct across app processes; an entry whose version is gone is never asked for again and
 * ages out.
 */
const cache = () =>
  // One per process, shared by the route bundles (tracking, search, context…).
  processOnce("decoded-geofences", () => ({
    kept: new Map<number, { version: number; geofence: TrackedGeofence }>(),
    positions: 0,
  }));
/** At most this many geofences and positions are kept (about 100 MB at most), then all are dropped. */
const KEEP = { geofences: 50_000, positions: 2_000_000 };

const positionsOf = (g: TrackedGeofence) => g.geometry.reduce((n, ring) => n + ring.length, 0);

function keep(c: ReturnType<typeof cache>, version: number, geofence: TrackedGeofence): void {
  if (c.kept.size >= KEEP.geofences || c.positions >= KEEP.positions) {
    c.kept.clear();
    c.positions = 0;
  }
  const before = c.kept.get(geofence.seq);
  if (before) c.positions -= positionsOf(before.geofence);
  c.kept.set(geofence.seq, { version, geofence });
  c.positions += positionsOf(geofence);
}

/**
 * The geofences of these versions, decoded: kept ones as they are, the others read with `load`
 * (and kept). The objects are shared between requests: never change them.
 */
export async function decodedOnce(
  versions: readonly GeofenceVersion[],
  load: (seqs: number[]) => Promise<TrackedGeofence[]>,
): Promise<TrackedGeofence[]> {
  const c = cache();
  const out: TrackedGeofence[] = [];
  const missing = new Map<number, number>();
  for (const v of versions) {
    const k = c.kept.get(v.seq);
    if (k && k.version === v.version) out.push(k.geofence);
    else missing.set(v.seq, v.version);
  }
  if (missing.size) {
    for (const g of await load([...missing.keys()])) {
      // Kept under the version asked for: a row changed since is newer, and the next request
      // sees the newer version and reads it again.
      keep(c, missing.get(g.seq)!, g);
      out.push(g);
    }
  }
  return out;
}
