import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig } from "@playwright/test";

/**
 * Browser tests in the system's Chromium (Debian's `chromium` package; Playwright's own browser
 * download does not work on these machines). CHROMIUM_PATH points elsewhere when needed.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(executablePath)) {
  throw new Error(
    `Chromium not found at ${executablePath}: install it (apt-get install chromium) or set CHROMIUM_PATH.`,
  );
}

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  fullyParallel: true,
  // A test per core (Playwright's default is half of them: one on a 2-core CI machine). The tests
  // share one server, each with data of its own (the webhooks test's webhook takes live data, which
  // no other test writes); side by side the suite took 3.8 against 5.9 min on SQLite and 4.3
  // against 5.7 on PostgreSQL (2 cores, docs/development.md).
  workers: availableParallelism(),
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 800 },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    command: `tsx scripts/fresh-server.ts --port ${port} --keys test-results/e2e-keys.json`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    // The webhooks test's receiver listens on this machine.
    env: { WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_RETRY_SCALE: "0.02" },
    timeout: 300_000,
    // Stopped as a person stops it, so that it drops its PostgreSQL database (Playwright's default
    // SIGKILL left one behind after every run on PostgreSQL).
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    stdout: "pipe",
  },
});
