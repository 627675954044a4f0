import type { AccountStore, SessionStore, SignInFailureStore } from "../storage/accounts";
import type { DeviceLogStore } from "../storage/logs";
import type { RetentionStore } from "../storage/retention";
import type { WebhookStore } from "../storage/webhooks";
import type { StoredDelivery, StoredWebhook } from "../storage/webhook-records";
import type { EventStore } from "../storage/events";
import type { GeofenceRef, GeofenceStore } from "../storage/geofences";
import type { GeofenceColumns, GeofenceFields, StoredGeofence } from "../storage/geofence-records";
import type { KeyKind, KeyStore, StoredKey } from "../storage/keys";
import type { SettingStore } from "../storage/settings";
import { type TripStore, UNENDED_STATUSES } from "../storage/trips";
import type { UserStore } from "../storage/users";
import { type ApiKey, Prisma, containsText, prisma } from "./client";
import { dateWindow } from "../storage/paging";
import { isRecordNotFound, isRefusedByTrigger, isUniqueViolation } from "./errors";
import { monotonicNow, newId } from "../storage/ids";
import { databaseEngine } from "../config/database-url";
import { type MetadataFilter, storedForms } from "../storage/metadata-filter";

/**
 * The parts of the storage port that both adapters serve alike through Prisma (one model, two
 * providers). `lock` wraps each write: SQLite's adapter passes its process-wide write lock,
 * PostgreSQL's runs writes as they come (the database orders them).
 *
 * The request-path reads (a key by its hash, a setting) are each adapter's own: a prepared
 * statement costs microseconds where a Prisma query costs about a millisecond.
 */

export type WriteLock = <T>(fn: () => T | Promise<T>) => Promise<T>;

export const fromPrisma = (k: ApiKey): StoredKey => ({
  id: k.id,
  kind: k.kind as KeyKind,
  live: k.live,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt,
  revokedAt: k.revokedAt,
});

/**
 * A table's sort as Prisma orders: empty values (NULL) last in both directions, as in PostgreSQL
 * and SQLite alike (their defaults differ); then by seq, so pages never overlap.
 */
const tableOrder = (sort: string, dir: "asc" | "desc", nullable: readonly string[]) => [
  nullable.includes(sort) ? { [sort]: { sort: dir, nulls: "last" as const } } : { [sort]: dir },
  { seq: dir },
];

function keyStore(lock: WriteLock): Omit<KeyStore, "byHash" | "byHashWithVersion" | "version"> {
  return {
    async create(key) {
      return fromPrisma(await lock(() => prisma.apiKey.create({ data: key })));
    },
    async list() {
      return (await prisma.apiKey.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] })).map(
        fromPrisma,
      );
    },
    async byId(id) {
      const k = await prisma.apiKey.findUnique({ where: { id } });
      return k ? fromPrisma(k) : null;
    },
    async revoke(id, at) {
      // Only a key not yet revoked gets the time: a revoked key keeps its first revocation.
      await lock(() => prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } }));
      const k = await prisma.apiKey.findUnique({ where: { id } });
      return k ? fromPrisma(k) : null;
    },
    async markUsed(id, at) {
      await lock(() => prisma.apiKey.updateMany({ where: { id }, data: { lastUsedAt: at } }));
    },
  };
}

function settingStore(lock: WriteLock): Pick<SettingStore, "set"> {
  return {
    async set(values, at) {
      await lock(() =>
        prisma.$transaction(
          Object.entries(values).map(([key, value]) =>
            prisma.setting.upsert({
              where: { key },
              create: { key, value, updatedAt: at },
              update: { value, updatedAt: at },
            }),
          ),
        ),
      );
    },
  };
}

function accountStore(lock: WriteLock): AccountStore {
  return {
    async create(account) {
      try {
        return await lock(() => prisma.account.create({ data: account }));
      } catch (e) {
        if (isUniqueViolation(e)) return null;
        throw e;
      }
    },
    byEmail: (email) => prisma.account.findUnique({ where: { email } }),
    byId: (id) => prisma.account.findUnique({ where: { id } }),
    list: () => prisma.account.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    count: () => prisma.account.count(),
    change: (id, change) =>
      lock(async () => {
        const LastAdmin = class extends Error {};
        try {
          return await prisma.$transaction(async (tx) => {
            // The enabled admins' rows are locked first (a write that changes nothing), so two
            // changes at once (two admins demoting each other, through two processes) are made
            // one after the other, and the second counts what the first left.
            await tx.account.updateMany({
              where: { role: "admin", disabledAt: null },
              data: { role: "admin" },
            });
            const updated = await tx.account.updateMany({ where: { id }, data: change });
            if (!updated.count) return "not_found" as const;
            if (change.disabledAt) await tx.session.deleteMany({ where: { accountId: id } });
            const admins = await tx.account.count({ where: { role: "admin", disabledAt: null } });
            if (admins === 0) throw new LastAdmin();
            return (await tx.account.findUnique({ where: { id } }))!;
          });
        } catch (e) {
          if (e instanceof LastAdmin) return "last_admin" as const;
          throw e;
        }
      }),
    setPassword: (email, passwordHash) =>
      lock(async () => {
        const account = await prisma.account.findUnique({ where: { email } });
        if (!account) return false;
        await prisma.$transaction([
          prisma.account.update({ where: { id: account.id }, data: { passwordHash, disabledAt: null } }),
          prisma.session.deleteMany({ where: { accountId: account.id } }),
        ]);
        return true;
      }),
  };
}

function sessionStore(lock: WriteLock): SessionStore {
  return {
    async create(session) {
      await lock(() => prisma.session.create({ data: session }));
    },
    byId: (id) => prisma.session.findUnique({ where: { id } }),
    async delete(id) {
      await lock(() => prisma.session.deleteMany({ where: { id } }));
    },
    async setWorld(id, live) {
      await lock(() => prisma.session.updateMany({ where: { id }, data: { live } }));
    },
  };
}

function signInFailureStore(lock: WriteLock): SignInFailureStore {
  return {
    async nthSince(key, since, nth) {
      const rows = await prisma.signInFailure.findMany({
        where: { key, at: { gt: since } },
        orderBy: { at: "desc" },
        skip: nth - 1,
        take: 1,
        select: { at: true },
      });
      return rows[0]?.at ?? null;
    },
    async record(keys, at, forgetBefore) {
      await lock(() =>
        prisma.$transaction([
          prisma.signInFailure.deleteMany({ where: { key: { in: keys }, at: { lte: forgetBefore } } }),
          prisma.signInFailure.createMany({ data: keys.map((key) => ({ key, at })) }),
        ]),
      );
    },
    async clear(key) {
      await lock(() => prisma.signInFailure.deleteMany({ where: { key } }));
    },
  };
}

function eventStore(lock: WriteLock): Omit<EventStore, "verificationCounts" | "conversionsPerDay"> {
  return {
    list: (f, take) =>
      prisma.event.findMany({
        where: {
          live: f.live,
          createdAt: dateWindow(f.createdBefore, f.createdAfter),
          ...(f.verifications && { verification: { in: [...f.verifications] } }),
          ...((f.types || f.kind) && {
            type: {
              ...(f.types && { in: [...f.types] }),
              ...(f.kind === "location" && { startsWith: "user." }),
              ...(f.kind === "conversion" && { not: { startsWith: "user." } }),
            },
          }),
          // Trip events are not verdicts on places: the review queue ("location") leaves them out.
          ...(f.kind === "location" && { NOT: { type: { contains: "_trip" } } }),
          ...(f.confidences && { confidence: { in: [...f.confidences] } }),
          ...(f.userSeq !== undefined && { userSeq: f.userSeq }),
          ...(f.geofenceId !== undefined && { geofenceId: f.geofenceId }),
        },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take,
      }),
    byId: (live, id) => prisma.event.findFirst({ where: { id, live } }),
    verify: (seq, v) =>
      lock(async () => {
        try {
          const [updated] = await prisma.$transaction([
            prisma.event.update({
              where: { seq },
              data: {
                verification: v.verification,
                verifiedAt: v.at,
                ...(v.place && {
                  verifiedPlaceId: v.place.id,
                  verifiedPlace: v.place.wire as Prisma.InputJsonValue,
                }),
              },
            }),
            prisma.eventVerification.create({
              data: {
                eventSeq: seq,
                verification: v.verification,
                verifiedPlaceId: v.place?.id ?? null,
                keyId: v.keyId,
                createdAt: v.at,
              },
            }),
          ]);
          return updated;
        } catch (e) {
          // Deleted since it was read: there is nothing to verify.
          if (isRecordNotFound(e)) return null;
          throw e;
        }
      }),
    async delete(seq) {
      // The event first: its row lock makes a verification under way finish before (and its
      // record is then deleted too) or find no event; deleting the records first left a
      // verification committed in between without its event.
      const [removed] = await lock(() =>
        prisma.$transaction([
          prisma.event.deleteMany({ where: { seq } }),
          prisma.eventVerification.deleteMany({ where: { eventSeq: seq } }),
        ]),
      );
      // Concurrent deletes of one event: the row lock makes all but one find nothing to remove.
      return removed.count > 0;
    },
  };
}

const whereRef = (live: boolean, ref: GeofenceRef) =>
  "id" in ref ? { id: ref.id, live } : { live, tag: ref.tag, externalId: ref.externalId };
/** Geofences whose description, tag or external ID contains the text, ignoring case. */
const wordsMatch = (text: string) => ({
  OR: [{ description: containsText(text) }, { tag: containsText(text) }, { externalId: containsText(text) }],
});
// A box meets the view when it overlaps in latitude and in longitude (both sides of the
// antimeridian when the view crosses it).
const longitude = (west: number, east: number) => ({ minLng: { lte: east }, maxLng: { gte: west } });

/** A geofence write's columns as Prisma stores them (no metadata or userIds: SQL NULL). */
const geofenceData = (c: GeofenceColumns) => ({
  ...c,
  metadata: c.metadata ?? Prisma.DbNull,
  userIds: c.userIds ?? Prisma.DbNull,
  isochrone: c.isochrone ? { ...c.isochrone } : Prisma.DbNull,
});
/** A new geofence's row: its _id follows its createdAt, taken under the write lock. */
const newGeofence = (live: boolean, c: GeofenceColumns) => {
  const now = monotonicNow();
  return { id: newId(now.getTime()), live, ...geofenceData(c), createdAt: now, updatedAt: now };
};
/**
 * A geofence's next version: its updatedAt is later than the one it replaces whatever this
 * process's clock says (another app process, or this one's clock run ahead by a burst of
 * writes, may have stamped that one later than now). Versions key If-Match preconditions and
 * the decoded geofences of tracking and search (server/geofences/decoded.ts); a trigger refuses
 * any change that does not make the version later (migration 20261128000000_geofence_version).
 */
const nextVersion = (version: Date) => new Date(Math.max(monotonicNow().getTime(), version.getTime() + 1));
type Identified = GeofenceColumns & { tag: string; externalId: string };
const identity = (live: boolean, c: Identified) => ({
  live_tag_externalId: { live, tag: c.tag, externalId: c.externalId },
});
/**
 * Replaces the geofence with the columns' tag and externalId or creates it, in one statement,
 * given the version stored now (null: none). It was created when its createdAt is the time
 * given to the new row (each is unique).
 */
const putGeofence = async (
  db: Pick<typeof prisma, "geofence">,
  live: boolean,
  c: Identified,
  stored: Date | null,
) => {
  const create = newGeofence(live, c);
  const geofence = await db.geofence.upsert({
    where: identity(live, c),
    create,
    update: { ...geofenceData(c), updatedAt: stored ? nextVersion(stored) : create.createdAt },
  });
  return { geofence, replaced: geofence.createdAt.getTime() !== create.createdAt.getTime() };
};
/**
 * Runs a replacement again, from the versions stored then, when the version trigger refused it:
 * another write to one of its geofences landed between reading the version and writing. An
 * attempt fails only when another write landed, so n replacements sent at once all land within
 * n attempts each; the bound only stops one starving under a stream of writes.
 */
const PUT_ATTEMPTS = 32;
const retryRefused = async <T>(write: () => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      if (!isRefusedByTrigger(e) || attempt >= PUT_ATTEMPTS) throw e;
    }
  }
};

/** Geofence writes: each under the write lock, conditional on the version it was made from. */
function geofenceWrites(
  lock: WriteLock,
): Pick<GeofenceStore, "create" | "put" | "applyMany" | "update" | "delete"> {
  return {
    async create(live, c) {
      try {
        return await lock(() => prisma.geofence.create({ data: newGeofence(live, c) }));
      } catch (e) {
        if (isUniqueViolation(e)) return null;
        throw e;
      }
    },
    put: (live, c) =>
      lock(() =>
        retryRefused(async () => {
          const stored = await prisma.geofence.findUnique({
            where: identity(live, c),
            select: { updatedAt: true },
          });
          return putGeofence(prisma, live, c, stored?.updatedAt ?? null);
        }),
      ),
    applyMany: (live, changes) =>
      lock(async () => {
        const Changed = class extends Error {
          constructor(readonly seqs: number[]) {
            super("changed");
          }
        };
        try {
          return await prisma.$transaction(async (tx) => {
            let created = 0;
            const updated: number[] = [];
            const changed: number[] = [];
            for (const c of changes) {
              if (c.seq === null) {
                await tx.geofence.create({ data: newGeofence(live, c.columns) });
                created++;
                continue;
              }
              // Only the version the change was made from: another request or app process may
              // have changed it since.
              const { count } = await tx.geofence.updateMany({
                where: { seq: c.seq, live, updatedAt: c.version },
                data: { ...geofenceData(c.columns), updatedAt: nextVersion(c.version) },
              });
              if (count) updated.push(c.seq);
              else changed.push(c.seq);
            }
            if (changed.length) throw new Changed(changed);
            return { status: "written" as const, created, updated };
          });
        } catch (e) {
          if (e instanceof Changed) return { status: "changed" as const, seqs: e.seqs };
          if (isUniqueViolation(e)) return { status: "taken" as const };
          throw e;
        }
      }),
    update: (seq, version, c) =>
      lock(async () => {
        let count: number;
        try {
          // Only the version the change was made from is changed: another app process may
          // have changed it since.
          ({ count } = await prisma.geofence.updateMany({
            where: { seq, updatedAt: version },
            data: { ...geofenceData(c), updatedAt: nextVersion(version) },
          }));
        } catch (e) {
          if (isUniqueViolation(e)) return { status: "taken" as const };
          throw e;
        }
        const geofence = await prisma.geofence.findUnique({ where: { seq } });
        if (!geofence) return { status: "gone" as const };
        return { status: count ? ("updated" as const) : ("changed" as const), geofence };
      }),
    async delete(live, ref) {
      // A trigger takes the geofence's users out of it in the same statement.
      const { count } = await lock(() => prisma.geofence.deleteMany({ where: whereRef(live, ref) }));
      return count > 0;
    },
  };
}

/** Geofence reads: by reference, in pages, and the dashboard's table. */
/** The isochrone geofences, in pages by seq (server/planner/isochrone-geofences.ts draws them again). */
const isochrones: GeofenceStore["isochrones"] = (after, take) =>
  prisma.geofence.findMany({
    where: { type: "isochrone", seq: { gt: after } },
    orderBy: { seq: "asc" },
    take,
  });

/**
 * Geofences whose deleteAfter or disableAfter has come (the expiry sweep, server/geofences/expiry.ts).
 */
async function dueGeofences(now: Date, take: number) {
  // Each condition read from its own index, in that index's order. One query with both
  // (OR) ordered by seq made SQLite walk the whole table in seq order, every second, on every
  // app process, however few geofences have a schedule.
  const select = { id: true, live: true, deleteAfter: true } as const;
  const [deleting, disabling] = await Promise.all([
    prisma.geofence.findMany({
      where: { deleteAfter: { lte: now } },
      select,
      orderBy: { deleteAfter: "asc" },
      take,
    }),
    prisma.geofence.findMany({
      where: { enabled: true, disableAfter: { lte: now } },
      select,
      orderBy: { disableAfter: "asc" },
      take,
    }),
  ]);
  const seen = new Set(deleting.map((g) => g.id));
  return [...deleting, ...disabling.filter((g) => !seen.has(g.id))].slice(0, take).map((g) => ({
    id: g.id,
    live: g.live,
    deleteDue: !!g.deleteAfter && g.deleteAfter <= now,
  }));
}

function geofenceReads(): Pick<GeofenceStore, "byRefs" | "pageAfter" | "byRef" | "list" | "table" | "due"> {
  return {
    due: dueGeofences,
    async byRefs(live, refs) {
      const found: StoredGeofence[] = [];
      // At most 401 parameters per statement: Prisma holds SQLite to 999.
      for (let i = 0; i < refs.length; i += 200) {
        const part = refs.slice(i, i + 200);
        const ids = part.flatMap((r) => ("id" in r ? [r.id] : []));
        const pairs = part.flatMap((r) => ("id" in r ? [] : [{ tag: r.tag, externalId: r.externalId }]));
        found.push(
          ...(await prisma.geofence.findMany({
            where: { live, OR: [...(ids.length ? [{ id: { in: ids } }] : []), ...pairs] },
          })),
        );
      }
      return found;
    },
    pageAfter: (live, after, take, tag) =>
      prisma.geofence.findMany({
        where: { live, seq: { gt: after }, ...(tag !== undefined && { tag }) },
        orderBy: { seq: "asc" },
        take,
      }),
    byRef: (live, ref) => prisma.geofence.findFirst({ where: whereRef(live, ref) }),
    list: (f, take) => {
      const b = f.bounds;
      return prisma.geofence.findMany({
        where: {
          live: f.live,
          ...(f.tag !== undefined && { tag: f.tag }),
          ...(f.externalId !== undefined && { externalId: f.externalId }),
          createdAt: dateWindow(f.createdBefore, f.createdAfter),
          ...((f.updatedBefore || f.updatedAfter) && {
            updatedAt: dateWindow(f.updatedBefore, f.updatedAfter),
          }),
          AND: [
            ...metadataWhere(f.metadata),
            b
              ? {
                  minLat: { lte: b.north },
                  maxLat: { gte: b.south },
                  ...(b.west <= b.east
                    ? longitude(b.west, b.east)
                    : { OR: [longitude(b.west, 180), longitude(-180, b.east)] }),
                }
              : {},
            f.search ? wordsMatch(f.search) : {},
          ],
        },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take,
      });
    },
    async table(live, q) {
      const where = { live, ...(q.search && wordsMatch(q.search)) };
      const [rows, total] = await Promise.all([
        prisma.geofence.findMany({
          where,
          orderBy: tableOrder(q.sort, q.dir, ["tag", "externalId"]),
          skip: q.skip,
          take: q.take,
        }),
        prisma.geofence.count({ where }),
      ]);
      return { rows, total };
    },
  };
}

const userWhere = (live: boolean, search?: string) => ({
  live,
  ...(search && {
    OR: [
      { userId: containsText(search) },
      { deviceId: containsText(search) },
      { description: containsText(search) },
    ],
  }),
});

/** User reads (tracking writes users through each adapter's own TrackingStore). */
function userStore(): Pick<
  UserStore,
  "locations" | "seqById" | "list" | "matching" | "bySeqs" | "byOwners" | "geofencesOf" | "table"
> {
  return {
    list: (f, take) => {
      const b = f.bounds;
      return prisma.user.findMany({
        where: {
          live: f.live,
          updatedAt: dateWindow(f.updatedBefore, f.updatedAfter),
          ...(b && {
            latitude: { gte: b.south, lte: b.north },
            // West above east: the view crosses the antimeridian.
            longitude: b.west <= b.east ? { gte: b.west, lte: b.east } : undefined,
            ...(b.west > b.east && { OR: [{ longitude: { gte: b.west } }, { longitude: { lte: b.east } }] }),
          }),
        },
        orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
        take,
      });
    },
    matching: (live, ref) =>
      prisma.user.findMany({
        where: { live, OR: [{ id: ref }, { userId: ref }, { deviceId: ref }] },
        orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      }),
    bySeqs: (seqs) => prisma.user.findMany({ where: { seq: { in: [...seqs] } } }),
    byOwners: (live, userIds, deviceIds) =>
      prisma.user.findMany({
        where: {
          live,
          OR: [{ userId: { in: [...userIds] } }, { deviceId: { in: [...deviceIds] }, userId: null }],
        },
      }),
    async geofencesOf(userSeqs) {
      if (!userSeqs.length) return [];
      const memberships = await prisma.userGeofence.findMany({ where: { userSeq: { in: [...userSeqs] } } });
      const geofences = memberships.length
        ? await prisma.geofence.findMany({
            where: { seq: { in: [...new Set(memberships.map((m) => m.geofenceSeq))] }, enabled: true },
          })
        : [];
      const bySeq = new Map(geofences.map((g) => [g.seq, g as GeofenceFields]));
      return memberships.flatMap((m) => {
        const geofence = bySeq.get(m.geofenceSeq);
        return geofence ? [{ userSeq: m.userSeq, geofence }] : [];
      });
    },
    async table(live, q) {
      const where = userWhere(live, q.search);
      const [rows, total] = await Promise.all([
        prisma.user.findMany({
          where,
          orderBy: tableOrder(q.sort, q.dir, ["userId", "description"]),
          skip: q.skip,
          take: q.take,
        }),
        prisma.user.count({ where }),
      ]);
      return { rows, total };
    },
    seqById: async (live, id) =>
      (await prisma.user.findFirst({ where: { id, live }, select: { seq: true } }))?.seq ?? null,
    locations: (userSeq, limit) =>
      prisma.userLocation.findMany({
        where: { userSeq },
        orderBy: [{ recordedAt: "desc" }, { seq: "desc" }],
        take: limit,
        select: { latitude: true, longitude: true, accuracy: true, recordedAt: true },
      }),
  };
}

type WebhookRow = Awaited<ReturnType<typeof prisma.webhook.findFirstOrThrow>>;
type DeliveryRow = Awaited<ReturnType<typeof prisma.webhookDelivery.findFirstOrThrow>>;

const webhookOf = ({ token: _token, ...w }: WebhookRow): StoredWebhook => ({
  ...w,
  mode: w.mode as StoredWebhook["mode"],
  types: w.types ? w.types.split(",") : null,
});

const deliveryOf = (d: DeliveryRow): StoredDelivery => ({
  ...d,
  status: d.status as StoredDelivery["status"],
});

/**
 * Webhooks and the dashboard's view of their deliveries. Each engine's adapter adds the outbox
 * itself (enqueue, a sender's turn, prune: ./sqlite/webhooks.ts, ./postgresql/webhooks.ts), which
 * the sender runs many times a second.
 */
function webhookStore(lock: WriteLock): Omit<WebhookStore, "enqueue" | "turn" | "prune" | "sendersAlive"> {
  return {
    async create({ types, ...w }) {
      const row = await lock(() =>
        prisma.webhook.create({ data: { ...w, types: types?.join(",") ?? null } }),
      );
      return webhookOf(row);
    },
    list: async () => (await prisma.webhook.findMany({ orderBy: { seq: "asc" } })).map(webhookOf),
    async byId(id) {
      const row = await prisma.webhook.findUnique({ where: { id } });
      return row ? webhookOf(row) : null;
    },
    async setEnabled(id, enabled, at) {
      const { count } = await lock(() =>
        prisma.webhook.updateMany({ where: { id }, data: { enabled, updatedAt: at } }),
      );
      return count > 0;
    },
    async delete(id) {
      return lock(async () => {
        const row = await prisma.webhook.findUnique({ where: { id }, select: { seq: true } });
        if (!row) return false;
        // The webhook first: no sender takes its queues once it is gone.
        const [removed] = await prisma.$transaction([
          prisma.webhook.deleteMany({ where: { id } }),
          prisma.webhookQueue.deleteMany({ where: { webhookSeq: row.seq } }),
          prisma.webhookDelivery.deleteMany({ where: { webhookSeq: row.seq } }),
        ]);
        return removed.count > 0;
      });
    },
    async deliveries(webhookSeq, take, skip = 0) {
      const rows = await prisma.webhookDelivery.findMany({
        where: { webhookSeq },
        orderBy: { seq: "desc" },
        take,
        skip,
      });
      return rows.map(deliveryOf);
    },
    countDeliveries: (webhookSeq) => prisma.webhookDelivery.count({ where: { webhookSeq } }),
    async deliveryById(id) {
      const row = await prisma.webhookDelivery.findUnique({ where: { id } });
      return row ? deliveryOf(row) : null;
    },
    async depth() {
      const [outbox, queues] = await Promise.all([
        prisma.webhookOutbox.count(),
        prisma.webhookQueue.aggregate({ _sum: { pending: true } }),
      ]);
      return { outbox, queued: queues._sum.pending ?? 0 };
    },
  };
}

function deviceLogStore(lock: WriteLock): DeviceLogStore {
  return {
    async append({ live, deviceId, installId }, lines, receivedAt, { keep, before }) {
      await lock(() =>
        prisma.$transaction(async (tx) => {
          await tx.deviceLog.createMany({
            data: lines.map((l) => ({ live, deviceId, installId, ...l, receivedAt })),
          });
          // The device's oldest beyond `keep`, and everything older than the bound.
          const cut = await tx.deviceLog.findFirst({
            where: { live, deviceId },
            orderBy: { seq: "desc" },
            skip: keep,
            select: { seq: true },
          });
          if (cut) await tx.deviceLog.deleteMany({ where: { live, deviceId, seq: { lte: cut.seq } } });
          await tx.deviceLog.deleteMany({ where: { receivedAt: { lt: before } } });
        }),
      );
    },
    list: (live, deviceId, take) =>
      prisma.deviceLog.findMany({
        where: { live, deviceId },
        orderBy: { seq: "desc" },
        take,
        select: { level: true, message: true, type: true, createdAt: true, receivedAt: true },
      }),
  };
}

/**
 * Pruning in small batches, each its own short change. Trail points are read oldest first by
 * seq (the primary key: no index on the time is needed, the old ones are a prefix since seq
 * follows arrival) and the prefix received before the bound goes; log lines have an index on
 * their arrival.
 */
function retentionStore(lock: WriteLock): RetentionStore {
  return {
    async pruneTrails(before, batch) {
      const oldest = await prisma.userLocation.findMany({
        orderBy: { seq: "asc" },
        take: batch,
        select: { seq: true, receivedAt: true },
      });
      const old = oldest.filter((r) => r.receivedAt < before);
      if (!old.length) return 0;
      const last = old[old.length - 1]!.seq;
      const { count } = await lock(() =>
        prisma.userLocation.deleteMany({ where: { seq: { lte: last }, receivedAt: { lt: before } } }),
      );
      return count;
    },
    async pruneLogs(before, batch) {
      const old = await prisma.deviceLog.findMany({
        where: { receivedAt: { lt: before } },
        // In the index's order: ordered by seq (Prisma's default with take), SQLite walked every
        // line to find none old.
        orderBy: { receivedAt: "asc" },
        take: batch,
        select: { seq: true },
      });
      if (!old.length) return 0;
      const { count } = await lock(() =>
        prisma.deviceLog.deleteMany({ where: { seq: { in: old.map((r) => r.seq) } } }),
      );
      return count;
    },
  };
}

function tripStore(lock: WriteLock): Omit<TripStore, "activeDestination"> {
  return {
    list: (f, take) => {
      const sortBy = f.sortBy ?? "createdAt";
      return prisma.trip.findMany({
        where: {
          live: f.live,
          createdAt: dateWindow(f.createdBefore, f.createdAfter),
          ...(f.statuses && { status: { in: [...f.statuses] } }),
          ...(f.destinationGeofenceTag !== undefined && { destinationGeofenceTag: f.destinationGeofenceTag }),
          ...(f.destinationGeofenceExternalId !== undefined && {
            destinationGeofenceExternalId: f.destinationGeofenceExternalId,
          }),
          ...(f.externalId !== undefined && { externalId: f.externalId }),
          ...(f.userId !== undefined && { userId: f.userId }),
          ...(f.owners && {
            OR: [
              { userId: { in: [...f.owners.userIds] } },
              { deviceId: { in: [...f.owners.deviceIds] }, userId: null },
            ],
          }),
          ...(f.delayed !== undefined &&
            (f.delayed ? { delayMinutes: { gt: 0 } } : { NOT: { delayMinutes: { gt: 0 } } })),
        },
        orderBy: [
          sortBy === "scheduledArrivalAt"
            ? { scheduledArrivalAt: { sort: "desc", nulls: "last" } }
            : { [sortBy]: "desc" },
          { id: "desc" },
        ],
        take,
      });
    },
    byRef: (live, ref) => prisma.trip.findFirst({ where: { live, ...ref } }),
    async delete(live, ref) {
      const { count } = await lock(() => prisma.trip.deleteMany({ where: { live, ...ref } }));
      return count > 0;
    },
    async expire(now, take) {
      const due = await prisma.trip.findMany({
        where: { status: { in: [...UNENDED_STATUSES] }, expiresAt: { lt: now } },
        select: { seq: true },
        take,
      });
      if (!due.length) return 0;
      const { count } = await lock(() =>
        prisma.trip.updateMany({
          where: {
            seq: { in: due.map((t) => t.seq) },
            status: { in: [...UNENDED_STATUSES] },
            expiresAt: { lt: now },
          },
          data: { status: "expired", endedAt: now, updatedAt: now },
        }),
      );
      return count;
    },
  };
}

/**
 * Radar's metadata[key]=value filters as Prisma JSON filters: each key's value stored as the text
 * or the number or boolean it reads as (../storage/metadata-filter.ts). Prisma names a JSON path
 * as a list of keys on PostgreSQL and as a path expression on SQLite.
 */
function metadataWhere(filter: MetadataFilter | undefined) {
  if (!filter) return [];
  const path = (key: string) => (databaseEngine() === "postgresql" ? [key] : `$."${key}"`);
  return Object.entries(filter).map(([key, text]) => ({
    OR: storedForms(text).map((value) => ({ metadata: { path: path(key), equals: value } }) as never),
  }));
}

export function prismaStores(lock: WriteLock) {
  return {
    keys: keyStore(lock),
    settings: settingStore(lock),
    accounts: accountStore(lock),
    sessions: sessionStore(lock),
    signInFailures: signInFailureStore(lock),
    users: userStore(),
    events: eventStore(lock),
    geofences: { ...geofenceWrites(lock), ...geofenceReads(), isochrones },
    webhooks: webhookStore(lock),
    logs: deviceLogStore(lock),
    retention: retentionStore(lock),
    trips: tripStore(lock),
  };
}
