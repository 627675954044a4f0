import type { Metadata } from "next";
import { PlaygroundLoader } from "@/components/playground/playground-loader";
import { requireSession } from "@/server/auth/current";
import { env } from "@/server/config/env";

export const metadata: Metadata = { title: "Playground · Location platform" };

export default async function PlaygroundPage() {
  await requireSession("context:read");
  const { TILE_URL, TILE_ATTRIBUTION } = env();
  return <PlaygroundLoader tiles={{ url: TILE_URL, attribution: TILE_ATTRIBUTION }} />;
}
