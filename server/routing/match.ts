import type Flatbush from "flatbush";
import { haversine, type Position } from "../geo/distance";
import { nearestOnPath } from "../geo/polygon";
import type { RoadGraph } from "./graph";
import { piecesOf } from "./directions";
import type { Mode, RoadLabel } from "./profiles";
import { type Leg, dijkstraMany } from "./search";
import { type Snap, projectOnEdge } from "./snap";
import { type Model, type Observation, viterbi } from "./viterbi";

/**
 * Map matching (docs/routing.md#map-matching): a noisy trace snapped onto the roads by a hidden
 * Markov model, as Newson and Krumm describe it. Each point's candidates are the nearest points
 * of the roads the mode may use within reach of it; a candidate is as likely as a normal
 * distribution of the point's accuracy says of its distance; going from one candidate to the
 * next is as likely as the route between them is as long as the straight line (exponential in
 * the difference). Viterbi picks the likeliest sequence. Where no route joins two points within
 * reason (a gap, a tunnel the roads do not have), the trace breaks there and the next stretch
 * starts afresh: never a straight line across. Points with no road within reach are left
 * unmatched. Pure: the graph in, the matched points and stretches out.
 */

export interface TracePoint {
  lng: number;
  lat: number;
  /** meters (the device's horizontal accuracy); the noise the model expects */
  accuracy: number;
}

export interface MatchedPoint {
  /** the point's index in the trace */
  index: number;
  lng: number;
  lat: number;
}

/** A stretch of the trace joined by roads: its points (trace indexes), route and road attributes. */
export interface Stretch {
  first: number;
  last: number;
  meters: number;
  seconds: number;
  path: Position[];
  roads: RoadRun[];
}

/** A run of the route along roads of one label: where it starts and ends, and how long it is. */
export interface RoadRun {
  label: RoadLabel;
  from: Position;
  to: Position;
  meters: number;
}

/**
 * Candidates kept per point, and how far around a point they are looked for (meters). Where roads
 * run close (a town's centre, its junctions cut into short edges), the road driven can be the
 * ninth nearest to a fix 2σ off it: with 8, no state of that fix lay on it, and the route took a
 * wrong turn and came back (7 of 40 long Andorra trips; 1 with 20, at 1.2–1.6 times the time).
 */
const CANDIDATES = 20;
const REACH = { min: 30, max: 150, sigmas: 4 };
/** The transition's scale (meters): how much longer than the straight line a route may be. */
const BETA = 10;
/** A route between consecutive points longer than this many times the straight line plus 500 m is no route. */
const DETOUR = { factor: 3, meters: 500 };
/** The least speed a search assumes of the mode (m/s), to bound it in time. */
const SLOWEST: Record<Mode, number> = { car: 4, bike: 2, foot: 0.8 };

interface Candidate {
  snap: Snap;
  /** log-probability of the point given this candidate */
  emission: number;
}

/** A hidden state: a candidate and the way the mode travels through it (one of its edge's arcs). */
interface State {
  c: Candidate;
  arc: number;
}

/** The nearest point of each road the mode may use within reach of a trace point, nearest first. */
function candidatesOf(
  g: RoadGraph,
  index: Flatbush,
  arcs: Uint32Array,
  mode: Mode,
  p: TracePoint,
): Candidate[] {
  const sigma = Math.max(5, p.accuracy);
  const reach = Math.min(REACH.max, Math.max(REACH.min, REACH.sigmas * sigma));
  const dLat = reach / 111_320;
  const dLng = reach / (111_320 * Math.max(0.01, Math.cos((p.lat * Math.PI) / 180)));
  const secs = g.seconds[mode];
  const found: Candidate[] = [];
  for (const e of index.search(p.lng - dLng, p.lat - dLat, p.lng + dLng, p.lat + dLat)) {
    if (e >= g.edgeLength.length) continue;
    const [forwardArc, backwardArc] = [arcs[2 * e]!, arcs[2 * e + 1]!];
    if (secs[forwardArc] === Infinity && secs[backwardArc] === Infinity) continue;
    const hit = projectOnEdge(g, e, p.lng, p.lat);
    if (hit.distance > reach) continue;
    found.push({
      snap: { edge: e, ...hit, forwardArc, backwardArc },
      emission: -0.5 * (hit.distance / sigma) ** 2,
    });
  }
  // Edges meeting at a junction the point projects onto are one candidate there (a point at a
  // vertex leaves and is reached any way): the others make room for farther roads.
  const kept: Candidate[] = [];
  for (const c of found.sort((a, b) => b.emission - a.emission)) {
    if (kept.some((k) => haversine(k.snap.lng, k.snap.lat, c.snap.lng, c.snap.lat) < 1)) continue;
    kept.push(c);
    if (kept.length === CANDIDATES) break;
  }
  return kept;
}

/** Each candidate once per way the mode may travel along its edge. */
function statesOf(g: RoadGraph, mode: Mode, candidates: Candidate[]): State[] {
  const secs = g.seconds[mode];
  return candidates.flatMap((c) =>
    [c.snap.forwardArc, c.snap.backwardArc].filter((a) => secs[a] !== Infinity).map((arc) => ({ c, arc })),
  );
}

/**
 * Moves from one state to each of the next point's, undefined where no plausible move joins
 * them: along its way of travel, arriving along theirs. A fix behind the last on the same edge
 * and way is the noise along the road, not a U-turn: "stay" (0 m).
 */
function moves(g: RoadGraph, mode: Mode, from: State, to: State[], straight: number, paths = false) {
  const limit = (DETOUR.factor * straight + DETOUR.meters) / SLOWEST[mode];
  const legs = dijkstraMany(
    g,
    mode,
    from.c.snap,
    to.map((s) => s.c.snap),
    {
      within: { seconds: limit },
      paths,
      leave: from.arc,
      arriveBy: to.map((s) => s.arc),
      uTurnSeconds: U_TURN.seconds,
    },
  );
  return to.map((s, k): Leg | "stay" | undefined => {
    const f = from.c.snap;
    const t = s.c.snap;
    if (t.edge === f.edge && s.arc === from.arc) {
      const forward = g.reversed[from.arc] === 0 ? 1 : -1;
      if ((f.t - t.t) * forward > 0) return "stay";
    }
    return legs[k];
  });
}

/** Matches a trace: the matched points (one per point a road was near) and the stretches the roads join. */
export function matchTrace(
  g: RoadGraph,
  index: Flatbush,
  arcs: Uint32Array,
  mode: Mode,
  trace: TracePoint[],
): { matched: MatchedPoint[]; stretches: Stretch[] } {
  const { layers, skipped } = keptFixes(g, index, arcs, mode, trace);
  const { chains, outliers } = viterbi(modelOf(g, mode), layers);
  skipped.push(...outliers);
  const matched: MatchedPoint[] = [];
  const stretches: Stretch[] = [];
  for (const chain of chains) {
    const { ls, states, passed } = withoutDetours(g, mode, chain.observations, chain.choice);
    skipped.push(...passed);
    const { stretch, at } = stretchOf(g, mode, ls, states);
    ls.forEach((l, k) =>
      matched.push({ index: l.i, lng: states[k]!.c.snap.lng, lat: states[k]!.c.snap.lat }),
    );
    // A fix left out between two kept ones: the nearest point of the route between them.
    for (const i of skipped) {
      const k = ls.findIndex((l) => l.i > i);
      if (k <= 0) continue;
      const part = stretch.path.slice(at[k - 1]!, at[k]! + 1);
      const here = states[k - 1]!.c.snap;
      const { position } = nearestOnPath(
        trace[i]!.lng,
        trace[i]!.lat,
        part.length ? part : [[here.lng, here.lat]],
      );
      matched.push({ index: i, lng: position[0], lat: position[1] });
    }
    stretches.push(stretch);
  }
  matched.sort((a, b) => a.index - b.index);
  return { matched, stretches };
}

/**
 * The fixes the model looks at, with their states. Fixes closer to the last one kept than their
 * noise say nothing of the way taken (Newson and Krumm): they are left out (`skipped`) and put
 * on the matched route afterwards; fixes with no road within reach are left out altogether.
 */
function keptFixes(g: RoadGraph, index: Flatbush, arcs: Uint32Array, mode: Mode, trace: TracePoint[]) {
  const layers: Layer[] = [];
  const skipped: number[] = [];
  for (const [i, p] of trace.entries()) {
    const states = statesOf(g, mode, candidatesOf(g, index, arcs, mode, p));
    if (!states.length) continue;
    const kept = layers[layers.length - 1]?.p;
    const noise = SUBSAMPLE_SIGMAS[mode] * Math.max(5, p.accuracy, kept?.accuracy ?? 0);
    if (kept && i < trace.length - 1 && haversine(kept.lng, kept.lat, p.lng, p.lat) < noise) {
      skipped.push(i);
      continue;
    }
    layers.push({ i, p, states });
  }
  return { layers, skipped };
}

/**
 * Newson and Krumm's transitions compare each move with the straight line between two fixes, one
 * pair at a time. A fix 2–3σ off beside a side road zigzags those lines, and the zigzag pays for a
 * route that turns into the side road and comes back round the block: each move alone looks
 * plausible. Here each fix the chosen route goes through is weighed against the route that joins
 * its neighbours without it, in the model's own terms: the two moves through it and its emission,
 * against the move that leaves it out and its emission measured from that route. A fix the
 * direct route explains better is passed over (put on the route as a subsampled one is).
 */
function withoutDetours(g: RoadGraph, mode: Mode, chain: Layer[], choice: number[]) {
  const ls: Layer[] = [chain[0]!];
  const states: State[] = [chain[0]!.states[choice[0]!]!];
  const passed: number[] = [];
  const metersOf = (m: Leg | "stay" | undefined) => (m === "stay" ? 0 : m?.meters);
  const straight = (a: Layer, b: Layer) => haversine(a.p.lng, a.p.lat, b.p.lng, b.p.lat);
  // The move from the last state kept into this fix, when the step before routed it already.
  let carried: ReturnType<typeof moves>[number] | null = null;
  for (let k = 1; k < chain.length; k++) {
    const here = chain[k]!.states[choice[k]!]!;
    const next = k + 1 < chain.length ? chain[k + 1]!.states[choice[k + 1]!]! : undefined;
    const before = states[states.length - 1]!;
    const prev = ls[ls.length - 1]!;
    if (next) {
      const [a, b, c] = [prev, chain[k]!, chain[k + 1]!];
      const into = carried ?? moves(g, mode, before, [here], straight(a, b))[0];
      const [onward] = moves(g, mode, here, [next], straight(b, c));
      carried = onward;
      const m1 = metersOf(into);
      const m2 = metersOf(onward);
      const direct = haversine(before.c.snap.lng, before.c.snap.lat, next.c.snap.lng, next.c.snap.lat);
      if (m1 !== undefined && m2 !== undefined && m1 + m2 > direct + DETOUR_CHECK.meters) {
        const [without] = moves(g, mode, before, [next], straight(a, c), true);
        if (without && without !== "stay" && without.meters + DETOUR_CHECK.meters < m1 + m2) {
          const sigma = Math.max(5, b.p.accuracy);
          const line = without.path?.length
            ? without.path
            : [[before.c.snap.lng, before.c.snap.lat] as Position];
          const off = nearestOnPath(b.p.lng, b.p.lat, line).distance;
          const through =
            (Math.abs(m1 - straight(a, b)) + Math.abs(m2 - straight(b, c))) / BETA - here.c.emission;
          const around = Math.abs(without.meters - straight(a, c)) / BETA + 0.5 * (off / sigma) ** 2;
          if (around < through) {
            passed.push(b.i);
            carried = without;
            continue;
          }
        }
      }
    }
    ls.push(chain[k]!);
    states.push(here);
  }
  return { ls, states, passed };
}

/** A route through a fix this much longer than the direct one is weighed as a detour. */
const DETOUR_CHECK = { meters: 30 };

/** The model Viterbi runs: transitions as Newson and Krumm's, and a U-turn's cost. */
function modelOf(g: RoadGraph, mode: Mode): Model<State, Layer> {
  return {
    emission: (s) => s.c.emission,
    transitions(before, after, live, move) {
      const straight = haversine(before.p.lng, before.p.lat, after.p.lng, after.p.lat);
      before.states.forEach((s, k) => {
        if (!live(k)) return;
        moves(g, mode, s, after.states, straight).forEach((m, j) => {
          if (!m) return;
          const [meters, turns] = m === "stay" ? [0, 0] : [m.meters, m.uTurns ?? 0];
          move(k, j, -Math.abs(meters - straight) / BETA - turns * U_TURN.cost);
        });
      });
    },
    outlier: OUTLIER,
  };
}

/**
 * A U-turn (turning back along the edge just driven) costs as much as a route 100 m longer than
 * the straight line: a route that goes somewhere and comes back is not a way anyone drives, and
 * without the cost two noisy fixes far apart were explained by a trip up the road and back.
 */
const U_TURN = { seconds: 20, cost: 10 };
/** Passing over a fix costs as much as a fix 4σ off; it is tried where the best score drops by more than `loss`. */
const OUTLIER = { cost: 8, loss: 12 };

interface Layer extends Observation<State> {
  p: TracePoint;
}

/** A fix this many accuracies from the last one kept is kept. */
const SUBSAMPLE_SIGMAS: Record<Mode, number> = { car: 2, bike: 4, foot: 6 };

/** A chain's route: each move between its chosen states routed again with its line and arcs. */
function stretchOf(
  g: RoadGraph,
  mode: Mode,
  ls: Layer[],
  states: State[],
): { stretch: Stretch; at: number[] } {
  const first = states[0]!.c.snap;
  const stretch: Stretch = {
    first: ls[0]!.i,
    last: ls[ls.length - 1]!.i,
    meters: 0,
    seconds: 0,
    path: [[first.lng, first.lat]],
    roads: [],
  };
  /** per kept fix, the index in the path where the route reaches it */
  const reached: number[] = [0];
  let at = states[0]!;
  for (let k = 1; k < states.length; k++) {
    const straight = haversine(ls[k - 1]!.p.lng, ls[k - 1]!.p.lat, ls[k]!.p.lng, ls[k]!.p.lat);
    const sigma = Math.max(5, ls[k]!.p.accuracy, ls[k - 1]!.p.accuracy);
    let [move] = moves(g, mode, at, [states[k]!], straight, true);
    const direct = haversine(at.c.snap.lng, at.c.snap.lat, states[k]!.c.snap.lng, states[k]!.c.snap.lat);
    const long = (m: typeof move) =>
      m && m !== "stay" && m.meters > LOOP.factor * direct + LOOP.sigmas * sigma;
    if (long(move)) {
      // The ways of travel the model chose force a loop between two right places: the plain route.
      const [plain] = dijkstraMany(g, mode, at.c.snap, [states[k]!.c.snap], {
        within: { seconds: 600 },
        paths: true,
      });
      if (plain && plain.meters < (move as Leg).meters) move = plain;
    }
    // Reached from where the route got to only the long way round (a fix behind it past a
    // junction: the noise along the road, which no model tells from progress): the route waits.
    let loop = false;
    if (long(move)) {
      // Only if the fix is just behind: from it, where the route got to is a short way on.
      const [back] = dijkstraMany(g, mode, states[k]!.c.snap, [at.c.snap], { within: { seconds: 120 } });
      loop = !!back && back.meters < Math.min((move as Leg).meters / 2, LOOP.sigmas * sigma);
    }
    if (move && move !== "stay" && !loop) {
      stretch.meters += move.meters;
      stretch.seconds += move.seconds;
      for (const pt of move.path ?? []) {
        const last = stretch.path[stretch.path.length - 1]!;
        if (last[0] !== pt[0] || last[1] !== pt[1]) stretch.path.push(pt);
      }
      runsAlong(g, mode, at.c.snap, states[k]!.c.snap, move, stretch.roads);
      at = states[k]!;
    }
    // Staying (noise behind the last fix): the route waits where it got to.
    reached.push(stretch.path.length - 1);
  }
  return { stretch, at: reached };
}

/** A move longer than this many times the straight line plus accuracies is a loop the noise made. */
const LOOP = { factor: 1.5, sigmas: 4 };

/**
 * Adds a move's roads to the runs: its pieces as directions cuts them (one per arc, the ends
 * part-way); consecutive pieces of one label (labels are shared objects) are one run.
 */
function runsAlong(g: RoadGraph, mode: Mode, from: Snap, to: Snap, leg: Leg, runs: RoadRun[]) {
  for (const piece of piecesOf(g, mode, from, to, leg.arcs ?? [])) {
    if (piece.meters <= 0.01) continue;
    const [start, end] = [piece.path[0]!, piece.path[piece.path.length - 1]!];
    const last = runs[runs.length - 1];
    if (last && last.label === piece.label) {
      last.to = end;
      last.meters += piece.meters;
    } else runs.push({ label: piece.label, from: start, to: end, meters: piece.meters });
  }
}
