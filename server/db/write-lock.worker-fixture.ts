import { parentPort, workerData } from "node:worker_threads";
import { withWriteLock } from "./write-lock";

/**
 * A worker thread for server/db/write-lock.test.ts: takes the process's write lock as told and
 * records, in shared memory, whether another holder was inside at the same time.
 */

const { mode, rounds, trace } = workerData as {
  mode: "take-turns" | "die-holding";
  rounds: number;
  trace: SharedArrayBuffer;
};
const log = new Int32Array(trace);

if (mode === "die-holding") {
  void withWriteLock(() => {
    parentPort!.postMessage("holding");
    // Never released: the thread ends with the lock held.
    return new Promise<void>(() => process.exit(0));
  });
} else {
  // Starts when told, so that both threads ask for the lock at the same time.
  parentPort!.once("message", () => {
    const work = Array.from({ length: rounds }, () =>
      withWriteLock(async () => {
        if (Atomics.add(log, 0, 1) !== 0) Atomics.add(log, 1, 1);
        await new Promise((r) => setTimeout(r, 1));
        Atomics.sub(log, 0, 1);
      }),
    );
    void Promise.all(work).then(() => parentPort!.postMessage("done"));
  });
  parentPort!.postMessage("ready");
}
