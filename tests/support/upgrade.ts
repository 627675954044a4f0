import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { createPostgresDatabase } from "../../scripts/fresh-server";

/**
 * The databases an earlier release made (tests/fixtures/upgrade/, written by
 * `npm run upgrade-fixture`), for the upgrade tests: what that release answered, its keys, and a
 * copy of its database to start from, on the engine the tests run on (TEST_ENGINE).
 */

const dir = path.resolve(import.meta.dirname, "../fixtures/upgrade");
const engine = () => (process.env.TEST_ENGINE === "postgresql" ? "postgresql" : "sqlite");

type Wire = Record<string, unknown> & { _id: string };

export interface UpgradeFixture {
  /** the release's commit */
  commit: string;
  keys: { secret: string; publishable: string; live: string; revoked: string };
  accounts: Record<"admin" | "analyst" | "reviewer", string>;
  password: string;
  /** what the release answered to GET /v1/geofences, /v1/users and /v1/events */
  answered: { geofences: Wire[]; liveGeofences: Wire[]; users: Wire[]; events: Wire[] };
}

export const upgradeFixture = (): UpgradeFixture =>
  JSON.parse(readFileSync(path.join(dir, `${engine()}.json`), "utf8")) as UpgradeFixture;

/** A copy of the release's database, in `folder` (SQLite) or beside TEST_POSTGRES_URL's. */
export async function oldDatabase(folder: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (engine() === "sqlite") {
    const file = path.join(folder, "location.db");
    writeFileSync(file, gunzipSync(readFileSync(path.join(dir, "sqlite.db.gz"))));
    return { url: `file:${file}`, drop: async () => undefined };
  }
  const database = await createPostgresDatabase(process.env.TEST_POSTGRES_URL!);
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(gunzipSync(readFileSync(path.join(dir, "postgresql.sql.gz"))).toString("utf8"));
  } finally {
    await client.end();
  }
  return database;
}
