import path from "node:path";
import { parentPort } from "node:worker_threads";
import { imports } from "./folder";

/**
 * A second thread for server/bundles/folder.test.ts, as the tracking thread is beside the
 * server's: answers each message with the bundles it sees (GEODATA_DIR is the test's).
 */
parentPort!.on("message", () => parentPort!.postMessage(imports().map((b) => path.basename(b.file))));
parentPort!.postMessage("ready");
