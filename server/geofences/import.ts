import type { AuthKey } from "../auth/keys";
import { ApiError } from "../errors";
import { validate } from "../http/request";
import type { GeofenceChange } from "../storage/geofences";
import type { GeofenceColumns, StoredGeofence } from "../storage/geofence-records";
import { storage } from "../storage";
import { reconcileMembers } from "./memberships";
import { geofenceColumns, geofenceWriteSchema } from "./schema";
import { shaped } from "./isochrones";
import { TRANSFER, type ImportRow } from "./transfer";
import { asWrite } from "./write";

/**
 * A bulk import, decided before anything is written (the dashboard shows it and asks to
 * confirm), then written in chunks. A row names its geofence by `_id` (an export's own), else by
 * tag and externalId; found, it is changed like a PATCH: the fields the row has replace the
 * stored ones (an empty cell clears one), those it leaves out are kept, and a row that changes
 * nothing is not written. Not found, it is created, held to the rules of POST /v1/geofences.
 * One bad row refuses the file, naming it.
 */

/** One geofence the import changes: the row, the stored version, and what changes. */
interface Update {
  row: ImportRow;
  target: StoredGeofence;
  columns: GeofenceColumns;
  /** the fields that change, in words ("description", "metadata", "shape"…) */
  changes: string[];
}

export interface ImportPlan {
  total: number;
  creates: { row: ImportRow; columns: GeofenceColumns }[];
  updates: Update[];
  unchanged: number;
}

/** What the dashboard shows before the import is confirmed (at most this many changes listed). */
export const PREVIEW_CHANGES = 100;

export function previewOf(plan: ImportPlan) {
  return {
    total: plan.total,
    created: plan.creates.length,
    replaced: plan.updates.length,
    unchanged: plan.unchanged,
    changes: plan.updates.slice(0, PREVIEW_CHANGES).map((u) => ({
      where: u.row.where,
      _id: u.target.id,
      description: u.target.description,
      fields: u.changes,
    })),
  };
}

const refuseRow = (row: ImportRow, e: unknown): never => {
  if (e instanceof ApiError) {
    const field = e.param === "body" ? "" : e.param;
    throw new ApiError(e.code, `${row.where}: ${e.message}`, field ? `${row.where}.${field}` : row.where);
  }
  throw e;
};

const ref = (tag: string, externalId: string) => JSON.stringify([tag, externalId]);
const text = (v: unknown) =>
  typeof v === "string" ? v.trim() : v === undefined || v === null ? "" : String(v);

/** The fields of a geofence that differ between what is stored and what would be written. */
function changesOf(g: StoredGeofence, c: GeofenceColumns): string[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const changes: string[] = [];
  if (g.description !== c.description) changes.push("description");
  if (g.tag !== c.tag) changes.push("tag");
  if (g.externalId !== c.externalId) changes.push("externalId");
  if (
    g.type !== c.type ||
    g.centerLng !== c.centerLng ||
    g.centerLat !== c.centerLat ||
    g.radius !== c.radius ||
    !same(g.geometry, c.geometry) ||
    !same(g.isochrone, c.isochrone)
  ) {
    changes.push("shape");
  }
  if (!same(g.metadata, c.metadata)) changes.push("metadata");
  if (g.enabled !== c.enabled) changes.push("enabled");
  if (g.dwellThreshold !== c.dwellThreshold) changes.push("dwellThreshold");
  if (!same(g.userIds, c.userIds)) changes.push("userIds");
  if (g.stopDetection !== c.stopDetection) changes.push("stopDetection");
  if (g.disableAfter?.getTime() !== c.disableAfter?.getTime()) changes.push("disableAfter");
  if (g.deleteAfter?.getTime() !== c.deleteAfter?.getTime()) changes.push("deleteAfter");
  return changes;
}

/** The row applied to the stored geofence, as a PATCH would apply it. */
async function merged(row: ImportRow, target: StoredGeofence): Promise<GeofenceColumns> {
  const { fields } = row;
  if (fields.type !== undefined && text(fields.type) !== target.type && fields.coordinates === undefined) {
    throw new ApiError("invalid_input", "coordinates: are required to change the type", "coordinates");
  }
  return geofenceColumns(await shaped(validate(geofenceWriteSchema, { ...asWrite(target), ...fields })));
}

/** Decides what an import does, from the rows and what is stored now; writes nothing. */
export async function planImport(key: AuthKey, rows: ImportRow[]): Promise<ImportPlan> {
  const store = storage().geofences;
  // The geofences the rows name, by _id and by tag and externalId, in a few reads.
  const named = await store.byRefs(key.live, [
    ...rows.flatMap((r) => (r.id ? [{ id: r.id }] : [])),
    ...rows.flatMap((r) => {
      const tag = text(r.fields.tag);
      const externalId = text(r.fields.externalId);
      return tag && externalId ? [{ tag, externalId }] : [];
    }),
  ]);
  const byId = new Map(named.map((g) => [g.id, g]));
  const byRef = new Map(named.filter((g) => g.tag !== null).map((g) => [ref(g.tag!, g.externalId!), g]));

  const plan: ImportPlan = { total: rows.length, creates: [], updates: [], unchanged: 0 };
  /** Which row writes each geofence and each tag and externalId: two rows may not. */
  const targetRow = new Map<number, string>();
  const identityRow = new Map<string, string>();
  for (const row of rows) {
    const tag = text(row.fields.tag);
    const externalId = text(row.fields.externalId);
    const target =
      (row.id ? byId.get(row.id) : undefined) ??
      (tag && externalId ? byRef.get(ref(tag, externalId)) : undefined);
    let columns: GeofenceColumns;
    try {
      columns = target
        ? await merged(row, target)
        : geofenceColumns(await shaped(validate(geofenceWriteSchema, row.fields)));
    } catch (e) {
      return refuseRow(row, e);
    }
    if ((columns.tag === null) !== (columns.externalId === null)) {
      throw new ApiError(
        "invalid_input",
        `${row.where}.externalId: tag and externalId go together (both or neither)`,
        `${row.where}.externalId`,
      );
    }
    if (target) {
      const first = targetRow.get(target.seq);
      if (first) {
        throw new ApiError(
          "invalid_input",
          `${row.where}: names the same geofence as ${first} (${target.id})`,
          row.where,
        );
      }
      targetRow.set(target.seq, row.where);
    }
    if (columns.tag !== null) {
      const identity = `${columns.tag}/${columns.externalId}`;
      const first = identityRow.get(identity);
      if (first) {
        throw new ApiError(
          "invalid_input",
          `${row.where}.externalId: tag and externalId ${identity} are also those of ${first}`,
          `${row.where}.externalId`,
        );
      }
      identityRow.set(identity, row.where);
    }
    if (!target) plan.creates.push({ row, columns });
    else {
      const changes = changesOf(target, columns);
      if (changes.length) plan.updates.push({ row, target, columns, changes });
      else plan.unchanged++;
    }
  }
  await refuseTakenIdentities(key, plan);
  return plan;
}

/**
 * A tag and externalId the import gives a geofence must not be another stored geofence's (one
 * the import does not itself move away from them): refused before anything is written, naming
 * the row and the geofence that has them.
 */
async function refuseTakenIdentities(key: AuthKey, plan: ImportPlan) {
  const writes = [
    ...plan.creates.map((c) => ({ ...c, seq: null })),
    ...plan.updates.map((u) => ({ ...u, seq: u.target.seq })),
  ];
  const wanted = writes.filter((w) => w.columns.tag !== null);
  if (!wanted.length) return;
  const holders = await storage().geofences.byRefs(
    key.live,
    wanted.map((w) => ({ tag: w.columns.tag!, externalId: w.columns.externalId! })),
  );
  const holderOf = new Map(holders.map((g) => [ref(g.tag!, g.externalId!), g]));
  // Geofences whose identity the import changes free theirs (unless they keep it).
  const moved = new Map(plan.updates.map((u) => [u.target.seq, u.columns]));
  for (const w of wanted) {
    const holder = holderOf.get(ref(w.columns.tag!, w.columns.externalId!));
    if (!holder || holder.seq === w.seq) continue;
    const after = moved.get(holder.seq);
    if (after && (after.tag !== holder.tag || after.externalId !== holder.externalId)) continue;
    throw new ApiError(
      "conflict",
      `${w.row.where}.externalId: tag "${w.columns.tag}" and externalId "${w.columns.externalId}" are already used by geofence ${holder.id} ("${holder.description}")`,
      `${w.row.where}.externalId`,
    );
  }
}

export interface ImportProgress {
  done: number;
  total: number;
}

/** How often a chunk is decided again after geofences in it changed meanwhile (as a PATCH is). */
const CHUNK_ATTEMPTS = 32;

/**
 * Writes what the plan decided, in chunks, each one change of the store so tracking goes on
 * between them; `onProgress` hears after each chunk. A geofence changed meanwhile (another
 * request, another app process) has its row applied again to the version that won.
 */
export async function applyImport(
  key: AuthKey,
  plan: ImportPlan,
  onProgress: (p: ImportProgress) => void = () => {},
): Promise<{ created: number; replaced: number; unchanged: number }> {
  const work: (Update | ImportPlan["creates"][number])[] = [...plan.creates, ...plan.updates];
  let created = 0;
  let replaced = 0;
  let unchanged = plan.unchanged;
  for (let start = 0; start < work.length; start += TRANSFER.chunk) {
    let chunk = work.slice(start, start + TRANSFER.chunk);
    for (let attempt = 1; ; attempt++) {
      const changes: GeofenceChange[] = chunk.map((w) =>
        "target" in w
          ? { seq: w.target.seq, version: w.target.updatedAt, columns: w.columns }
          : { seq: null, columns: w.columns },
      );
      const result = await storage().geofences.applyMany(key.live, changes);
      if (result.status === "written") {
        created += result.created;
        replaced += result.updated.length;
        // Users a replaced shape no longer contains are taken out of it.
        if (result.updated.length) await reconcileMembers(...result.updated);
        break;
      }
      if (result.status === "taken" || attempt >= CHUNK_ATTEMPTS) {
        throw new ApiError(
          "conflict",
          result.status === "taken"
            ? "a tag and externalId of the file were given to another geofence meanwhile; nothing more was written"
            : "geofences of the file kept changing meanwhile; nothing more was written",
        );
      }
      const again = await decideAgain(key, chunk, new Set(result.seqs));
      unchanged += again.filter((w) => w === null).length;
      chunk = again.filter((w) => w !== null);
    }
    onProgress({ done: Math.min(start + TRANSFER.chunk, work.length), total: work.length });
  }
  return { created, replaced, unchanged };
}

/**
 * The chunk's rows whose geofences changed meanwhile, applied again to the versions stored now:
 * null where that changes nothing any more; a geofence deleted meanwhile is created again.
 */
async function decideAgain(
  key: AuthKey,
  chunk: (Update | ImportPlan["creates"][number])[],
  seqs: Set<number>,
) {
  const stale = chunk.flatMap((w) => ("target" in w && seqs.has(w.target.seq) ? [w.target.id] : []));
  const now = new Map(
    (
      await storage().geofences.byRefs(
        key.live,
        stale.map((id) => ({ id })),
      )
    ).map((g) => [g.id, g]),
  );
  const again: (Update | ImportPlan["creates"][number] | null)[] = [];
  for (const w of chunk) {
    if (!("target" in w) || !seqs.has(w.target.seq)) {
      again.push(w);
      continue;
    }
    const target = now.get(w.target.id);
    if (!target) {
      again.push({ row: w.row, columns: w.columns });
      continue;
    }
    const columns = await merged(w.row, target);
    const changes = changesOf(target, columns);
    again.push(changes.length ? { row: w.row, target, columns, changes } : null);
  }
  return again;
}
