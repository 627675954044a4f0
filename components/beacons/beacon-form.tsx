"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";
import type { Beacon } from "./types";

const input = "w-full rounded border border-slate-300 px-2 py-1.5 text-sm";

/** The form's fields as the API's body (an empty optional field clears it). */
function bodyOf(form: FormData, position: [number, number] | null) {
  const text = (name: string) => String(form.get(name) ?? "").trim();
  const metaText = text("metadata");
  return {
    description: text("description"),
    tag: text("tag") || null,
    externalId: text("externalId") || null,
    uuid: text("uuid"),
    major: text("major"),
    minor: text("minor"),
    ...(position && { coordinates: position }),
    // Sent as written: the API names what is wrong with it.
    metadata: metaText ? metaText : null,
    enabled: form.get("enabled") === "on",
  };
}

/**
 * A beacon's fields: new (POST /v1/beacons) or the open one (PUT /v1/beacons/{id}); its position
 * is where the map was last clicked (or where it is).
 */
export function BeaconForm(props: {
  beacon: Beacon | null;
  position: [number, number] | null;
  onSaved: (b: Beacon) => void;
  onDeleted: () => void;
}) {
  const queries = useQueryClient();
  const b = props.beacon;
  const save = useMutation({
    mutationFn: async (form: FormData) => {
      const body = bodyOf(form, props.position);
      const res = b
        ? await call<{ beacon: Beacon }>("PUT", `/v1/beacons/${b._id}`, body)
        : await call<{ beacon: Beacon }>("POST", "/v1/beacons", body);
      return res.beacon;
    },
    onSuccess: async (saved) => {
      await queries.invalidateQueries({ queryKey: ["beacons"] });
      props.onSaved(saved);
    },
  });
  const remove = useMutation({
    mutationFn: () => call("DELETE", `/v1/beacons/${b!._id}`),
    onSuccess: async () => {
      await queries.invalidateQueries({ queryKey: ["beacons"] });
      props.onDeleted();
    },
  });
  const at = props.position ?? b?.geometry.coordinates ?? null;
  return (
    <form
      key={b?._id ?? "new"}
      aria-label={b ? "Beacon" : "New beacon"}
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(new FormData(e.currentTarget));
      }}
    >
      <Field label="Description" name="description" value={b?.description} required />
      <div className="grid grid-cols-2 gap-2">
        <Field label="Tag" name="tag" value={b?.tag} />
        <Field label="External ID" name="externalId" value={b?.externalId} />
      </div>
      <Field
        label="UUID"
        name="uuid"
        value={b?.uuid}
        required
        placeholder="f7826da6-4fa2-4e98-8024-bc5b71e0893e"
      />
      <div className="grid grid-cols-2 gap-2">
        <Field label="Major" name="major" value={b?.major} required inputMode="numeric" />
        <Field label="Minor" name="minor" value={b?.minor} required inputMode="numeric" />
      </div>
      <Field
        label="Metadata (JSON)"
        name="metadata"
        value={b?.metadata ? JSON.stringify(b.metadata) : undefined}
      />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="enabled" defaultChecked={b?.enabled ?? true} /> Enabled
      </label>
      <p className="text-sm text-slate-600" aria-live="polite">
        {at ? `Position: ${at[1].toFixed(6)}, ${at[0].toFixed(6)}` : "Click the map where the beacon is."}
      </p>
      <ErrorNote error={save.error ?? remove.error} boxed />
      <div className="flex gap-2">
        <Button type="submit" tone="primary" disabled={save.isPending || (!b && !at)}>
          {b ? "Save beacon" : "Create beacon"}
        </Button>
        {b && (
          <Button tone="reject" onClick={() => remove.mutate()} disabled={remove.isPending}>
            Delete
          </Button>
        )}
      </div>
    </form>
  );
}

function Field({
  label,
  name,
  value,
  ...rest
}: { label: string; name: string; value?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      {label}
      <input name={name} defaultValue={value ?? ""} className={input} {...rest} />
    </label>
  );
}
