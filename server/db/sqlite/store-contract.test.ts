import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { storeContract } from "../../../tests/store-contract";

/** The store contract (tests/store-contract/) on SQLite: a database file of its own, migrated as `npm start` does. */
storeContract({
  name: "SQLite",
  useDatabase() {
    let dir = "";
    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), "store-contract-"));
      process.env.DATABASE_URL = `file:${path.join(dir, "location.db")}`;
      await (await import("../../../scripts/migrate")).migrate();
    }, 60_000);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
  },
  storage: async () => (await import("./storage")).sqliteStorage,
});
