/**
 * When the SQLite tracking store runs its next batch (./tracking.ts). A commit costs about
 * as much as a dense update's own writes, and much of what a commit writes is shared by the
 * updates it holds (the newest pages of the events and of their indexes, the page the file's
 * size is on): a batch of eight writes about 40% fewer WAL pages per update than a batch of one
 * (docs/performance.md). Left alone, batches stay small under load: the tracking thread keeps
 * up with the server's thread and takes each update as it comes.
 *
 * So a batch waits a little when enough updates are known to be on their way to fill it
 * (`coming`: their requests are being read and checked on the server's thread): until `upTo` are
 * queued, or too few are still coming to get there, for at most `waitMs`. Waiting costs the
 * queued updates latency, which only pays when the machine is short of CPU: with a few devices
 * reporting at once (fewer than `upTo`), or one, a batch never waits.
 */
export interface Gathering<T> {
  /** Queues an item; `run` is called with it in a batch (`run` answers each item itself). */
  add(item: T): void;
}

export interface GatherOptions {
  /** the most items a batch waits for */
  upTo: number;
  /** the longest a batch waits, in ms */
  waitMs: number;
  /** the most items one batch takes */
  max: number;
  /** how many more items are on their way */
  coming: () => number;
}

export function gathering<T>(run: (batch: T[]) => Promise<void>, options: GatherOptions): Gathering<T> {
  const queue: T[] = [];
  let state: "idle" | "gathering" | "due" | "running" = "idle";
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** The queue is not empty and no batch is running or due: start one now, or wait for more. */
  function consider() {
    if (queue.length >= options.upTo || queue.length + options.coming() < options.upTo) {
      clearTimeout(timer);
      timer = undefined;
      state = "due";
      setImmediate(flush);
    } else if (state === "idle") {
      state = "gathering";
      timer = setTimeout(() => {
        timer = undefined;
        flush();
      }, options.waitMs);
    }
  }

  function flush() {
    state = "running";
    const batch = queue.splice(0, options.max);
    // What is left is looked at in a later turn of the event loop, once the batch's answers have
    // been posted: until the server's thread has seen them, their requests still count as coming,
    // and their devices' next updates often are (considered at once, batches were smaller and
    // each update cost the server more: docs/performance.md).
    const done = () => {
      state = "idle";
      if (queue.length) setImmediate(() => state === "idle" && queue.length && consider());
    };
    run(batch).then(done, done);
  }

  return {
    add(item) {
      queue.push(item);
      if (state === "idle" || state === "gathering") consider();
    },
  };
}
