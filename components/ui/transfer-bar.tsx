"use client";

import { type ReactNode, useRef } from "react";

export const transferLink =
  "rounded border border-slate-300 bg-white px-2 py-1 text-sm hover:bg-slate-50 disabled:opacity-50";

const formatOf = (file: File) => (/\.csv$/i.test(file.name) ? "csv" : "geojson");

/**
 * Sends a file to a kind's import route (`/api/<kind>/import`), as CSV or GeoJSON by its name;
 * with `dryRun`, the server only checks it and says what it would do.
 */
export function sendImport(kind: "geofences" | "beacons", file: File, dryRun = false): Promise<Response> {
  const format = formatOf(file);
  return fetch(`/api/${kind}/import?format=${format}${dryRun ? "&dryRun=true" : ""}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": format === "csv" ? "text/csv" : "application/geo+json" },
    body: file,
  });
}

/** A refused import's sentence: the server's message, or its status. */
export async function importRefusal(res: Response): Promise<string> {
  const payload = (await res.json().catch(() => ({}))) as { meta?: { message?: string } };
  return `Nothing was imported: ${payload.meta?.message ?? `the server answered ${res.status}`}.`;
}

/**
 * A kind's export links (GeoJSON, CSV) and, for those who may edit it, the import button and its
 * file picker; what the import says is the caller's (`children`, below the bar).
 */
export function TransferBar(props: {
  kind: "geofences" | "beacons";
  /** the file picker's accessible name */
  fileLabel: string;
  canEdit: boolean;
  busy: boolean;
  onFile: (file: File) => void;
  children?: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <a href={`/api/${props.kind}/export?format=geojson`} download className={transferLink}>
        Export GeoJSON
      </a>
      <a href={`/api/${props.kind}/export?format=csv`} download className={transferLink}>
        Export CSV
      </a>
      {props.canEdit && (
        <>
          <button
            type="button"
            disabled={props.busy}
            onClick={() => input.current?.click()}
            className={transferLink}
          >
            Import file…
          </button>
          <input
            ref={input}
            type="file"
            accept=".geojson,.json,.csv,application/geo+json,text/csv"
            aria-label={props.fileLabel}
            className="hidden"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) props.onFile(file);
            }}
          />
        </>
      )}
      {props.children}
    </div>
  );
}
