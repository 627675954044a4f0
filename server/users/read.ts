import type { z } from "zod";
import type { AuthKey } from "../auth/keys";
import { type User, containsText, prisma } from "../db/client";
import { dateWindow, page } from "../db/paging";
import { bboxAround, haversine } from "../geo/distance";
import type { GeofenceFields } from "../geofences/schema";
import { notFound } from "../http/errors";
import { storage } from "../storage";
import { serializeUser } from "../tracking/serialize";
import type { geofenceUsersSchema, listUsersSchema, searchUsersSchema } from "./schema";
import { type TableQuery, orderOf, pageOf } from "../http/table";

/** Users with the enabled geofences they are in now, in the wire form. */
export async function withGeofences(users: User[]) {
  const memberships = users.length
    ? await prisma.userGeofence.findMany({ where: { userSeq: { in: users.map((u) => u.seq) } } })
    : [];
  const geofences = memberships.length
    ? await prisma.geofence.findMany({
        where: { seq: { in: [...new Set(memberships.map((m) => m.geofenceSeq))] }, enabled: true },
      })
    : [];
  const bySeq = new Map(geofences.map((g) => [g.seq, g as GeofenceFields]));
  return users.map((u) =>
    serializeUser(
      u,
      memberships.filter((m) => m.userSeq === u.seq).flatMap((m) => bySeq.get(m.geofenceSeq) ?? []),
    ),
  );
}

export async function listUsers(key: AuthKey, q: z.output<typeof listUsersSchema>) {
  const b = q.bounds;
  const rows = await prisma.user.findMany({
    where: {
      live: key.live,
      updatedAt: dateWindow(q.updatedBefore, q.updatedAfter),
      ...(b && {
        latitude: { gte: b.south, lte: b.north },
        // West above east: the view crosses the antimeridian.
        longitude: b.west <= b.east ? { gte: b.west, lte: b.east } : undefined,
        ...(b.west > b.east && { OR: [{ longitude: { gte: b.west } }, { longitude: { lte: b.east } }] }),
      }),
    },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
  });
  const { items, hasMore } = page(rows, q.limit);
  return { users: await withGeofences(items), hasMore };
}

/** A user by `_id`, else by `userId`, else by the most recent user of a `deviceId`. */
export async function findUser(key: AuthKey, ref: string): Promise<User> {
  const candidates = await prisma.user.findMany({
    where: { live: key.live, OR: [{ id: ref }, { userId: ref }, { deviceId: ref }] },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
  });
  const user =
    candidates.find((u) => u.id === ref) ??
    candidates.find((u) => u.userId === ref) ??
    candidates.find((u) => u.deviceId === ref);
  if (!user) throw notFound(`user ${ref}`);
  return user;
}

/** Users by seq, in the order given (those deleted meanwhile are left out). */
async function usersBySeq(seqs: number[]): Promise<User[]> {
  const rows = await prisma.user.findMany({ where: { seq: { in: seqs } } });
  const bySeq = new Map(rows.map((u) => [u.seq, u]));
  return seqs.flatMap((s) => bySeq.get(s) ?? []);
}

export async function usersInGeofence(geofenceSeq: number, q: z.output<typeof geofenceUsersSchema>) {
  const { items: seqs, hasMore } = page(
    await storage().users.seqsInGeofence(geofenceSeq, { ...q, limit: q.limit + 1 }),
    q.limit,
  );
  return { users: await withGeofences(await usersBySeq(seqs)), hasMore };
}

/** Users whose last location is within `radius` of `near`, nearest first. */
export async function searchUsers(key: AuthKey, q: z.output<typeof searchUsersSchema>) {
  const { latitude: lat, longitude: lng } = q.near;
  const hits = (await storage().users.inBox(key.live, bboxAround(lng, lat, q.radius)))
    .map((u) => ({ seq: u.seq, distance: haversine(lng, lat, u.longitude, u.latitude) }))
    .filter((u) => u.distance <= q.radius)
    .sort((a, b) => a.distance - b.distance || a.seq - b.seq)
    .slice(0, q.limit);
  const users = await usersBySeq(hits.map((h) => h.seq));
  const distance = new Map(hits.map((h) => [h.seq, Math.round(h.distance * 10) / 10]));
  const wire = await withGeofences(users);
  return wire.map((u, i) => ({ ...u, distance: distance.get(users[i]!.seq)! }));
}

export const USER_SORTS = ["updatedAt", "createdAt", "userId", "deviceId", "description"] as const;

/** The users table: searched (user ID, device ID, description), sorted and paged by the database. */
export async function userTable(key: AuthKey, q: TableQuery<(typeof USER_SORTS)[number]>) {
  const where = {
    live: key.live,
    ...(q.search && {
      OR: [
        { userId: containsText(q.search) },
        { deviceId: containsText(q.search) },
        { description: containsText(q.search) },
      ],
    }),
  };
  const [rows, total] = await Promise.all([
    prisma.user.findMany({
      where,
      orderBy: [orderOf(q, ["userId", "description"]), { seq: q.dir }],
      ...pageOf(q),
    }),
    prisma.user.count({ where }),
  ]);
  return { rows: await withGeofences(rows), total };
}
