import type {
  AccountStore,
  KeyKind,
  KeyStore,
  SessionStore,
  SettingStore,
  SignInFailureStore,
  StoredKey,
  UserStore,
} from "../storage/port";
import { type ApiKey, prisma } from "./client";
import { isUniqueViolation } from "./errors";

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

export function prismaStores(lock: WriteLock) {
  const keys: Omit<KeyStore, "byHash"> = {
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

  const settings: Pick<SettingStore, "set"> = {
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

  const accounts: AccountStore = {
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
    disable: (id, at) =>
      lock(async () => {
        const [updated] = await prisma.$transaction([
          prisma.account.updateMany({ where: { id }, data: { disabledAt: at } }),
          prisma.session.deleteMany({ where: { accountId: id } }),
        ]);
        return updated.count ? prisma.account.findUnique({ where: { id } }) : null;
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

  const sessions: SessionStore = {
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

  const users: Pick<UserStore, "locations"> = {
    locations: (userSeq, limit) =>
      prisma.userLocation.findMany({
        where: { userSeq },
        orderBy: [{ recordedAt: "desc" }, { seq: "desc" }],
        take: limit,
        select: { latitude: true, longitude: true, accuracy: true, recordedAt: true },
      }),
  };

  return { keys, settings, accounts, sessions, signInFailures, users };
}
