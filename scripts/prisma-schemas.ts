import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Prisma pins one provider per schema, so the PostgreSQL schema is written from the SQLite one:
 * one model, two providers (docs/deployment.md). `npm run db:schemas` rewrites it; a unit test
 * fails when the committed copy is stale.
 *
 * Differences: the provider, where the client is generated, and dates as `timestamptz(3)` (an
 * instant, whatever the server's time zone).
 */

const root = path.resolve(import.meta.dirname, "..");
export const SQLITE_SCHEMA = path.join(root, "prisma/schema.prisma");
export const POSTGRES_SCHEMA = path.join(root, "prisma/postgresql/schema.prisma");

export function postgresSchema(sqlite: string): string {
  const header = `// Written by scripts/prisma-schemas.ts from prisma/schema.prisma: edit that one, then run
// \`npm run db:schemas\`. PostGIS columns and GiST indexes live in the migrations (raw SQL).

`;
  const body = sqlite
    .replace(/^(\/\/.*\n)+\n/, "")
    .replace(
      'output       = "../server/db/generated"',
      'output       = "../../server/db/postgresql/generated"',
    )
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('url      = "file:../data/location.db"', 'url      = "postgresql://localhost/location"')
    .replace(
      /^(\s+\w+\s+DateTime\??)(.*)$/gm,
      (_m, field: string, rest: string) => `${field}${rest} @db.Timestamptz(3)`,
    );
  return header + body;
}

if (import.meta.filename === process.argv[1]) {
  writeFileSync(POSTGRES_SCHEMA, postgresSchema(readFileSync(SQLITE_SCHEMA, "utf8")));
  console.log(`wrote ${path.relative(root, POSTGRES_SCHEMA)}`);
}
