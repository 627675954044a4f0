import type { z } from "zod";
import type { AuthKey } from "../auth/keys";
import { type StoredUser as User, USER_SORTS } from "../storage/users";
import { storage } from "../storage";
import { pageOfWholeInstants } from "../storage/paging";
import { bboxAround, haversine } from "../geo/distance";
import { notFound } from "../errors";
import { can } from "../auth/roles";
import { serializeUser } from "../tracking/serialize";
import { shownOfMany } from "../tracking/kinds";
import type { geofenceUsersSchema, listUsersSchema, searchUsersSchema } from "./schema";
import { type TableQuery, pageOf } from "../http/table";

/** Users in the wire form, with what the kinds show of them (the geofences they are in, their trip, …). */
export async function wireUsers(users: User[]) {
  const shown = await shownOfMany(users);
  return users.map((u, i) => serializeUser(u, shown[i]!));
}

export async function listUsers(key: AuthKey, q: z.output<typeof listUsersSchema>) {
  const { items, hasMore } = await pageOfWholeInstants(
    (w, take) =>
      storage().users.list(
        { live: key.live, updatedBefore: w.before, updatedAfter: w.after, bounds: q.bounds },
        take,
      ),
    { before: q.updatedBefore, after: q.updatedAfter },
    q.limit,
    (u) => u.updatedAt,
  );
  return { users: await wireUsers(items), hasMore };
}

/** A user by `_id`, else by `userId`, else by the most recent user of a `deviceId`. */
export async function findUser(key: AuthKey, ref: string): Promise<User> {
  const candidates = await storage().users.matching(key.live, ref);
  const user =
    candidates.find((u) => u.id === ref) ??
    candidates.find((u) => u.userId === ref) ??
    candidates.find((u) => u.deviceId === ref);
  if (!user || !(await mayReadUser(key, user))) throw notFound(`user ${ref}`);
  return user;
}

/**
 * Whether a caller may read this user: any caller whose role lists users; a role that does not
 * (reviewers) only users with location events, which it may review. Others are answered as
 * users that do not exist.
 */
async function mayReadUser(key: AuthKey, user: User): Promise<boolean> {
  if (!key.role || can(key.role, "users:list")) return true;
  const reviewable = await storage().events.list({ live: key.live, kind: "location", userSeq: user.seq }, 1);
  return reviewable.length > 0;
}

/** Users by seq, in the order given (those deleted meanwhile are left out). */
async function usersBySeq(seqs: number[]): Promise<User[]> {
  const rows = await storage().users.bySeqs(seqs);
  const bySeq = new Map(rows.map((u) => [u.seq, u]));
  return seqs.flatMap((s) => bySeq.get(s) ?? []);
}

export async function usersInGeofence(geofenceSeq: number, q: z.output<typeof geofenceUsersSchema>) {
  const { items, hasMore } = await pageOfWholeInstants(
    (w, take) =>
      storage().users.seqsInGeofence(geofenceSeq, { updatedBefore: w.before, updatedAfter: w.after, take }),
    { before: q.updatedBefore, after: q.updatedAfter },
    q.limit,
    (u) => u.updatedAt,
  );
  const seqs = items.map((u) => u.seq);
  return { users: await wireUsers(await usersBySeq(seqs)), hasMore };
}

/** Users whose last location is within `radius` of `near`, nearest first. */
export async function searchUsers(key: AuthKey, q: z.output<typeof searchUsersSchema>) {
  const { latitude: lat, longitude: lng } = q.near;
  const hits = (await storage().users.inBox(key.live, bboxAround(lng, lat, q.radius), q.metadataFilter))
    .map((u) => ({ seq: u.seq, distance: haversine(lng, lat, u.longitude, u.latitude) }))
    .filter((u) => u.distance <= q.radius)
    .sort((a, b) => a.distance - b.distance || a.seq - b.seq)
    .slice(0, q.limit);
  const users = await usersBySeq(hits.map((h) => h.seq));
  const distance = new Map(hits.map((h) => [h.seq, Math.round(h.distance * 10) / 10]));
  const wire = await wireUsers(users);
  return wire.map((u, i) => ({ ...u, distance: distance.get(users[i]!.seq)! }));
}

export { USER_SORTS };

/** The users table: searched (user ID, device ID, description), sorted and paged by the database. */
export async function userTable(key: AuthKey, q: TableQuery<(typeof USER_SORTS)[number]>) {
  const { rows, total } = await storage().users.table(key.live, {
    search: q.search,
    sort: q.sort,
    dir: q.dir,
    ...pageOf(q),
  });
  return { rows: await wireUsers(rows), total };
}
