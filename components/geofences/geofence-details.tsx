"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ErrorNote } from "@/components/ui/error-note";
import { call, isNotFound } from "@/lib/api-client";
import type { Geofence, User } from "@/lib/types";
import { GeofenceEvents } from "./geofence-events";
import { usePermissions } from "@/components/ui/use-permissions";

/** A geofence's fields, the users inside it now, and (for analysts) edit and delete. */
export function GeofenceDetails(props: {
  g: Geofence;
  canEdit: boolean;
  onClose: () => void;
  onEdit: () => void;
  onDeleted: () => void;
}) {
  const { g } = props;
  const listsUsers = usePermissions()?.users ?? false;
  return (
    <section className="space-y-3" aria-label="Geofence">
      <div className="flex items-start justify-between gap-2">
        <h2 className="text-lg font-semibold">{g.description}</h2>
        <button type="button" onClick={props.onClose} className="text-sm text-slate-600 underline">
          Close
        </button>
      </div>
      <GeofenceFields g={g} />
      {props.canEdit && <GeofenceActions id={g._id} onEdit={props.onEdit} onDeleted={props.onDeleted} />}
      <GeofenceEvents id={g._id} />
      {listsUsers && <GeofenceMembers id={g._id} />}
    </section>
  );
}

/** The open geofence is not there: deleted (by someone else, or by its deleteAfter), or the other world's. */
export function GeofenceGone({ onClose }: { onClose: () => void }) {
  return (
    <section className="space-y-3" aria-label="Geofence">
      <div className="flex items-start justify-between gap-2">
        <h2 className="text-lg font-semibold">Geofence not found</h2>
        <button type="button" onClick={onClose} className="text-sm text-slate-600 underline">
          Close
        </button>
      </div>
      <p className="text-sm text-slate-600" role="status">
        It was deleted, or it belongs to the other data set (Test or Live, chosen at the top).
      </p>
    </section>
  );
}

/** The geofence's fields as a list, and its metadata. */
export function GeofenceFields({ g }: { g: Geofence }) {
  return (
    <>
      <dl className="grid grid-cols-[7rem_1fr] gap-y-1 text-sm">
        <dt className="text-slate-500">Tag</dt>
        <dd>{g.tag ?? "—"}</dd>
        <dt className="text-slate-500">External ID</dt>
        <dd>{g.externalId ?? "—"}</dd>
        <dt className="text-slate-500">Type</dt>
        <dd>
          {g.type}
          {g.type === "circle" && `, ${Math.round(g.geometryRadius)} m`}
          {g.isochrone && `, ${g.isochrone.minutes} min by ${g.isochrone.mode}`}
        </dd>
        <dt className="text-slate-500">Enabled</dt>
        <dd>{g.enabled ? "yes" : "no"}</dd>
        <dt className="text-slate-500">Dwell after</dt>
        <dd>{g.dwellThreshold ?? 5} min</dd>
        <dt className="text-slate-500">Users</dt>
        <dd>{g.userIds ? g.userIds.join(", ") : "everyone"}</dd>
        <dt className="text-slate-500">Entries</dt>
        <dd>{g.stopDetection ? "only when stopped" : "when inside"}</dd>
        {g.disableAfter && (
          <>
            <dt className="text-slate-500">Disabled at</dt>
            <dd>{new Date(g.disableAfter).toLocaleString()}</dd>
          </>
        )}
        {g.deleteAfter && (
          <>
            <dt className="text-slate-500">Deleted at</dt>
            <dd>{new Date(g.deleteAfter).toLocaleString()}</dd>
          </>
        )}
        <dt className="text-slate-500">ID</dt>
        <dd className="font-mono text-xs break-all">{g._id}</dd>
      </dl>
      {g.metadata && (
        <pre className="overflow-x-auto rounded bg-slate-50 p-2 text-xs">
          {JSON.stringify(g.metadata, null, 2)}
        </pre>
      )}
    </>
  );
}

/** Edit, and delete after a confirmation. */
function GeofenceActions(props: { id: string; onEdit: () => void; onDeleted: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => call("DELETE", `/v1/geofences/${props.id}`),
    onSuccess: props.onDeleted,
  });
  return (
    <>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={props.onEdit}
          className="rounded border border-slate-300 px-3 py-1.5 text-sm"
        >
          Edit geofence
        </button>
        {confirming ? (
          <span className="flex items-center gap-2 text-sm">
            Delete for good?
            <button
              type="button"
              onClick={() => remove.mutate()}
              className="rounded bg-red-700 px-3 py-1.5 text-white"
            >
              Yes, delete
            </button>
            <button type="button" onClick={() => setConfirming(false)} className="underline">
              No
            </button>
          </span>
        ) : (
          <button
            type="button"
            onClick={() => setConfirming(true)}
            className="rounded border border-red-300 px-3 py-1.5 text-sm text-red-700"
          >
            Delete geofence
          </button>
        )}
      </div>
      <ErrorNote error={remove.error} />
    </>
  );
}

/** The users inside the geofence now (up to 100). */
export function GeofenceMembers({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const members = useQuery({
    queryKey: ["geofence-users", id],
    queryFn: () => call<{ users: User[] }>("GET", `/v1/geofences/${id}/users?limit=100`).then((r) => r.users),
  });
  const gone = isNotFound(members.error);
  useEffect(() => {
    // Deleted meanwhile: the lists that still show it are read again.
    if (gone) void queryClient.invalidateQueries({ queryKey: ["geofences"] });
  }, [gone, queryClient]);
  return (
    <>
      <h3 className="font-medium">Users inside now</h3>
      {members.isLoading ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : gone ? (
        <p className="text-sm text-slate-500">This geofence has been deleted.</p>
      ) : members.error ? (
        <ErrorNote error={members.error} />
      ) : members.data?.length ? (
        <ul className="space-y-1 text-sm">
          {members.data.map((u) => (
            <li key={u._id}>{u.userId ?? u.deviceId}</li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-500">Nobody is inside.</p>
      )}
    </>
  );
}
