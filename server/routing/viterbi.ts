/**
 * Viterbi over a chain of observations (map matching's fixes, ./match.ts), each with its hidden
 * states: the likeliest sequence of states, given each state's own log-probability (emission)
 * and those of the moves between states of consecutive observations (transitions). Knows
 * nothing of roads.
 *
 * A chain breaks where no state of an observation is reachable from any of the one before; the
 * next chain starts afresh there. An observation may be an outlier none of whose states is right
 * (a fix 4σ off in a town, where the 20 nearest roads are all others): where the best score drops
 * by more than `loss` on entering an observation or the one after, that one is also reached from
 * the observation before the last, passing over it at `cost`; an observation passed over is left
 * out of its chain (`outliers`).
 */

export interface Observation<S> {
  /** the observation's index in the input (a fix's in the trace) */
  i: number;
  states: S[];
}

export interface Model<S, O extends Observation<S>> {
  emission(state: S): number;
  /**
   * Calls `move` with the log-probability of each possible move from a state of `before` that
   * `live` accepts (by index) to a state of `after`; impossible moves are not called.
   */
  transitions(
    before: O,
    after: O,
    live: (k: number) => boolean,
    move: (k: number, j: number, logp: number) => void,
  ): void;
  /** passing over an outlier: its cost (log-probability), and the drop in the best score that makes one suspected */
  outlier: { cost: number; loss: number };
}

export interface Chain<O> {
  observations: O[];
  /** per observation, the index of its chosen state */
  choice: number[];
}

const argmax = (xs: number[]) => xs.reduce((best, x, i) => (x > xs[best]! ? i : best), 0);

export function viterbi<S, O extends Observation<S>>(
  model: Model<S, O>,
  observations: O[],
): { chains: Chain<O>[]; outliers: number[] } {
  const chains: Chain<O>[] = [];
  const outliers: number[] = [];
  let chain: O[] = [];
  /** per observation of the chain, per state: its score, the state before it, and whether that one is two back */
  let scores: number[][] = [];
  let back: number[][] = [];
  let over: boolean[][] = [];
  let dropped = false;
  const begin = (o: O) => {
    chain = [o];
    scores = [o.states.map((s) => model.emission(s))];
    back = [o.states.map(() => -1)];
    over = [o.states.map(() => false)];
    dropped = false;
  };
  const close = () => {
    if (!chain.length) return;
    const kept: O[] = [];
    const choice: number[] = [];
    let best = argmax(scores[scores.length - 1]!);
    for (let k = chain.length - 1; k >= 0;) {
      kept.push(chain[k]!);
      choice.push(best);
      const passed = over[k]![best]!;
      best = back[k]![best]!;
      if (passed) outliers.push(chain[k - 1]!.i);
      k -= passed ? 2 : 1;
    }
    chains.push({ observations: kept.reverse(), choice: choice.reverse() });
  };
  for (const o of observations) {
    if (!chain.length) {
      begin(o);
      continue;
    }
    const next = o.states.map(() => -Infinity);
    const from = o.states.map(() => -1);
    const passed = o.states.map(() => false);
    const relax = (steps: number, cost: number) => {
      const score = scores[scores.length - steps]!;
      model.transitions(
        chain[chain.length - steps]!,
        o,
        (k) => score[k] !== -Infinity,
        (k, j, logp) => {
          const t = score[k]! - cost + logp + model.emission(o.states[j]!);
          if (t > next[j]!) [next[j], from[j], passed[j]] = [t, k, steps === 2];
        },
      );
    };
    const last = scores[scores.length - 1]!;
    const best = last[argmax(last)]!;
    relax(1, 0);
    if ((best - Math.max(...next) > model.outlier.loss || dropped) && chain.length >= 2)
      relax(2, model.outlier.cost);
    dropped = best - Math.max(...next) > model.outlier.loss;
    if (next.every((x) => x === -Infinity)) {
      close();
      begin(o);
      continue;
    }
    chain.push(o);
    scores.push(next);
    back.push(from);
    over.push(passed);
  }
  close();
  return { chains, outliers };
}
