import type { Position } from "../../geo/distance";
import type { EventClass, VerdictCounts } from "../../storage/events";
import type { EventWrite, UserWrite } from "../../storage/tracking";
import type { TrackedGeofence } from "../../storage/geofences";
import type { StoredUser } from "../../storage/users";
import type { WebhookTarget } from "../../storage/webhook-records";
import type { User } from "../client";
import { inList, prepared, sqlDate } from "./connection";
import { hourStart } from "../../storage/overview";
import { type GeofenceRow } from "./geofence-rows";

/**
 * The statements of a location update. Every function here is synchronous and meant to run
 * inside `transaction()`, so one update is applied whole or not at all, and updates never
 * interleave (see ./tracking.ts).
 */

/** A transaction, or a savepoint when already inside one. */

interface UserRow {
  seq: number;
  id: string;
  live: number;
  deviceId: string;
  userId: string | null;
  description: string | null;
  metadata: string | null;
  deviceType: string | null;
  device: string | null;
  foreground: number | null;
  stopped: number | null;
  latitude: number;
  longitude: number;
  accuracy: number;
  country: string | null;
  state: string | null;
  postalCode: string | null;
  dma: string | null;
  place: string | null;
  placeEnteredAt: string | null;
  createdAt: string;
  actualUpdatedAt: string;
  updatedAt: string;
}

export function userByUserId(live: boolean, userId: string): StoredUser | null {
  const row = prepared(`SELECT * FROM "User" WHERE "live" = ? AND "userId" = ?`).get(live ? 1 : 0, userId) as
    UserRow | undefined;
  return row ? userFromRow(row) : null;
}

/** The most recently updated user of a device; with `anonymous`, only one not bound to a userId. */
export function userByDeviceId(live: boolean, deviceId: string, anonymous: boolean): StoredUser | null {
  const filter = anonymous ? ` AND "userId" IS NULL` : "";
  const row = prepared(
    `SELECT * FROM "User" INDEXED BY "User_live_deviceId_idx" WHERE "live" = ? AND "deviceId" = ?${filter}
     ORDER BY "updatedAt" DESC LIMIT 1`,
  ).get(live ? 1 : 0, deviceId) as UserRow | undefined;
  return row ? userFromRow(row) : null;
}

const bool = (b: boolean | null) => (b === null ? null : b ? 1 : 0);
/** JSON text of frozen objects, which are shared and never change (embedded geofences). */
const frozenJson = new WeakMap<object, string>();
const json = (v: unknown) => {
  if (v === null || v === undefined) return null;
  if (typeof v !== "object" || !Object.isFrozen(v)) return JSON.stringify(v);
  let text = frozenJson.get(v);
  if (text === undefined) frozenJson.set(v, (text = JSON.stringify(v)));
  return text;
};

/**
 * A user's indexed identity columns, in groups by the indexes they feed: deviceId and userId
 * (their own indexes), and device, which holds the installId (an index on that expression) and
 * the last fix's speed, course and altitude, so it changes with most updates of Radar's SDKs.
 * updateUser writes each group only when one of its columns changed.
 */
const IDENTITY_GROUPS = [["deviceId", "userId"], ["device"]];
const IDENTITY_COLUMNS = IDENTITY_GROUPS.flat();
const identityValues = (u: UserWrite) => [u.deviceId, u.userId, json(u.device)];

/** The other user columns both writes set, in this order. */
const STATE_COLUMNS = [
  "description",
  "metadata",
  "deviceType",
  "foreground",
  "stopped",
  "latitude",
  "longitude",
  "accuracy",
  "country",
  "state",
  "postalCode",
  "dma",
  "place",
  "placeEnteredAt",
  "actualUpdatedAt",
  "updatedAt",
];
const stateValues = (u: UserWrite) => [
  u.description,
  json(u.metadata),
  u.deviceType,
  bool(u.foreground),
  bool(u.stopped),
  u.latitude,
  u.longitude,
  u.accuracy,
  json(u.country),
  json(u.state),
  json(u.postalCode),
  json(u.dma),
  json(u.place),
  u.placeEnteredAt && sqlDate(u.placeEnteredAt),
  sqlDate(u.actualUpdatedAt),
  sqlDate(u.updatedAt),
];

const quoted = (columns: string[]) => columns.map((c) => `"${c}"`);

// The statements that write a user, made once: every tracked update runs them.
/** Each identity group's UPDATE, which writes only when one of its columns changed; its size. */
const IDENTITY_UPDATES = IDENTITY_GROUPS.map((group) => {
  const columns = quoted(group);
  const sql = `UPDATE "User" SET ${columns.map((c) => `${c} = ?`).join(", ")}
     WHERE "seq" = ? AND (${columns.map((c) => `${c} IS NOT ?`).join(" OR ")})`;
  return { sql, size: group.length };
});
const STATE_UPDATE = `UPDATE "User" SET ${quoted(STATE_COLUMNS)
  .map((c) => `${c} = ?`)
  .join(", ")} WHERE "seq" = ?`;

const INSERT_COLUMNS = ["id", "live", ...IDENTITY_COLUMNS, ...STATE_COLUMNS, "createdAt"];
const INSERT_USER = `INSERT INTO "User" (${quoted(INSERT_COLUMNS).join(", ")}) VALUES (${inList(INSERT_COLUMNS.length)})`;

export function insertUser(id: string, live: boolean, u: UserWrite, createdAt: Date): number {
  const result = prepared(INSERT_USER).run(
    id,
    live ? 1 : 0,
    ...identityValues(u),
    ...stateValues(u),
    sqlDate(createdAt),
  );
  return Number(result.lastInsertRowid);
}

/**
 * Writes a user's row. Each group of identity columns is set by a statement of its own, which
 * writes only when one of them changed: SQLite rewrites the entries of every index on a column an
 * UPDATE sets, changed or not. They were 3 of the 30 pages a dense update wrote to the WAL
 * (docs/performance.md, tenth session); with the SDK's fix fields in `device`, the deviceId and
 * userId indexes were 2 of the 37 pages of a long jump until they had a statement apart from it.
 */
export function updateUser(seq: number, u: UserWrite): void {
  const values = identityValues(u);
  let at = 0;
  for (const { sql, size } of IDENTITY_UPDATES) {
    const own = values.slice(at, (at += size));
    prepared(sql).run(...own, seq, ...own);
  }
  prepared(STATE_UPDATE).run(...stateValues(u), seq);
}

export function insertLocation(
  userSeq: number,
  lat: number,
  lng: number,
  accuracy: number,
  at: Date,
  now: Date,
) {
  prepared(
    `INSERT INTO "UserLocation" ("userSeq", "latitude", "longitude", "accuracy", "recordedAt", "receivedAt") VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(userSeq, lat, lng, accuracy, sqlDate(at), sqlDate(now));
}

const GEOFENCE_COLUMNS = `g."seq", g."id", g."live", g."description", g."tag", g."externalId", g."type", g."geometry",
  g."centerLng", g."centerLat", g."radius", g."metadata", g."enabled", g."dwellThreshold", g."userIds", g."stopDetection",
  g."disableAfter", g."deleteAfter", g."createdAt", g."updatedAt"`;

type TrackedRow = Omit<GeofenceRow, "minLng" | "minLat" | "maxLng" | "maxLat">;

function toTracked(r: TrackedRow): TrackedGeofence {
  const { metadata, ...rest } = r;
  const geometry = JSON.parse(r.geometry) as Position[][];
  return {
    ...rest,
    live: r.live === 1,
    enabled: r.enabled === 1,
    userIds: r.userIds === null ? null : (JSON.parse(r.userIds) as string[]),
    stopDetection: r.stopDetection === 1,
    disableAfter: r.disableAfter === null ? null : new Date(r.disableAfter),
    deleteAfter: r.deleteAfter === null ? null : new Date(r.deleteAfter),
    createdAt: new Date(r.createdAt),
    updatedAt: new Date(r.updatedAt),
    geometry,
    ring: rest.type === "circle" ? [] : (geometry[0] ?? []),
    metadata: metadata === null ? null : (JSON.parse(metadata) as unknown),
  };
}

export function geofencesBySeqs(seqs: readonly number[]): TrackedGeofence[] {
  if (!seqs.length) return [];
  return (
    prepared(`SELECT ${GEOFENCE_COLUMNS} FROM "Geofence" g WHERE g."seq" IN (${inList(seqs.length)})`).all(
      ...seqs,
    ) as TrackedRow[]
  ).map(toTracked);
}

export function geofenceSeqsByIds(live: boolean, ids: readonly string[]): number[] {
  if (!ids.length) return [];
  return (
    prepared(`SELECT "seq" FROM "Geofence" WHERE "live" = ? AND "id" IN (${inList(ids.length)})`).all(
      live ? 1 : 0,
      ...ids,
    ) as { seq: number }[]
  ).map((r) => r.seq);
}

/**
 * Verdicts on the events of each class (subject, type and band: server/events/subject.ts), the
 * evidence of the confidence model, in the order asked; unverified events are not counted. One
 * statement for all of an update's classes (a dense move makes dozens of events; most classes
 * have no verdict yet, so the partial index of verified events answers with few rows).
 */
export function verificationCountsOf(live: boolean, classes: readonly EventClass[]): VerdictCounts[] {
  if (!classes.length) return [];
  const subjects = [...new Set(classes.map((c) => c.subject))];
  const found = prepared(
    `SELECT "subject", "type", "band", COALESCE(SUM("verification" = 1), 0) AS accepted,
       COALESCE(SUM("verification" = -1), 0) AS rejected
     FROM "Event" INDEXED BY "Event_verdicts_idx"
     WHERE "live" = ? AND "subject" IN (${inList(subjects.length)}) AND "verification" != 0
     GROUP BY "subject", "type", "band"`,
  ).all(live ? 1 : 0, ...subjects) as (EventClass & VerdictCounts)[];
  const counts = new Map(found.map((r) => [`${r.subject}\0${r.type}\0${r.band}`, r]));
  return classes.map((c) => {
    const r = counts.get(`${c.subject}\0${c.type}\0${c.band}`);
    return r ? { accepted: r.accepted, rejected: r.rejected } : { accepted: 0, rejected: 0 };
  });
}

/** Writes an event; `userJson` is its user copy as JSON (the same for all of an update's events). */
export function insertEvent(userSeq: number, e: EventWrite, userJson: string): number {
  const result = prepared(
    `INSERT INTO "Event" ("id", "live", "type", "userSeq", "user", "geofenceId", "geofence", "subject", "region", "place",
      "placeId", "alternatePlaces", "latitude", "longitude", "accuracy", "confidence", "probability", "band", "verification",
      "duration", "metadata", "trip", "createdAt", "actualCreatedAt", "replayed", "kindFields")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    e.id,
    e.live ? 1 : 0,
    e.type,
    userSeq,
    userJson,
    e.geofenceId,
    json(e.geofence),
    e.subject,
    json(e.region),
    json(e.place),
    e.placeId,
    json(e.alternatePlaces),
    e.latitude,
    e.longitude,
    e.accuracy,
    e.confidence,
    e.probability,
    e.band,
    e.duration,
    json(e.metadata),
    json(e.trip),
    sqlDate(e.createdAt),
    sqlDate(e.actualCreatedAt),
    e.replayed ? 1 : 0,
    json(e.kindFields),
  );
  return Number(result.lastInsertRowid);
}

/**
 * Adds an update's events to the counts per hour and type (the overview's chart; SQLite's one
 * writer adds to writer 0's rows).
 */
export function countEvents(events: readonly EventWrite[]): void {
  if (!events.length) return;
  const counts = new Map<string, { live: number; hour: string; type: string; n: number }>();
  for (const e of events) {
    const hour = sqlDate(hourStart(e.createdAt));
    const key = `${e.live ? 1 : 0}\0${hour}\0${e.type}`;
    const c = counts.get(key);
    if (c) c.n++;
    else counts.set(key, { live: e.live ? 1 : 0, hour, type: e.type, n: 1 });
  }
  const add = prepared(
    `INSERT INTO "EventCount" ("live", "hour", "type", "writer", "count") VALUES (?, ?, ?, 0, ?)
     ON CONFLICT ("live", "hour", "type", "writer") DO UPDATE SET "count" = "count" + excluded."count"`,
  );
  for (const c of counts.values()) add.run(c.live, c.hour, c.type, c.n);
}

/** Moves users between the buckets of their last update (the overview's users tracked). */
export function countUsers(moves: readonly { live: boolean; bucket: Date; delta: number }[]): void {
  if (!moves.length) return;
  const add = prepared(
    `INSERT INTO "UserCount" ("live", "bucket", "writer", "count") VALUES (?, ?, 0, ?)
     ON CONFLICT ("live", "bucket", "writer") DO UPDATE SET "count" = "count" + excluded."count"`,
  );
  for (const m of moves) add.run(m.live ? 1 : 0, sqlDate(m.bucket), m.delta);
}

const flag = (v: number | null) => (v === null ? null : v === 1);

/**
 * A raw row in the shape Prisma reads it, so one serializer serves both. Every field listed: a
 * copy of a row this large by spread, with fields set after it, costs microseconds in Node 20
 * (docs/development.md, "Objects on hot paths").
 */
function userFromRow(r: UserRow): User {
  return {
    seq: r.seq,
    id: r.id,
    live: r.live === 1,
    deviceId: r.deviceId,
    userId: r.userId,
    description: r.description,
    deviceType: r.deviceType,
    latitude: r.latitude,
    longitude: r.longitude,
    accuracy: r.accuracy,
    foreground: flag(r.foreground),
    stopped: flag(r.stopped),
    metadata: r.metadata === null ? null : (JSON.parse(r.metadata) as User["metadata"]),
    device: r.device === null ? null : (JSON.parse(r.device) as User["device"]),
    country: r.country === null ? null : (JSON.parse(r.country) as User["country"]),
    state: r.state === null ? null : (JSON.parse(r.state) as User["state"]),
    postalCode: r.postalCode === null ? null : (JSON.parse(r.postalCode) as User["postalCode"]),
    dma: r.dma === null ? null : (JSON.parse(r.dma) as User["dma"]),
    place: r.place === null ? null : (JSON.parse(r.place) as User["place"]),
    placeEnteredAt: r.placeEnteredAt === null ? null : new Date(r.placeEnteredAt),
    createdAt: new Date(r.createdAt),
    actualUpdatedAt: new Date(r.actualUpdatedAt),
    updatedAt: new Date(r.updatedAt),
  };
}

/** The enabled webhooks of a world (an update with events fills their outbox). */
export function webhooksFor(live: boolean): WebhookTarget[] {
  const rows = prepared(
    `SELECT "seq", "mode", "types" FROM "Webhook" WHERE "live" = ? AND "enabled" = 1`,
  ).all(live ? 1 : 0) as { seq: number; mode: "single" | "multiple"; types: string | null }[];
  return rows.map((r) => ({ seq: r.seq, mode: r.mode, types: r.types ? r.types.split(",") : null }));
}
