"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { TransferBar, importRefusal, sendImport } from "@/components/ui/transfer-bar";

/**
 * Export (GeoJSON, CSV) and, for those who edit beacons, import of a file: the server checks every
 * row first (a bad one refuses the file, naming it, and nothing is written), then writes them.
 */
export function BeaconTransfer({ canEdit }: { canEdit: boolean }) {
  const queries = useQueryClient();
  const [note, setNote] = useState<{ text: string; failed: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  async function upload(file: File) {
    setBusy(true);
    setNote({ text: `Importing ${file.name}…`, failed: false });
    try {
      const res = await sendImport("beacons", file);
      if (!res.ok) return setNote({ text: await importRefusal(res), failed: true });
      const payload = (await res.json()) as { created?: number; replaced?: number };
      // Said once the list below shows what was imported, not before.
      await queries.invalidateQueries({ queryKey: ["beacons"] });
      setNote({
        text: `Imported ${file.name}: ${payload.created} created, ${payload.replaced} replaced.`,
        failed: false,
      });
    } catch {
      setNote({ text: "The server cannot be reached; nothing was imported.", failed: true });
    } finally {
      setBusy(false);
    }
  }

  return (
    <TransferBar
      kind="beacons"
      fileLabel="Beacon file to import"
      canEdit={canEdit}
      busy={busy}
      onFile={(file) => void upload(file)}
    >
      {note && (
        <p
          role={note.failed ? "alert" : "status"}
          className={`w-full text-sm ${note.failed ? "text-red-700" : "text-slate-600"}`}
        >
          {note.text}
        </p>
      )}
    </TransferBar>
  );
}
