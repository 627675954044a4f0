import { processOnce } from "../process-once";

/**
 * Distinct instants (docs/api.md#events): event lists sort and page on createdAt alone, user
 * lists on updatedAt (Radar's cursors are datetimes), so each new event (user) of a world takes
 * the first instant from its own on, 1 ms apart, that no other holds.
 *
 * Under load the instants after `at` are a run already handed out: at 9 events per update and
 * 500 updates a second, 4,500 a second where a second has 1,000, so the run grows ahead of the
 * clock and probing it one millisecond at a time cost every update more (dense tracking fell to
 * 10% of the no-op route, 6 ms per move in-process). Each kind and world remembers the run it
 * last handed out and goes on after it when `at` falls inside it (`at` itself is given when it is
 * free); every instant is still checked with `taken`, so the run is only a hint (other holes in
 * it, left by a rollback or a deletion, are skipped: the instants given are later, still
 * distinct).
 */

const runs = processOnce("taken-instant-runs", () => new Map<string, { from: number; to: number }>());

/** `count` instants from `at` on, 1 ms apart at least, that `taken` says are free, in increasing order. */
export async function freeInstants(
  kind: string,
  at: Date,
  count: number,
  taken: (t: Date) => Promise<boolean>,
): Promise<Date[]> {
  const first = at.getTime();
  const run = runs.get(kind);
  const times: Date[] = [];
  let t = first;
  if (run && first >= run.from && first <= run.to) {
    // Its own instant may be a hole in the run (a rollback, another database): then it is given.
    if (!(await taken(at))) times.push(at);
    t = run.to + 1;
  }
  for (; times.length < count; t++) {
    const instant = new Date(t);
    if (!(await taken(instant))) times.push(instant);
  }
  // From `at` to the last one given, every instant is now taken (or was skipped as such).
  const last = t - 1;
  runs.set(
    kind,
    run && first <= run.to + 1 && last >= run.from - 1
      ? { from: Math.min(run.from, first), to: Math.max(run.to, last) }
      : { from: first, to: last },
  );
  return times;
}
