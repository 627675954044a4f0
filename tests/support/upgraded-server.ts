import type { TestProject } from "vitest/node";
import { provideServer } from "./server";
import { oldDatabase } from "./upgrade";

/**
 * The upgrade project's server (vitest.config.ts): on a copy of the database an earlier release
 * made (./upgrade.ts), migrated as npm start migrates it, with the tests' keys and accounts added;
 * the conformance suites then run against it as they do against a new database.
 */
export default function setup(project: TestProject) {
  return provideServer(project, { database: oldDatabase });
}
