"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";

const link =
  "rounded border border-slate-300 bg-white px-2 py-1 text-sm hover:bg-slate-50 disabled:opacity-50";

const formatOf = (file: File) => (/\.csv$/i.test(file.name) ? "csv" : "geojson");

/**
 * Export (GeoJSON, CSV) and, for those who edit beacons, import of a file: the server checks every
 * row first (a bad one refuses the file, naming it, and nothing is written), then writes them.
 */
export function BeaconTransfer({ canEdit }: { canEdit: boolean }) {
  const queries = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState<{ text: string; failed: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  async function upload(file: File) {
    setBusy(true);
    setNote({ text: `Importing ${file.name}…`, failed: false });
    try {
      const format = formatOf(file);
      const res = await fetch(`/api/beacons/import?format=${format}`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": format === "csv" ? "text/csv" : "application/geo+json" },
        body: file,
      });
      const payload = (await res.json().catch(() => ({}))) as {
        meta?: { message?: string };
        created?: number;
        replaced?: number;
      };
      if (!res.ok) {
        setNote({
          text: `Nothing was imported: ${payload.meta?.message ?? `the server answered ${res.status}`}.`,
          failed: true,
        });
        return;
      }
      setNote({
        text: `Imported ${file.name}: ${payload.created} created, ${payload.replaced} replaced.`,
        failed: false,
      });
      await queries.invalidateQueries({ queryKey: ["beacons"] });
    } catch {
      setNote({ text: "The server cannot be reached; nothing was imported.", failed: true });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <a href="/api/beacons/export?format=geojson" download className={link}>
        Export GeoJSON
      </a>
      <a href="/api/beacons/export?format=csv" download className={link}>
        Export CSV
      </a>
      {canEdit && (
        <>
          <button type="button" disabled={busy} onClick={() => input.current?.click()} className={link}>
            Import file…
          </button>
          <input
            ref={input}
            type="file"
            accept=".geojson,.json,.csv,application/geo+json,text/csv"
            aria-label="Beacon file to import"
            className="hidden"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) void upload(file);
            }}
          />
        </>
      )}
      {note && (
        <p
          role={note.failed ? "alert" : "status"}
          className={`w-full text-sm ${note.failed ? "text-red-700" : "text-slate-600"}`}
        >
          {note.text}
        </p>
      )}
    </div>
  );
}
