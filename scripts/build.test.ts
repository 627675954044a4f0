import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { metricsText } from "../server/metrics/metrics.mjs";
import { startWorker } from "../server/workers/thread-memory";
import { bundleWorker, root } from "./build";

const source = path.join(root, "server/workers/boot.worker-fixture.ts");
const said = (w: Worker) =>
  new Promise<string>((resolve, reject) => (w.once("message", resolve), w.once("error", reject)));
const counted = async () =>
  Number(/^location_tracking_updates_total (\d+)/m.exec((await metricsText()).text)?.[1] ?? 0);

let bundles: string | undefined;
afterEach(() => {
  delete process.env.WORKER_BUNDLES;
  if (bundles) rmSync(bundles, { recursive: true, force: true });
});

describe("a worker thread of the production server", () => {
  it("runs its entry as built, counting into the metrics its server reports", async () => {
    bundles = mkdtempSync(path.join(tmpdir(), "worker-bundles-"));
    await bundleWorker(source, bundles);
    process.env.WORKER_BUNDLES = bundles;
    const before = await counted();
    const worker = startWorker(pathToFileURL(source).href, "test");
    try {
      expect(await said(worker)).toBe(
        pathToFileURL(path.join(bundles, "server/workers/boot.worker-fixture.mjs")).href,
      );
      // The built module shares the thread's metrics module with the boot that serves them.
      expect((await counted()) - before).toBe(7);
    } finally {
      await worker.terminate();
    }
  });

  it("runs the sources when its entry was not built (npm run dev, the unit tests)", async () => {
    bundles = mkdtempSync(path.join(tmpdir(), "worker-bundles-"));
    process.env.WORKER_BUNDLES = bundles;
    const worker = startWorker(pathToFileURL(source).href, "test");
    try {
      expect(await said(worker)).toBe(pathToFileURL(source).href);
    } finally {
      await worker.terminate();
    }
  });
});
