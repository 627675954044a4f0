import type { AccountStore, SessionStore, SignInFailureStore } from "../../storage/accounts";
import { prisma } from "../client";
import { isUniqueViolation } from "../errors";
import type { WriteLock } from "./common";

export function accountStore(lock: WriteLock): AccountStore {
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

export function sessionStore(lock: WriteLock): SessionStore {
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

export function signInFailureStore(lock: WriteLock): SignInFailureStore {
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
