"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";

const link = "rounded border border-slate-300 bg-white px-2 py-1 text-sm hover:bg-slate-50";

type Status =
  | { kind: "idle" }
  | { kind: "sending"; name: string }
  | { kind: "writing"; done: number; total: number }
  | { kind: "done"; text: string }
  | { kind: "failed"; text: string };

/**
 * Bulk export (GeoJSON, CSV) and, for those who edit geofences, bulk import of a file: the
 * server checks every row first (a bad one refuses the file, naming it), then writes with
 * progress shown here.
 */
export function GeofenceTransfer({ canEdit }: { canEdit: boolean }) {
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<Status>({ kind: "idle" });

  async function upload(file: File) {
    const format = /\.csv$/i.test(file.name) ? "csv" : "geojson";
    setStatus({ kind: "sending", name: file.name });
    let res: Response;
    try {
      res = await fetch(`/api/geofences/import?format=${format}`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": format === "csv" ? "text/csv" : "application/geo+json" },
        body: file,
      });
    } catch {
      return setStatus({ kind: "failed", text: "The server cannot be reached; nothing was imported." });
    }
    if (!res.ok || !res.body) {
      const payload = (await res.json().catch(() => ({}))) as { meta?: { message?: string } };
      return setStatus({
        kind: "failed",
        text: `Nothing was imported: ${payload.meta?.message ?? `the server answered ${res.status}`}.`,
      });
    }
    // JSON lines: progress after each chunk written, then the outcome.
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += value;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines.filter(Boolean)) {
        const msg = JSON.parse(line) as {
          progress?: { done: number; total: number };
          meta?: { code: number; message?: string };
          created?: number;
          replaced?: number;
        };
        if (msg.progress) setStatus({ kind: "writing", ...msg.progress });
        else if (msg.meta?.code === 200) {
          setStatus({
            kind: "done",
            text: `Imported ${file.name}: ${msg.created} created, ${msg.replaced} replaced.`,
          });
        } else
          setStatus({ kind: "failed", text: `Import stopped: ${msg.meta?.message ?? "unknown error"}.` });
      }
    }
    void queryClient.invalidateQueries();
  }

  const busy = status.kind === "sending" || status.kind === "writing";
  return (
    <div className="flex flex-wrap items-center gap-2">
      <a href="/api/geofences/export?format=geojson" download className={link}>
        Export GeoJSON
      </a>
      <a href="/api/geofences/export?format=csv" download className={link}>
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
            aria-label="Geofence file to import"
            className="hidden"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) void upload(file);
            }}
          />
        </>
      )}
      {status.kind === "sending" && <p role="status">Checking {status.name}…</p>}
      {status.kind === "writing" && (
        <p role="status" className="flex items-center gap-2">
          <progress value={status.done} max={status.total} className="w-32" />
          {status.done.toLocaleString("en")} of {status.total.toLocaleString("en")} written
        </p>
      )}
      {status.kind === "done" && (
        <p role="status" className="text-emerald-800">
          {status.text}
        </p>
      )}
      {status.kind === "failed" && (
        <p role="alert" className="text-red-700">
          {status.text}
        </p>
      )}
    </div>
  );
}
