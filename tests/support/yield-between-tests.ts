import { afterEach } from "vitest";

/**
 * Lets a test file's worker reach its event loop between tests. Vitest's worker waits at most 60 s
 * for the main process to answer what it reports; a file of long synchronous tests reads no answer
 * until it is done, and past 60 s (the real feeds' file took 60.4 s on 2 cores busy with a second
 * file) the run fails with "Timeout calling onTaskUpdate" though every test passed. A timer, not a
 * microtask: the wait goes through the loop's poll phase, where the answer is read.
 */
const realTimeout = globalThis.setTimeout; // not a test's fake timers
afterEach(() => new Promise<void>((resolve) => realTimeout(resolve, 1)));
