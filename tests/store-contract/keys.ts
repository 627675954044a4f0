import { describe, expect, it } from "vitest";
import type { Storage } from "../../server/storage/port";
import { T0, at, unique } from "./engine";

/** API keys by hash: what every authenticated request reads, and the version caches compare. */
export function keysContract(store: () => Storage): void {
  describe("keys", () => {
    const make = (name: string) => {
      const id = unique("key");
      return store().keys.create({
        id,
        kind: "publishable",
        live: false,
        name,
        prefix: `prj_test_pk_${id}`.slice(0, 16),
        hash: `hash-${id}`,
      });
    };

    it("finds a key by its hash and id, with the version it was read at", async () => {
      const key = await make("app");
      expect(key).toMatchObject({ kind: "publishable", live: false, name: "app", revokedAt: null });
      expect(await store().keys.byHash(`hash-${key.id}`)).toEqual(key);
      expect(await store().keys.byId(key.id)).toEqual(key);
      expect(await store().keys.byHash("no such hash")).toBeNull();
      const read = await store().keys.byHashWithVersion(`hash-${key.id}`);
      expect(read.key).toEqual(key);
      expect(read.version).toBe(await store().keys.version());
      expect((await store().keys.byHashWithVersion("no such hash")).key).toBeNull();
    });

    it("raises the version at every change, and keeps a key's first revocation", async () => {
      const before = await store().keys.version();
      const key = await make("revoked");
      const created = await store().keys.version();
      expect(created).not.toBe(before);
      expect((await store().keys.revoke(key.id, at(1000)))?.revokedAt).toEqual(at(1000));
      const revoked = await store().keys.version();
      expect(revoked).not.toBe(created);
      expect((await store().keys.revoke(key.id, at(2000)))?.revokedAt).toEqual(at(1000));
      expect(await store().keys.revoke("no-such-key", at(2000))).toBeNull();
    });

    it("lists every key newest first, and records when one was used", async () => {
      const older = await make("older");
      const newer = await make("newer");
      const ids = (await store().keys.list()).map((k) => k.id);
      expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
      await store().keys.markUsed(older.id, T0);
      expect((await store().keys.byId(older.id))?.lastUsedAt).toEqual(T0);
    });
  });
}
