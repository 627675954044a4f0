import { describe, expect, it } from "vitest";
import type { Storage } from "../../server/storage/port";
import { T0, at, unique } from "./engine";

/** Dashboard accounts, sessions and the sign-in throttle. */
export function accountsContract(store: () => Storage): void {
  describe("accounts", () => {
    const account = (role: string, createdAt = T0) => {
      const id = unique("acct");
      return { id, email: `${id}@example.com`, role, passwordHash: "scrypt$x", createdAt };
    };

    it("refuses a second account with a taken email, and lists accounts oldest first", async () => {
      const first = account("admin", T0);
      const second = account("analyst", at(1000));
      const made = await store().accounts.create(first);
      expect(made).toMatchObject({ ...first, disabledAt: null });
      expect(await store().accounts.create({ ...account("reviewer"), email: first.email })).toBeNull();
      await store().accounts.create(second);
      expect(await store().accounts.byEmail(first.email)).toEqual(made);
      expect(await store().accounts.byId(first.id)).toEqual(made);
      const ids = (await store().accounts.list()).map((a) => a.id);
      expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
      expect(await store().accounts.count()).toBe(ids.length);
    });

    it("never leaves no enabled admin, and ends an account's sessions when it is disabled", async () => {
      // Every admin made so far is disabled but one: that one may not go.
      const admin = account("admin");
      await store().accounts.create(admin);
      for (const a of await store().accounts.list())
        if (a.id !== admin.id && a.role === "admin" && !a.disabledAt)
          expect(await store().accounts.change(a.id, { disabledAt: T0 })).not.toBe("last_admin");
      expect(await store().accounts.change(admin.id, { role: "analyst" })).toBe("last_admin");
      expect(await store().accounts.change(admin.id, { disabledAt: T0 })).toBe("last_admin");
      expect(await store().accounts.change("no-such-account", { role: "analyst" })).toBe("not_found");

      const analyst = account("analyst");
      await store().accounts.create(analyst);
      const session = {
        id: unique("session"),
        accountId: analyst.id,
        live: false,
        createdAt: T0,
        expiresAt: at(3_600_000),
      };
      await store().sessions.create(session);
      expect(await store().sessions.byId(session.id)).toEqual(session);
      await store().sessions.setWorld(session.id, true);
      expect((await store().sessions.byId(session.id))?.live).toBe(true);
      const disabled = await store().accounts.change(analyst.id, { disabledAt: at(5) });
      expect(disabled).toMatchObject({ id: analyst.id, disabledAt: at(5) });
      expect(await store().sessions.byId(session.id)).toBeNull();
      // A new password enables the account again.
      expect(await store().accounts.setPassword(analyst.email, "scrypt$y")).toBe(true);
      expect(await store().accounts.byId(analyst.id)).toMatchObject({
        passwordHash: "scrypt$y",
        disabledAt: null,
      });
      expect(await store().accounts.setPassword("nobody@example.com", "scrypt$z")).toBe(false);
    });

    it("deletes a session", async () => {
      const a = account("reviewer");
      await store().accounts.create(a);
      const session = {
        id: unique("session"),
        accountId: a.id,
        live: false,
        createdAt: T0,
        expiresAt: at(60_000),
      };
      await store().sessions.create(session);
      await store().sessions.delete(session.id);
      expect(await store().sessions.byId(session.id)).toBeNull();
    });

    it("counts failed sign-ins per key since a time, forgets the old ones and clears a key", async () => {
      const key = `email:${unique("throttle")}`;
      const other = `ip:${unique("throttle")}`;
      for (const s of [1, 2, 3]) await store().signInFailures.record([key, other], at(s * 1000), T0);
      expect(await store().signInFailures.nthSince(key, T0, 1)).toEqual(at(3000));
      expect(await store().signInFailures.nthSince(key, T0, 3)).toEqual(at(1000));
      expect(await store().signInFailures.nthSince(key, T0, 4)).toBeNull();
      expect(await store().signInFailures.nthSince(key, at(1500), 2)).toEqual(at(2000));
      // Recording forgets the key's failures before `forgetBefore`.
      await store().signInFailures.record([key], at(4000), at(2500));
      expect(await store().signInFailures.nthSince(key, T0, 2)).toEqual(at(3000));
      expect(await store().signInFailures.nthSince(key, T0, 3)).toBeNull();
      await store().signInFailures.clear(key);
      expect(await store().signInFailures.nthSince(key, T0, 1)).toBeNull();
      expect(await store().signInFailures.nthSince(other, T0, 1)).toEqual(at(3000));
    });
  });
}
