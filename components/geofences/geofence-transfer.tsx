"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { TransferBar, importRefusal, sendImport, transferLink } from "@/components/ui/transfer-bar";

interface Preview {
  total: number;
  created: number;
  replaced: number;
  unchanged: number;
  changes: { where: string; _id: string; description: string; fields: string[] }[];
}

type Status =
  | { kind: "idle" }
  | { kind: "checking"; name: string }
  | { kind: "preview"; file: File; preview: Preview }
  | { kind: "writing"; done: number; total: number }
  | { kind: "done"; text: string }
  | { kind: "failed"; text: string };

const FIELD_NAMES: Record<string, string> = {
  externalId: "external ID",
  dwellThreshold: "dwell threshold",
  userIds: "users",
  stopDetection: "stop detection",
  disableAfter: "disable time",
  deleteAfter: "delete time",
};

/**
 * Bulk export (GeoJSON, CSV) and, for those who edit geofences, bulk import of a file: the
 * server checks every row first (a bad one refuses the file, naming it) and says what the import
 * would create, replace (and which fields change) and leave unchanged; nothing is written until
 * the person confirms. Then it writes, with progress shown here.
 */
export function GeofenceTransfer({ canEdit }: { canEdit: boolean }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Status>({ kind: "idle" });

  async function check(file: File) {
    setStatus({ kind: "checking", name: file.name });
    let res: Response;
    try {
      res = await sendImport("geofences", file, true);
    } catch {
      return setStatus({ kind: "failed", text: "The server cannot be reached; nothing was imported." });
    }
    if (!res.ok) return setStatus({ kind: "failed", text: await importRefusal(res) });
    const { preview } = (await res.json()) as { preview: Preview };
    setStatus({ kind: "preview", file, preview });
  }

  async function upload(file: File) {
    setStatus({ kind: "writing", done: 0, total: 0 });
    let res: Response;
    try {
      res = await sendImport("geofences", file);
    } catch {
      return setStatus({ kind: "failed", text: "The server cannot be reached; nothing was imported." });
    }
    if (!res.ok || !res.body) return setStatus({ kind: "failed", text: await importRefusal(res) });
    await followImport(res.body, file.name, setStatus);
    void queryClient.invalidateQueries();
  }

  const busy = status.kind === "checking" || status.kind === "writing" || status.kind === "preview";
  return (
    <TransferBar
      kind="geofences"
      fileLabel="Geofence file to import"
      canEdit={canEdit}
      busy={busy}
      onFile={(file) => void check(file)}
    >
      {status.kind === "preview" && (
        <ImportPreview
          name={status.file.name}
          preview={status.preview}
          onConfirm={() => void upload(status.file)}
          onCancel={() => setStatus({ kind: "idle" })}
        />
      )}
      <StatusNote status={status} />
    </TransferBar>
  );
}

/** Follows an import as the server writes it: JSON lines, progress after each chunk, then the outcome. */
async function followImport(
  body: NonNullable<Response["body"]>,
  name: string,
  setStatus: (s: Status) => void,
) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
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
        unchanged?: number;
      };
      if (msg.progress) setStatus({ kind: "writing", ...msg.progress });
      else if (msg.meta?.code === 200) {
        setStatus({
          kind: "done",
          text: `Imported ${name}: ${msg.created} created, ${msg.replaced} replaced, ${msg.unchanged} unchanged.`,
        });
      } else setStatus({ kind: "failed", text: `Import stopped: ${msg.meta?.message ?? "unknown error"}.` });
    }
  }
}

/** Where an import stands: checking, writing (with progress), done or failed. */
function StatusNote({ status }: { status: Status }) {
  return (
    <>
      {status.kind === "checking" && <p role="status">Checking {status.name}…</p>}
      {status.kind === "writing" && (
        <p role="status" className="flex items-center gap-2">
          <progress value={status.done} max={status.total} className="w-32" />
          {status.total
            ? `${status.done.toLocaleString("en")} of ${status.total.toLocaleString("en")} written`
            : "Writing…"}
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
    </>
  );
}

/** What an import would do, and the choice to go ahead. */
function ImportPreview(props: {
  name: string;
  preview: Preview;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { preview: p } = props;
  const writes = p.created + p.replaced;
  return (
    <section
      aria-label="Import preview"
      className="w-full space-y-2 rounded border border-slate-300 bg-white p-3 text-sm"
    >
      <p>
        <strong>{props.name}</strong>: {p.created.toLocaleString("en")} to create,{" "}
        {p.replaced.toLocaleString("en")} to replace, {p.unchanged.toLocaleString("en")} unchanged.
      </p>
      {p.changes.length > 0 && (
        <ul className="max-h-48 list-disc overflow-y-auto pl-5 text-slate-700">
          {p.changes.map((c) => (
            <li key={c._id}>
              {c.description} ({c.where}): {c.fields.map((f) => FIELD_NAMES[f] ?? f).join(", ")}
            </li>
          ))}
          {p.replaced > p.changes.length && <li>and {p.replaced - p.changes.length} more</li>}
        </ul>
      )}
      <div className="flex gap-2">
        {writes > 0 && (
          <button
            type="button"
            onClick={props.onConfirm}
            className="rounded bg-slate-900 px-3 py-1 text-white"
          >
            Import {writes.toLocaleString("en")} {writes === 1 ? "geofence" : "geofences"}
          </button>
        )}
        <button type="button" onClick={props.onCancel} className={transferLink}>
          {writes > 0 ? "Cancel" : "Close: nothing to import"}
        </button>
      </div>
    </section>
  );
}
