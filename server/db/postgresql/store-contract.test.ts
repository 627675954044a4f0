import { describe } from "vitest";
import { storeContract } from "../../../tests/store-contract";
import { usePostgresDatabase } from "./test-database.fixture";

/**
 * The store contract (tests/store-contract/) on PostgreSQL: a database of its own on the server
 * TEST_POSTGRES_URL names (a role that may create databases, as .ci/run sets); skipped without it.
 */
const adminUrl = process.env.TEST_POSTGRES_URL;

describe.skipIf(!adminUrl)("PostgreSQL", () => {
  storeContract({
    name: "PostgreSQL",
    useDatabase: () => usePostgresDatabase(adminUrl!),
    storage: async () => (await import("./storage")).postgresStorage(),
  });
});
