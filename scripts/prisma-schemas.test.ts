import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { POSTGRES_SCHEMA, SQLITE_SCHEMA, postgresSchema } from "./prisma-schemas";

describe("one model, two providers", () => {
  it("the committed PostgreSQL schema is the one written from prisma/schema.prisma (npm run db:schemas)", () => {
    expect(readFileSync(POSTGRES_SCHEMA, "utf8")).toBe(postgresSchema(readFileSync(SQLITE_SCHEMA, "utf8")));
  });

  it("stores every date as an instant on PostgreSQL", () => {
    const pg = postgresSchema(readFileSync(SQLITE_SCHEMA, "utf8"));
    const dates = pg.split("\n").filter((l) => /^\s+\w+\s+DateTime/.test(l));
    expect(dates.length).toBeGreaterThan(10);
    for (const line of dates) expect(line).toContain("@db.Timestamptz(3)");
    expect(pg).toContain('provider = "postgresql"');
  });
});
