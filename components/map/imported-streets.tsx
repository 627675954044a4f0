"use client";

import { useQuery } from "@tanstack/react-query";
import { Pane, Polyline, Tooltip } from "react-leaflet";
import { call } from "@/lib/api-client";
import { useImportView } from "./use-import-view";

/** From this zoom on the view is small enough to draw every street in it. */
export const STREETS_ZOOM = 14;
/** From this zoom on (below STREETS_ZOOM) the main roads are drawn; farther out, countries only. */
export const MAIN_ROADS_ZOOM = 10;
/** How many street names are written on the map at once (the longest in view). */
const LABELS = 30;

interface Street {
  name: string;
  kind: string;
  line: number[];
}

const MAJOR = new Set(["motorway", "trunk", "primary", "secondary", "tertiary"]);
const style = (kind: string) =>
  MAJOR.has(kind)
    ? { color: "#f59e0b", weight: 6, opacity: 0.9 }
    : kind === "footway" || kind === "path" || kind === "cycleway" || kind === "pedestrian"
      ? { color: "#78716c", weight: 1.5, opacity: 1, dashArray: "3 3" }
      : { color: "#94a3b8", weight: 4, opacity: 1 };

const lengthOf = (line: number[]) => {
  let sum = 0;
  for (let i = 2; i < line.length; i += 2)
    sum += Math.hypot(line[i]! - line[i - 2]!, line[i + 1]! - line[i - 1]!);
  return sum;
};

/**
 * The imported roads drawn as a basemap (when no tile server answers): grey lines, major roads
 * wider and amber, paths dashed, and the names of the longest streets in view. Read for the view
 * after every move: every street from street zoom on, the main roads from zoom 10.
 */
export function ImportedStreets() {
  const current = useImportView(3);
  const roads = current.zoom >= STREETS_ZOOM ? "all" : current.zoom >= MAIN_ROADS_ZOOM ? "main" : null;
  const streets = useQuery({
    queryKey: ["geodata-streets", current.bbox, roads],
    enabled: roads !== null,
    placeholderData: (previous) => previous,
    queryFn: () =>
      call<{ streets: Street[]; truncated: boolean }>(
        "GET",
        `/api/geodata/streets?bbox=${current.bbox}&roads=${roads}`,
      ),
  });
  if (roads === null) return null;
  const list = streets.data?.streets ?? [];
  const labelled = new Set(
    [...list]
      .filter((s) => s.name)
      .sort((a, b) => lengthOf(b.line) - lengthOf(a.line))
      .slice(0, LABELS),
  );
  return (
    <Pane name="streets" style={{ zIndex: 180 }}>
      {list.map((s, i) => (
        <Polyline
          key={`${current.bbox}-${i}`}
          positions={Array.from({ length: s.line.length / 2 }, (_, k) => [
            s.line[2 * k + 1]!,
            s.line[2 * k]!,
          ])}
          pathOptions={style(s.kind)}
          interactive={false}
          pmIgnore
        >
          {labelled.has(s) && (
            <Tooltip permanent direction="center" className="street-label">
              {s.name}
            </Tooltip>
          )}
        </Polyline>
      ))}
    </Pane>
  );
}
