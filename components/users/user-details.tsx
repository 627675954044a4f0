"use client";

import { useQuery } from "@tanstack/react-query";
import { call } from "@/lib/api-client";
import { CONFIDENCE, type LocationEvent, type User } from "@/lib/types";
import { DeviceLog } from "./device-log";
import { TRAIL_COLOR, useTrail } from "./user-trail";

/** The map's panel of a user: its name, a close button, and what UserSummary shows. */
export function UserDetails({ u, onClose }: { u: User; onClose: () => void }) {
  return (
    <section className="space-y-3" aria-label="User">
      <div className="flex items-start justify-between gap-2">
        <h2 className="text-lg font-semibold">{u.userId ?? u.deviceId}</h2>
        <button type="button" onClick={onClose} className="text-sm text-slate-600 underline">
          Close
        </button>
      </div>
      <UserSummary u={u} />
    </section>
  );
}

/**
 * A user's last location, what its device said of itself, its trail (drawn on the map when the
 * map shows it), its 20 most recent events (asked of the server by user) and its device's log.
 */
export function UserSummary({ u }: { u: User }) {
  const trail = useTrail(u._id);
  const oldest = trail.data?.at(-1);
  const events = useQuery({
    queryKey: ["user-events", u._id],
    queryFn: () =>
      call<{ events: LocationEvent[] }>(
        "GET",
        `/v1/events?limit=20&userId=${encodeURIComponent(u._id)}`,
      ).then((r) => r.events),
  });
  return (
    <>
      <dl className="grid grid-cols-[7rem_1fr] gap-y-1 text-sm">
        <dt className="text-slate-500">Device</dt>
        <dd className="break-all">{u.deviceId}</dd>
        <dt className="text-slate-500">Description</dt>
        <dd>{u.description ?? "—"}</dd>
        <dt className="text-slate-500">Location</dt>
        <dd>
          {u.location.coordinates[1].toFixed(5)}, {u.location.coordinates[0].toFixed(5)} (±
          {Math.round(u.locationAccuracy)} m)
        </dd>
        <dt className="text-slate-500">Updated</dt>
        <dd>{new Date(u.updatedAt).toLocaleString()}</dd>
        <DeviceRows u={u} />
        <dt className="text-slate-500">Inside</dt>
        <dd>{u.geofences.map((g) => g.description).join(", ") || "no geofence"}</dd>
      </dl>
      <p className="flex items-center gap-2 text-sm" aria-label="Trail">
        <span className="h-1 w-5 shrink-0 rounded" style={{ background: TRAIL_COLOR }} />
        {trail.data?.length
          ? `Trail: ${trail.data.length} recent location${trail.data.length === 1 ? "" : "s"} since ${new Date(oldest!.recordedAt).toLocaleString()}`
          : "No location history."}
      </p>
      <h3 className="font-medium">Recent events</h3>
      {events.isLoading ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : events.data?.length ? (
        <ul className="space-y-1 text-sm">
          {events.data.map((e) => (
            <li key={e._id}>
              {e.type.replace("user.", "").replaceAll("_", " ")} {e.geofence?.description ?? ""} ·{" "}
              {CONFIDENCE[e.confidence]} · {new Date(e.createdAt).toLocaleString()}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-500">No events yet.</p>
      )}
      <DeviceLog userId={u._id} />
    </>
  );
}

type Part = string | undefined | false;
const joined = (...parts: Part[]) => parts.filter(Boolean).join(" · ");
const spaced = (...parts: Part[]) => parts.filter(Boolean).join(" ");

/**
 * What the device said of itself and of its last fix, the rows it sent anything for: what
 * support staff look at first when "tracking stopped" (its OS, SDK and permission).
 */
function DeviceRows({ u }: { u: User }) {
  const hardware = joined(
    spaced(u.deviceType, u.deviceOS),
    spaced(u.deviceMake, u.deviceModel),
    u.sdkVersion && `SDK ${u.sdkVersion}`,
  );
  const permission = joined(u.locationAuthorization, u.locationAccuracyAuthorization);
  const state = joined(
    u.foreground !== undefined && (u.foreground ? "foreground" : "background"),
    u.stopped !== undefined && (u.stopped ? "stopped" : "moving"),
    u.replayed && "replayed from the device's buffer",
  );
  const motion = joined(
    u.speed !== undefined && u.speed >= 0 && `${Math.round(u.speed * 3.6)} km/h`,
    u.course !== undefined && u.course >= 0 && `heading ${Math.round(u.course)}°`,
    u.altitude !== undefined && `altitude ${Math.round(u.altitude)} m`,
  );
  const rows: [string, string][] = [
    ["Hardware", hardware],
    ["Install", u.installId ?? ""],
    ["Permission", permission],
    ["State", state],
    ["Last fix", motion],
  ];
  return (
    <>
      {rows
        .filter(([, value]) => value)
        .map(([label, value]) => (
          <Row key={label} label={label} value={value} />
        ))}
    </>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="text-slate-500">{label}</dt>
      <dd className="[overflow-wrap:anywhere]" aria-label={label}>
        {value}
      </dd>
    </>
  );
}
