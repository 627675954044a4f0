import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { storeContract } from "../../../tests/store-contract";
import { applyMigrations } from "./migrations-fixture";

/** The store contract (tests/store-contract/) on SQLite: a database file of its own, migrated. */
storeContract({
  name: "SQLite",
  useDatabase() {
    let dir = "";
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), "store-contract-"));
      const file = path.join(dir, "location.db");
      const db = new Database(file);
      applyMigrations(db);
      db.close();
      process.env.DATABASE_URL = `file:${file}`;
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
  },
  storage: async () => (await import("./storage")).sqliteStorage,
});
