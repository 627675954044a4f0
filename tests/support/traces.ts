import { haversine, type Position } from "../../server/geo/distance";
import type { RoadGraph } from "../../server/routing/graph";
import type { TracePoint } from "../../server/routing/match";
import type { Mode } from "../../server/routing/profiles";
import { arcsOfEdges, edgeIndex, snap } from "../../server/routing/snap";
import { dijkstraMany } from "../../server/routing/search";

/**
 * Noisy GPS traces of known routes, as the map-matching issue describes them: a random route of a
 * mode driven at its usual pace, a fix every 5 to 10 s, each moved by Gaussian noise of 5 to 30 m
 * (its accuracy). For the matcher's tests and benchmark.
 */

/** Where a line is `meters` along it. */
function along(line: Position[], meters: number): Position {
  let walked = 0;
  for (let i = 1; i < line.length; i++) {
    const [a, b] = [line[i - 1]!, line[i]!];
    const d = haversine(a[0], a[1], b[0], b[1]);
    if (walked + d >= meters) {
      const f = d > 0 ? (meters - walked) / d : 0;
      return [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])];
    }
    walked += d;
  }
  return line[line.length - 1]!;
}

export interface Trip {
  trace: TracePoint[];
  line: Position[];
  /** meters driven between the first fix and the last */
  driven: number;
}

/** A random route of the mode at least `least` meters long, sampled and blurred. */
export function noisyTrip(
  g: RoadGraph,
  mode: Mode,
  random: () => number,
  box: [number, number, number, number],
  least: number,
) {
  const index = edgeIndex(g);
  const arcs = arcsOfEdges(g);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  for (;;) {
    const point = () =>
      snap(
        g,
        index,
        arcs,
        box[0] + random() * (box[2] - box[0]),
        box[1] + random() * (box[3] - box[1]),
        mode,
        200,
      );
    const [a, b] = [point(), point()];
    if (!a || !b) continue;
    const [leg] = dijkstraMany(g, mode, a, [b], { paths: true });
    if (!leg || leg.meters < least) continue;
    const line = leg.path!;
    // Driven at the mode's usual pace (a ferry's wait would otherwise slow the whole trip).
    const speed = { car: 30, bike: 15, foot: 5 }[mode] / 3.6;
    const trace: TracePoint[] = [];
    let t = 0;
    let last = 0;
    while (t * speed <= leg.meters) {
      last = t * speed;
      const [lng, lat] = along(line, last);
      const sigma = 5 + random() * 25;
      trace.push({
        lng: lng + (gauss() * sigma) / (111_320 * Math.cos((lat * Math.PI) / 180)),
        lat: lat + (gauss() * sigma) / 111_320,
        accuracy: sigma,
      });
      t += 5 + random() * 5;
    }
    return { trace, line, driven: last };
  }
}
