import { processOnce } from "../process-once";

/**
 * Distinct instants (docs/api.md#events): event lists sort and page on createdAt alone, user
 * lists on updatedAt (Radar's cursors are datetimes), so each new event (user) of a world takes
 * the first instant from its own on, 1 ms apart, that no other holds.
 *
 * Under load the instants after `at` are a run already handed out: at 9 events per update and
 * 500 updates a second, 4,500 a second where a second has 1,000, so the run grows ahead of the
 * clock, and probing it one millisecond at a time cost every update more (dense tracking fell to
 * 10% of the no-op route, 6 ms per move in-process). So each kind and world keeps the run this
 * process handed out, and a request inside it is given instants after it (its own instant too,
 * when that is a hole in the run: a rollback, another database).
 *
 * The run is reserved before the store is asked, synchronously: updates decided side by side
 * (PostgreSQL runs several transactions at once) are given disjoint instants, so they never ask
 * for, or wait on, each other's (seen before: 58 probes and lock waits per dense update). The
 * store is asked about all of a request's candidates at once (one round trip on PostgreSQL) and
 * says which are taken, by a stored row or by another process's transaction still deciding;
 * taken ones are skipped for further candidates after the run. Every instant given was free, so
 * the run is only a hint; instants reserved and not given are holes, as a rollback leaves.
 */

interface Run {
  from: number;
  to: number;
}

const runs = processOnce("taken-instant-runs", () => new Map<string, Run>());

/**
 * Reserves `count` instants from `from` on (after the run when `from` lies in it) and returns
 * them. Instants before the run (an old device time, offline replay) leave it as it is unless
 * they reach it: the present's updates go on after it.
 */
function reserve(kind: string, from: number, count: number): number[] {
  const run = runs.get(kind);
  const start = run && from >= run.from && from <= run.to ? run.to + 1 : from;
  const end = start + count - 1;
  if (!run || start > run.to + 1) runs.set(kind, { from: start, to: end });
  else if (end >= run.from - 1)
    runs.set(kind, { from: Math.min(run.from, start), to: Math.max(run.to, end) });
  return Array.from({ length: count }, (_, i) => start + i);
}

/**
 * `count` instants from `at` on, 1 ms apart at least, that `taken` says are free, in increasing
 * order. `taken` answers for a list of candidates at once, in their order.
 */
export async function freeInstants(
  kind: string,
  at: Date,
  count: number,
  taken: (candidates: readonly Date[]) => Promise<boolean[]>,
): Promise<Date[]> {
  const first = at.getTime();
  const run = runs.get(kind);
  // Its own instant is asked about first when it lies in the run: it may be a hole.
  const inRun = !!run && first >= run.from && first <= run.to;
  let candidates = [...(inRun ? [first] : []), ...reserve(kind, first, count)];
  const given: number[] = [];
  for (;;) {
    const answers = await taken(candidates.map((t) => new Date(t)));
    candidates.forEach((t, i) => {
      if (!answers[i] && given.length < count) given.push(t);
    });
    if (given.length >= count) return given.map((t) => new Date(t));
    candidates = reserve(kind, candidates[candidates.length - 1]! + 1, count - given.length);
  }
}
