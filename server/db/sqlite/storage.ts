import type {
  AccountStore,
  EventStore,
  KeyKind,
  KeyStore,
  SessionStore,
  SettingStore,
  SignInFailureStore,
  Storage,
  StoredKey,
} from "../../storage/port";
import { type ApiKey, prisma } from "../client";
import { isUniqueViolation } from "../errors";
import { withWriteLock } from "../write-lock";
import { prepared } from "./connection";
import { verificationCounts } from "./tracking";
import { sqliteTracking } from "./tracking-store";

/**
 * The SQLite adapter of the storage port (server/storage/port.ts) for the concerns moved so
 * far. Reads on the request path use prepared better-sqlite3 statements (microseconds); writes
 * go through Prisma under the process's write lock, which stays inside this adapter.
 */

const fromPrisma = (k: ApiKey): StoredKey => ({
  id: k.id,
  kind: k.kind as KeyKind,
  live: k.live,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt,
  revokedAt: k.revokedAt,
});

interface KeyRow {
  id: string;
  kind: string;
  live: number;
  name: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const date = (text: string | null) => (text === null ? null : new Date(text));

const keys: KeyStore = {
  async create(key) {
    return fromPrisma(await withWriteLock(() => prisma.apiKey.create({ data: key })));
  },
  async list() {
    return (await prisma.apiKey.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] })).map(
      fromPrisma,
    );
  },
  async byHash(hash) {
    const row = prepared(
      `SELECT "id", "kind", "live", "name", "prefix", "createdAt", "lastUsedAt", "revokedAt" FROM "ApiKey" WHERE "hash" = ?`,
    ).get(hash) as KeyRow | undefined;
    return row
      ? {
          id: row.id,
          kind: row.kind as KeyKind,
          live: row.live === 1,
          name: row.name,
          prefix: row.prefix,
          createdAt: new Date(row.createdAt),
          lastUsedAt: date(row.lastUsedAt),
          revokedAt: date(row.revokedAt),
        }
      : null;
  },
  async byId(id) {
    const k = await prisma.apiKey.findUnique({ where: { id } });
    return k ? fromPrisma(k) : null;
  },
  async revoke(id, at) {
    return withWriteLock(async () => {
      const found = await prisma.apiKey.findUnique({ where: { id } });
      if (!found) return null;
      if (found.revokedAt) return fromPrisma(found);
      return fromPrisma(await prisma.apiKey.update({ where: { id }, data: { revokedAt: at } }));
    });
  },
  async markUsed(id, at) {
    await withWriteLock(() => prisma.apiKey.update({ where: { id }, data: { lastUsedAt: at } }));
  },
};

const settings: SettingStore = {
  async get(key) {
    const row = prepared(`SELECT "value" FROM "Setting" WHERE "key" = ?`).get(key) as
      { value: string } | undefined;
    return row?.value ?? null;
  },
  async set(values, at) {
    await withWriteLock(() =>
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

const accounts: AccountStore = {
  async create(account) {
    try {
      return await withWriteLock(() => prisma.account.create({ data: account }));
    } catch (e) {
      if (isUniqueViolation(e)) return null;
      throw e;
    }
  },
  byEmail: (email) => prisma.account.findUnique({ where: { email } }),
  byId: (id) => prisma.account.findUnique({ where: { id } }),
  list: () => prisma.account.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
  count: () => prisma.account.count(),
  disable: (id, at) =>
    withWriteLock(async () => {
      if (!(await prisma.account.findUnique({ where: { id } }))) return null;
      const [account] = await prisma.$transaction([
        prisma.account.update({ where: { id }, data: { disabledAt: at } }),
        prisma.session.deleteMany({ where: { accountId: id } }),
      ]);
      return account;
    }),
  setPassword: (email, passwordHash) =>
    withWriteLock(async () => {
      const account = await prisma.account.findUnique({ where: { email } });
      if (!account) return false;
      await prisma.$transaction([
        prisma.account.update({ where: { id: account.id }, data: { passwordHash, disabledAt: null } }),
        prisma.session.deleteMany({ where: { accountId: account.id } }),
      ]);
      return true;
    }),
};

const sessions: SessionStore = {
  async create(session) {
    await withWriteLock(() => prisma.session.create({ data: session }));
  },
  byId: (id) => prisma.session.findUnique({ where: { id } }),
  async delete(id) {
    await withWriteLock(() => prisma.session.deleteMany({ where: { id } }));
  },
  async setWorld(id, live) {
    await withWriteLock(() => prisma.session.updateMany({ where: { id }, data: { live } }));
  },
};

const signInFailures: SignInFailureStore = {
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
    await withWriteLock(() =>
      prisma.$transaction([
        prisma.signInFailure.deleteMany({ where: { key: { in: keys }, at: { lte: forgetBefore } } }),
        prisma.signInFailure.createMany({ data: keys.map((key) => ({ key, at })) }),
      ]),
    );
  },
  async clear(key) {
    await withWriteLock(() => prisma.signInFailure.deleteMany({ where: { key } }));
  },
};

const events: EventStore = {
  async verificationCounts(live, subject, type, band) {
    return verificationCounts(live, subject, type, band);
  },
};

export const sqliteStorage: Storage = {
  keys,
  settings,
  accounts,
  sessions,
  signInFailures,
  events,
  tracking: sqliteTracking,
};
