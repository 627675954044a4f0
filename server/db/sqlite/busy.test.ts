import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "./migrations-fixture";

/**
 * A write that finds the SQLite database held by another writer (a command-line tool, another
 * process) past the busy timeout (5 s) reaches the client as 503 with Retry-After, not as a 500,
 * through the adapter's own statements and through Prisma alike.
 */

let dir: string;
let holder: Database.Database;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "busy-"));
  const file = path.join(dir, "test.db");
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  applyMigrations(db);
  db.close();
  process.env.DATABASE_URL = `file:${file}`;
  // Another writer holds the database for the whole test.
  holder = new Database(file);
  holder.exec("BEGIN IMMEDIATE");
});
afterAll(() => {
  holder.exec("ROLLBACK");
  holder.close();
  rmSync(dir, { recursive: true, force: true });
});

const INSERT = `INSERT INTO "WebhookSender" ("owner", "aliveUntil") VALUES ('busy', '2026-11-26T00:00:00.000+00:00')`;

async function expect503(error: unknown) {
  const { errorResponse } = await import("../../http/handler");
  const res = errorResponse(error);
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("1");
  expect((await res.json()).meta.message).toMatch(/retry/);
}

describe("a write to a SQLite database another writer holds", () => {
  it("through the adapter's own statements", async () => {
    const { prepared, transaction } = await import("./connection");
    let error: unknown;
    try {
      transaction(() => prepared(INSERT).run());
    } catch (e) {
      error = e;
    }
    await expect503(error);
  }, 20_000);

  it("through Prisma", async () => {
    const { prisma } = await import("../client");
    const error = await prisma.$executeRawUnsafe(INSERT).catch((e: unknown) => e);
    await expect503(error);
  }, 20_000);
});
