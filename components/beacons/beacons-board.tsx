"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";
import type { TileConfig } from "../map/basemap";
import { BeaconForm } from "./beacon-form";
import { BeaconTransfer } from "./beacon-transfer";
import type { Beacon } from "./types";

const BeaconsMap = dynamic(() => import("./beacons-map"), {
  ssr: false,
  loading: () => <p className="p-4 text-sm text-slate-500">Loading the map…</p>,
});

/**
 * Beacons (docs/beacons.md): every beacon of the world on the map and in a list; one opened is
 * edited or deleted, and a new one is placed by clicking the map.
 */
export function BeaconsBoard({ tiles, canWrite }: { tiles: TileConfig; canWrite: boolean }) {
  const [open, setOpen] = useState<string | null>(null);
  const [picked, setPicked] = useState<[number, number] | null>(null);
  const beacons = useQuery({
    queryKey: ["beacons"],
    queryFn: () => call<{ beacons: Beacon[]; meta: { hasMore?: boolean } }>("GET", "/v1/beacons?limit=1000"),
  });
  const list = beacons.data?.beacons ?? [];
  const opened = list.find((b) => b._id === open) ?? null;
  const openOne = (id: string | null) => {
    setOpen(id);
    setPicked(null);
  };
  return (
    <div className="grid h-full grid-cols-1 lg:grid-cols-[minmax(0,26rem)_1fr]">
      <section
        aria-labelledby="beacons-title"
        className="flex min-h-0 flex-col gap-3 overflow-y-auto border-r border-slate-200 p-4"
      >
        <div className="flex items-center justify-between">
          <h1 id="beacons-title" className="text-2xl font-semibold">
            Beacons
          </h1>
          {canWrite && opened && (
            <Button size="sm" onClick={() => openOne(null)}>
              New beacon
            </Button>
          )}
        </div>
        <BeaconTransfer canEdit={canWrite} />
        <ErrorNote error={beacons.error} boxed />
        {canWrite && (
          <BeaconForm
            beacon={opened}
            position={picked}
            onSaved={(b) => openOne(b._id)}
            onDeleted={() => openOne(null)}
          />
        )}
        <ul aria-label="Beacons" className="flex flex-col divide-y divide-slate-200 text-sm">
          {list.map((b) => (
            <li key={b._id}>
              <button
                type="button"
                onClick={() => openOne(b._id)}
                aria-current={b._id === open}
                className={`w-full px-2 py-2 text-left hover:bg-slate-50 ${b._id === open ? "bg-blue-50" : ""}`}
              >
                <span className="font-medium">{b.description}</span>
                {!b.enabled && <span className="ml-2 text-xs text-slate-500">disabled</span>}
                <span className="block font-mono text-xs text-slate-500">
                  {b.uuid} · {b.major} · {b.minor}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {!beacons.isPending && !list.length && <p className="text-sm text-slate-500">No beacons yet.</p>}
        {beacons.data?.meta.hasMore && <p className="text-xs text-slate-500">Showing the 1000 newest.</p>}
      </section>
      <div role="region" aria-label="Beacons map" className="min-h-80">
        <BeaconsMap
          beacons={list}
          open={open}
          picked={picked}
          onOpen={openOne}
          onPick={(p) => canWrite && setPicked(p)}
          tiles={tiles}
        />
      </div>
    </div>
  );
}
