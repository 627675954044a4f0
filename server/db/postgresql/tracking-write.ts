import { userCountMoves } from "../../storage/overview";
import type { TrackingPlan, Written } from "../../storage/tracking";
import { writeOutboxRow } from "./webhooks";
import { type Queryable, row } from "./sql";
import { TRACKING_PARTS } from "./kinds";
import { rowsOf } from "./tracking-part";

/**
 * Tracking's plans written in one statement, one round trip, whether one update's (./tracking-sql.ts)
 * or a batch's (./tracking.ts): the user rows inserted or updated, their history rows, the
 * events (a dense move makes dozens) and what the kinds' parts write in it (./kinds.ts: the
 * memberships exited, entered and dwelled), each a data-modifying CTE fed by one JSON document
 * of rows, each row carrying its plan's number `k`. The plans are of different users and touch
 * different rows, so no part needs to see another's effect. The parts' other writes (trips) and
 * outbox rows, which few plans have, are sent before and behind it without waiting.
 */

export const USER_WRITE = `"deviceId", "userId", "description", "metadata", "deviceType", "device", "foreground", "stopped", "latitude",
  "longitude", "accuracy", "country", "state", "postalCode", "dma", "place", "placeEnteredAt", "actualUpdatedAt", "updatedAt"`;

/** A user's columns in USER_WRITE's order, JSON values as they are (the write sends one document). */
export function userValues(u: NonNullable<TrackingPlan["user"]>["write"]) {
  return [
    u.deviceId,
    u.userId,
    u.description,
    u.metadata,
    u.deviceType,
    u.device,
    u.foreground,
    u.stopped,
    u.latitude,
    u.longitude,
    u.accuracy,
    u.country,
    u.state,
    u.postalCode,
    u.dma,
    u.place,
    u.placeEnteredAt,
    u.actualUpdatedAt,
    u.updatedAt,
  ];
}

/** The user columns' types, in USER_WRITE's order. */
const USER_TYPES = [
  "text",
  "text",
  "text",
  "jsonb",
  "text",
  "jsonb",
  "boolean",
  "boolean",
  "float8",
  "float8",
  "float8",
  "jsonb",
  "jsonb",
  "jsonb",
  "jsonb",
  "jsonb",
  "timestamptz",
  "timestamptz",
  "timestamptz",
];
const USER_NAMES = USER_WRITE.split(",").map((c) => c.trim());
const C = USER_NAMES.map((_, i) => `c${i}`);

const EVENT_COLUMNS: [string, string][] = [
  ["id", "text"],
  ["live", "boolean"],
  ["type", "text"],
  ["user", "jsonb"],
  ["geofenceId", "text"],
  ["geofence", "jsonb"],
  ["subject", "text"],
  ["region", "jsonb"],
  ["place", "jsonb"],
  ["placeId", "text"],
  ["alternatePlaces", "jsonb"],
  ["latitude", "float8"],
  ["longitude", "float8"],
  ["accuracy", "float8"],
  ["confidence", "int"],
  ["probability", "float8"],
  ["band", "text"],
  ["duration", "float8"],
  ["createdAt", "timestamptz"],
  ["actualCreatedAt", "timestamptz"],
  ["metadata", "jsonb"],
  ["trip", "jsonb"],
  ["replayed", "boolean"],
  ["kindFields", "jsonb"],
];

/** The parts that write in the plans' statement, and the parameter each one's rows are sent at. */
const IN_STATEMENT = TRACKING_PARTS.flatMap((p) => (p.inStatement ? [p] : []));
const FIRST_PART_PARAM = 6;

function statement(): string {
  const users = rowsOf(1, "v", [
    ["k", "int"],
    ["isnew", "boolean"],
    ["useq", "int"],
    ["uid", "text"],
    ["ulive", "boolean"],
    ["ucreated", "timestamptz"],
    ...USER_TYPES.map((t, i) => [C[i]!, t] as const),
  ]);
  const locations = rowsOf(2, "l", [
    ["k", "int"],
    ["lat", "float8"],
    ["lng", "float8"],
    ["acc", "float8"],
    ["rec", "timestamptz"],
    ["recv", "timestamptz"],
  ]);
  const events = rowsOf(3, "e", [["k", "int"], ...EVENT_COLUMNS.map(([c, t]) => [`"${c}"`, t] as const)]);
  const eventInsert = EVENT_COLUMNS.map(([c]) => `"${c}"`);
  return `WITH v AS (SELECT * FROM ${users}),
  ins AS (INSERT INTO "User" (${USER_WRITE}, "id", "live", "createdAt")
          SELECT ${C.join(", ")}, uid, ulive, ucreated FROM v WHERE isnew RETURNING "seq", "id"),
  upd AS (UPDATE "User" SET (${USER_WRITE}) = (${C.map((c) => `v.${c}`).join(", ")}) FROM v
          WHERE NOT v.isnew AND "User"."seq" = v.useq RETURNING v.k, "User"."seq"),
  u AS (SELECT v.k, ins."seq" FROM ins JOIN v ON v.isnew AND v.uid = ins."id" UNION ALL SELECT k, "seq" FROM upd
        UNION ALL SELECT (r #>> '{}')::int, 0 FROM jsonb_array_elements($4::jsonb) r),
  l AS (INSERT INTO "UserLocation" ("userSeq", "latitude", "longitude", "accuracy", "recordedAt", "receivedAt")
        SELECT u."seq", l.lat, l.lng, l.acc, l.rec, l.recv FROM ${locations} JOIN u ON u.k = l.k),
  ${IN_STATEMENT.map((p, i) => `${p.inStatement!.ctes(FIRST_PART_PARAM + i)},\n  `).join("")}ev AS (INSERT INTO "Event" (${eventInsert.join(", ")}, "userSeq", "verification")
         SELECT ${eventInsert.map((c) => `e.${c}`).join(", ")}, u."seq", 0 FROM ${events} JOIN u ON u.k = e.k
         RETURNING "id", "seq", "live", "type", "createdAt"),
  c AS (INSERT INTO "EventCount" ("live", "hour", "type", "writer", "count")
        SELECT "live", date_trunc('hour', "createdAt", 'UTC'), "type", pg_backend_pid(), count(*)::int FROM ev
        GROUP BY 1, 2, 3
        ON CONFLICT ("live", "hour", "type", "writer") DO UPDATE SET "count" = "EventCount"."count" + excluded."count"),
  uc AS (INSERT INTO "UserCount" ("live", "bucket", "writer", "count")
         SELECT (r ->> 0)::boolean, (r ->> 1)::timestamptz, pg_backend_pid(), (r ->> 2)::int
         FROM jsonb_array_elements($5::jsonb) r
         ON CONFLICT ("live", "bucket", "writer") DO UPDATE SET "count" = "UserCount"."count" + excluded."count")
  SELECT COALESCE((SELECT json_agg(json_build_array(k, "seq")) FROM u), '[]'::json) AS users,
         COALESCE((SELECT json_agg(json_build_array("id", "seq")) FROM ev), '[]'::json) AS events`;
}

const WRITE_MANY = statement();

/**
 * Writes a batch's plans (in one transaction, the caller's); what each wrote, in order. `sent`
 * is called once the last statement is on its way (the caller may send COMMIT behind it).
 */
export async function writeMany(
  client: Queryable,
  plans: readonly TrackingPlan[],
  sent: () => void = () => undefined,
): Promise<Written[]> {
  // The parts' own writes first, sent without waiting (the connection pipelines, ./pool.ts; they
  // run in order).
  const before = TRACKING_PARTS.flatMap((p) => {
    const writes = plans.flatMap((plan) =>
      plan.writes.filter((w) => w.part === p.part.name).map((w) => w.write),
    );
    return p.before && writes.length ? [p.before(client, writes)] : [];
  });
  const users: unknown[][] = [];
  const locations: unknown[][] = [];
  const partRows = IN_STATEMENT.map((): unknown[][] => []);
  const events: unknown[][] = [];
  /** The plans that write events of no user (an anonymous device's update). */
  const userless: number[] = [];
  plans.forEach(({ user, location, ...plan }, i) => {
    const k = i + 1;
    for (const e of plan.events) {
      events.push([k, ...EVENT_COLUMNS.map(([c]) => (e as unknown as Record<string, unknown>)[c])]);
    }
    if (!user) {
      if (plan.events.length) userless.push(k);
      return;
    }
    users.push([
      k,
      user.seq === null,
      user.seq,
      user.id,
      user.live,
      user.createdAt,
      ...userValues(user.write),
    ]);
    if (location) {
      const { latitude, longitude, accuracy, recordedAt, receivedAt } = location;
      locations.push([k, latitude, longitude, accuracy, recordedAt, receivedAt]);
    }
    for (const w of plan.writes) {
      const i = IN_STATEMENT.findIndex((p) => p.part.name === w.part);
      if (i >= 0) partRows[i]!.push(...IN_STATEMENT[i]!.inStatement!.rows(k, w.write));
    }
  });
  const written = plans.map((): Written => ({ userSeq: 0, eventSeqs: [] }));
  const writing =
    users.length || userless.length
      ? row<{ users: [number, number][]; events: [string, number][] }>(
          WRITE_MANY,
          [
            users,
            locations,
            events,
            userless,
            // Users moved between the buckets of their last update (the overview's counts).
            userCountMoves(plans.map((p) => p.user)).map((m) => [m.live, m.bucket.toISOString(), m.delta]),
            ...partRows,
          ].map((part) => JSON.stringify(part)),
          client,
        )
      : null;
  // The outbox, in the same transaction: no event is committed without what it owes webhooks.
  // Sent behind the write without waiting for it (the connection pipelines, ./pool.ts).
  const outboxes = plans.map((plan) => writeOutboxRow(client, plan.outbox));
  sent();
  const [result] = await Promise.all([writing, ...before, ...outboxes]);
  if (writing) {
    if (!result) throw new Error("the tracking write returned nothing");
    const seqOf = new Map(result.events);
    for (const [k, seq] of result.users) written[k - 1]!.userSeq = seq;
    plans.forEach((plan, i) => {
      written[i]!.eventSeqs = plan.events.map((e) => seqOf.get(e.id)!);
    });
  }
  return written;
}
