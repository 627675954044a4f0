import type { KeyKind, KeyStore, StoredKey } from "../../storage/keys";
import { type ApiKey, prisma } from "../client";
import type { WriteLock } from "./common";

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

export function keyStore(lock: WriteLock): Omit<KeyStore, "byHash" | "byHashWithVersion" | "version"> {
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
