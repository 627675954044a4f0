"use client";

import dynamic from "next/dynamic";
import type { TileConfig } from "../map/basemap";

const Playground = dynamic(() => import("./playground"), {
  ssr: false,
  loading: () => <p className="p-4 text-sm text-slate-500">Loading the map…</p>,
});

export function PlaygroundLoader(props: { tiles: TileConfig }) {
  return <Playground {...props} />;
}
