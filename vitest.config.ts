import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/** The API suites of what clients and the SDKs rely on, run again on an upgraded database. */
const CONFORMANCE = [
  "geofences",
  "tracking",
  "users-events",
  "places",
  "trips",
  "conversions",
  "sdk-config",
  "sdk-sync",
  "sdk-replay",
  "sdk-logs",
  "search-geofences",
  "publishable-trust",
];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // A file per core, not Vitest's default of one core fewer: the API files wait on servers and
    // child processes of their own a quarter of the time, so one file a core leaves nothing idle
    // (on 2 cores the API suite ran 603 s with one file at a time, 458 s with two; docs/development.md).
    // Files are independent: each makes its own users, geofences and accounts, and the settings of
    // the shared server are each one file's (./tests/api/sdk-config.test.ts, the geofence search
    // setting in ./tests/api/geofences.test.ts).
    maxWorkers: availableParallelism(),
    minWorkers: 1,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["server/**/*.test.ts", "scripts/**/*.test.ts", "lib/**/*.test.ts"],
          setupFiles: ["tests/support/yield-between-tests.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          // One production server on a fresh database file serves every API test file, its
          // datasets loaded at start as `npm start` does. The servers the files start themselves
          // (other settings, restarts: about 40 a run) load each dataset on its first use instead
          // (PRELOAD_DATASETS=false): 3.3 core-seconds to start instead of 6.7 (docs/development.md).
          globalSetup: ["tests/support/server.ts"],
          env: { PRELOAD_DATASETS: "false" },
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "upgrade",
          // npm start on a database an earlier release made, then the conformance suites (what
          // clients and SDKs rely on) against a server on such a database.
          include: ["tests/upgrade/**/*.test.ts", ...CONFORMANCE.map((f) => `tests/api/${f}.test.ts`)],
          globalSetup: ["tests/support/upgraded-server.ts"],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
