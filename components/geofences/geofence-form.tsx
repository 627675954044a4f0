"use client";

import L from "../map/leaflet-global";
import { useEffect, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ErrorNote } from "@/components/ui/error-note";
import { ApiCallError, call, errorText } from "@/lib/api-client";
import type { Geofence } from "@/lib/types";
import { changesBetween } from "@/lib/geofence-changes";
import { type DraftLayer, shapeOf } from "../map/shapes";
import { IsochroneFields } from "./isochrone-fields";

/**
 * A shape being drawn or edited, with the geofence it belongs to when it exists already (an
 * isochrone's layer is the marker at its center).
 */
export interface Draft {
  layer: DraftLayer;
  existing?: Geofence;
}

const input = "w-full rounded border border-slate-300 px-2 py-1.5 text-sm";

interface Refusal {
  message: string;
  param?: string;
  /** the geofence that already has the tag and external ID asked for */
  holder?: Geofence;
  /** saved by someone else meanwhile (412): their version (null: deleted), and what they changed */
  conflict?: { current: Geofence | null; changes: string[] };
}

/** The form's fields as the API's body; an empty optional field clears it. */
function bodyOf(form: FormData) {
  let metadata: unknown = null;
  const metaText = String(form.get("metadata") ?? "").trim();
  if (metaText) {
    try {
      metadata = JSON.parse(metaText);
    } catch {
      throw new ApiCallError("metadata: is not valid JSON", 400, "metadata");
    }
  }
  const dwell = String(form.get("dwellThreshold") ?? "").trim();
  const userIds = String(form.get("userIds") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    description: form.get("description"),
    tag: form.get("tag"),
    externalId: form.get("externalId"),
    metadata,
    enabled: form.get("enabled") === "on",
    dwellThreshold: dwell === "" ? null : dwell,
    userIds: userIds.length ? userIds : null,
    stopDetection: form.get("stopDetection") === "on",
    disableAfter: instantOf(form.get("disableAfter")),
    deleteAfter: instantOf(form.get("deleteAfter")),
  };
}

/** A datetime-local field's value (the browser's time zone) as an instant; empty: none. */
function instantOf(value: FormDataEntryValue | null): string | null {
  const text = String(value ?? "").trim();
  if (!text) return null;
  const t = new Date(text);
  // The browser only lets a whole date and time through; should one not parse, the API says so.
  return Number.isNaN(t.getTime()) ? text : t.toISOString();
}

/** An instant as a datetime-local field shows it: the browser's time zone, to the minute. */
function localField(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const t = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}`;
}

/**
 * Saves a drawn shape as a new geofence (create: an identity in use is refused, never replaced),
 * or an edited one by its _id (only what the form shows changes; every other field is kept, and
 * a change someone else saved meanwhile is not overwritten).
 */
export function GeofenceForm({
  draft,
  map,
  onCancel,
  onSaved,
  onOpen,
}: {
  draft: Draft;
  map: L.Map | null;
  onCancel: () => void;
  onSaved: (g: Geofence) => void;
  onOpen: (g: Geofence) => void;
}) {
  const g = draft.existing;
  const { save, refusal, setRefusal } = useSave(draft, onSaved);
  useEffect(() => () => void draft.layer.unbindTooltip(), [draft.layer]);
  const param = refusal?.param;
  return (
    <form
      onSubmit={(e) => {
        // onSubmit, not action: a form action resets the fields, and a refused save must keep them.
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        draft.layer.unbindTooltip();
        setRefusal(null);
        save.mutate(form);
      }}
      className="space-y-3"
      aria-label={g ? "Edit geofence" : "New geofence"}
    >
      <h2 className="text-lg font-semibold">{g ? "Edit geofence" : "New geofence"}</h2>
      {draft.layer instanceof L.Marker ? (
        <IsochroneFields marker={draft.layer} map={map} g={g} param={param} />
      ) : (
        <p className="text-sm text-slate-600">
          Drag the vertices or the shape on the map
          {draft.layer instanceof L.Circle ? ", or its edge to resize" : ""}, then save.
        </p>
      )}
      <GeofenceFields g={g} param={param} />
      <RefusalNote refusal={refusal} onOpen={onOpen} onCancel={onCancel} />
      <div className="flex gap-2">
        <button
          type="submit"
          disabled={save.isPending}
          className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white disabled:opacity-50"
        >
          {save.isPending ? "Saving…" : "Save geofence"}
        </button>
        <button
          type="button"
          onClick={onCancel}
          className="rounded border border-slate-300 px-3 py-1.5 text-sm"
        >
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * Saving the draft: a POST for a new shape, a PATCH conditional on the version edited. A refusal
 * says why (the field, the geofence holding the identity, or the change saved meanwhile), also
 * next to the shape on the map.
 */
function useSave(draft: Draft, onSaved: (g: Geofence) => void) {
  const g = draft.existing;
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const save = useMutation({
    mutationFn: async (form: FormData) => {
      const reach = { minutes: Number(form.get("minutes")), mode: String(form.get("mode") ?? "car") };
      const body = { ...bodyOf(form), ...shapeOf(draft.layer, reach) };
      const saved = g
        ? await call<{ geofence: Geofence }>("PATCH", `/v1/geofences/${g._id}`, body, {
            "if-match": `"${g.updatedAt}"`,
          })
        : await call<{ geofence: Geofence }>("POST", "/v1/geofences", body);
      return saved.geofence;
    },
    onSuccess: onSaved,
    onError: async (e: Error, form: FormData) => {
      const param = e instanceof ApiCallError ? e.param : undefined;
      const holder = e instanceof ApiCallError && e.status === 409 ? await holderOf(form) : undefined;
      let conflict: Refusal["conflict"];
      if (e instanceof ApiCallError && e.status === 412 && g) {
        // Changed by someone else meanwhile: say what they changed, and show their version.
        const current = await currentVersion(g._id);
        conflict = { current, changes: current ? changesBetween(g, current) : [] };
        void queryClient.invalidateQueries({ queryKey: ["geofences"] });
      }
      setRefusal({ message: errorText(e), param, holder, conflict });
      // The API's answer, next to the shape.
      const tip = holder
        ? `Tag and external ID already used by “${holder.description}”`
        : conflict
          ? "Changed by someone else meanwhile: not saved"
          : errorText(e);
      // As text: a geofence's description is anyone's words (Leaflet sets a string as HTML).
      const text = document.createElement("span");
      text.textContent = tip;
      draft.layer
        .bindTooltip(text, {
          permanent: true,
          direction: "top",
          className: "text-red-700",
        })
        .openTooltip();
    },
  });
  return { save, refusal, setRefusal };
}

/** The fields a geofence's form shows (its shape is on the map). */
function GeofenceFields({ g, param }: { g?: Geofence; param?: string }) {
  return (
    <>
      <Field label="Description" name="description" defaultValue={g?.description} required param={param} />
      <Field label="Tag" name="tag" defaultValue={g?.tag} param={param} />
      <Field label="External ID" name="externalId" defaultValue={g?.externalId} param={param} />
      <Field
        label="Dwell threshold (minutes)"
        name="dwellThreshold"
        type="number"
        min={1}
        max={10080}
        placeholder="5 (the default)"
        defaultValue={g?.dwellThreshold?.toString()}
        param={param}
      />
      <label className="block space-y-1 text-sm font-medium">
        <span>Metadata (JSON)</span>
        <textarea
          name="metadata"
          rows={3}
          defaultValue={g?.metadata ? JSON.stringify(g.metadata) : ""}
          className={`${input} font-mono`}
          aria-invalid={param === "metadata"}
        />
      </label>
      <Field
        label="Only these users (user IDs, comma-separated)"
        name="userIds"
        placeholder="everyone"
        defaultValue={g?.userIds?.join(", ")}
        param={param}
      />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="enabled" defaultChecked={g?.enabled ?? true} />
        Enabled
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="stopDetection" defaultChecked={g?.stopDetection ?? false} />
        Enter only when the user is stopped
      </label>
      <Field
        label="Disable at"
        name="disableAfter"
        type="datetime-local"
        defaultValue={localField(g?.disableAfter)}
        param={param}
      />
      <Field
        label="Delete at"
        name="deleteAfter"
        type="datetime-local"
        defaultValue={localField(g?.deleteAfter)}
        param={param}
      />
    </>
  );
}

/** Why a save was refused: a conflict with another's change, an identity in use, or the API's words. */
function RefusalNote({
  refusal,
  onOpen,
  onCancel,
}: {
  refusal: Refusal | null;
  onOpen: (g: Geofence) => void;
  onCancel: () => void;
}) {
  return refusal?.conflict ? (
    <div role="alert" className="space-y-2 rounded bg-red-50 px-3 py-2 text-sm text-red-700">
      {refusal.conflict.current ? (
        <p>
          Someone else saved this geofence at {new Date(refusal.conflict.current.updatedAt).toLocaleString()}{" "}
          while you were editing
          {refusal.conflict.changes.length
            ? `: they changed ${refusal.conflict.changes.join(", ")}.`
            : "."}{" "}
          Your changes were not saved. Reload their version, then make your changes again.
        </p>
      ) : (
        <p>Someone else deleted this geofence while you were editing. Your changes were not saved.</p>
      )}
      {refusal.conflict.current ? (
        <button type="button" onClick={() => onOpen(refusal.conflict!.current!)} className="underline">
          Reload
        </button>
      ) : (
        <button type="button" onClick={onCancel} className="underline">
          Close
        </button>
      )}
    </div>
  ) : refusal?.holder ? (
    <div role="alert" className="space-y-2 rounded bg-red-50 px-3 py-2 text-sm text-red-700">
      <p>
        This tag and external ID are already used by “{refusal.holder.description}”. Change them, or open that
        geofence.
      </p>
      <button type="button" onClick={() => onOpen(refusal.holder!)} className="underline">
        Open “{refusal.holder.description}”
      </button>
    </div>
  ) : (
    <ErrorNote error={refusal?.message} boxed />
  );
}

/** The geofence as stored now, or null when it is gone. */
async function currentVersion(id: string): Promise<Geofence | null> {
  try {
    return (await call<{ geofence: Geofence }>("GET", `/v1/geofences/${id}`)).geofence;
  } catch {
    return null;
  }
}

/** The geofence that holds the tag and external ID a refused save asked for. */
async function holderOf(form: FormData): Promise<Geofence | undefined> {
  const tag = String(form.get("tag") ?? "").trim();
  const externalId = String(form.get("externalId") ?? "").trim();
  if (!tag || !externalId) return undefined;
  try {
    const path = `/v1/geofences/${encodeURIComponent(tag)}/${encodeURIComponent(externalId)}`;
    return (await call<{ geofence: Geofence }>("GET", path)).geofence;
  } catch {
    return undefined;
  }
}

function Field(props: {
  label: string;
  name: string;
  defaultValue?: string;
  required?: boolean;
  param?: string;
  type?: string;
  min?: number;
  max?: number;
  placeholder?: string;
}) {
  const { label, param, ...rest } = props;
  return (
    <label className="block space-y-1 text-sm font-medium">
      <span>{label}</span>
      <input {...rest} aria-invalid={param === props.name} className={input} />
    </label>
  );
}
