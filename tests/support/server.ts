import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import {
  type FreshKeys,
  type FreshServer,
  type ServeOptions,
  shareFreshTemplates,
  startFreshServer,
} from "../../scripts/fresh-server";

/** One production server on a fresh database file serves every API test file, over HTTP. */

const root = path.resolve(import.meta.dirname, "../..");

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    geodataDir: string;
    keys: FreshKeys;
  }
}

/** Starts the server a project's API tests call, and gives them its address, database and keys. */
export async function provideServer(project: TestProject, opts: ServeOptions = {}) {
  // The run's fresh servers (this one and those the test files start) copy one prepared database.
  const removeTemplates = shareFreshTemplates();
  const server: FreshServer = await startFreshServer({
    ...opts,
    env: { MAX_BODY_BYTES: String(256 * 1024), PRELOAD_DATASETS: "true" },
  });
  project.provide("baseUrl", server.url);
  project.provide("databaseUrl", server.databaseUrl);
  project.provide("geodataDir", server.geodataDir);
  project.provide("keys", server.keys);

  return async () => {
    const output = server.output();
    // Kept for reading after a failed run (CI's clone keeps it): what the server logged meanwhile.
    mkdirSync(path.join(root, "test-results"), { recursive: true });
    writeFileSync(
      path.join(root, "test-results", `${project.name}-server-${process.env.TEST_ENGINE ?? "sqlite"}.log`),
      output,
    );
    await server.stop();
    await removeTemplates?.();
    // A 500 anywhere in the run is a failure even if no assertion looked at it.
    if (/unexpected error/.test(output)) throw new Error(`the server logged unexpected errors:\n${output}`);
  };
}

export default function setup(project: TestProject) {
  return provideServer(project);
}
