import { Heap } from "./heap";

/**
 * What a graph search keeps per state, allocated once per graph (per thread) and reset after
 * each search by what it touched, so a short search does not pay for the whole graph: the time
 * and length each state was reached in, the state or arc it was reached from, whether it is
 * settled, and the queue.
 */
export interface SearchSpace {
  time: Float64Array;
  meters: Float64Array;
  parent: Int32Array;
  done: Uint8Array;
  touched: number[];
  heap: Heap;
}

export const searchSpace = (states: number): SearchSpace => ({
  time: new Float64Array(states).fill(Infinity),
  meters: new Float64Array(states),
  parent: new Int32Array(states),
  done: new Uint8Array(states),
  touched: [],
  heap: new Heap(),
});

/** Leaves the space as it was found: only what the search touched is reset. */
export function release(space: SearchSpace): void {
  for (const t of space.touched) {
    space.time[t] = Infinity;
    space.done[t] = 0;
  }
  space.touched.length = 0;
  space.heap.clear();
}
