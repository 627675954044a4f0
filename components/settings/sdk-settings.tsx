"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";

type Config = Record<string, unknown>;
interface SdkSettings {
  sdkConfiguration: Config;
  trackingOptions?: Config;
}
interface Answer {
  live: boolean;
  settings: SdkSettings;
}

const LOG_LEVELS = ["none", "error", "warning", "info", "debug"];
/** The switches admins change most; every other field goes through the JSON below. */
const SWITCHES: [string, string][] = [
  ["startTrackingOnInitialize", "Start tracking on initialize"],
  ["trackOnceOnAppOpen", "Track once when the app opens"],
  ["useSyncRegion", "Sync the region around the device (offline events)"],
  ["offlineEventGenerationEnabled", "Make events offline"],
  ["bufferGeofenceEntries", "Buffer geofence entries by the fix's accuracy"],
  ["bufferGeofenceExits", "Buffer geofence exits by the fix's accuracy"],
];
const NUMBERS: [string, string, number, number][] = [
  ["defaultGeofenceDwellThreshold", "Default dwell threshold (minutes)", 0, 1440],
  ["maxReplayBufferSize", "Updates kept offline for replay", 1, 120],
];
const FORM_FIELDS = new Set(["logLevel", ...SWITCHES.map(([k]) => k), ...NUMBERS.map(([k]) => k)]);

const json = (v: unknown) => (v === undefined ? "" : JSON.stringify(v, null, 2));

/**
 * The SDK settings of the dashboard's environment (GET /v1/config answers them to Radar's SDKs):
 * each field is sent only when set here ("SDK default" leaves the platform's own). Saved whole;
 * the server checks every value as the SDKs parse it and says which one it refused.
 */
export function SdkSettingsForm() {
  const data = useQuery({
    queryKey: ["sdk-settings"],
    queryFn: () => call<Answer>("GET", "/api/settings/sdk"),
  });
  if (data.error) return <ErrorNote error={data.error} boxed />;
  if (!data.data) return <p className="text-sm text-slate-500">Loading…</p>;
  // Mounted anew only when the environment changes: a save keeps what is being edited.
  return <Editor key={String(data.data.live)} answer={data.data} />;
}

function Editor({ answer }: { answer: Answer }) {
  const client = useQueryClient();
  const { sdkConfiguration: initial, trackingOptions } = answer.settings;
  const [fields, setFields] = useState<Config>(() =>
    Object.fromEntries(Object.entries(initial).filter(([k]) => FORM_FIELDS.has(k))),
  );
  const rest = Object.fromEntries(Object.entries(initial).filter(([k]) => !FORM_FIELDS.has(k)));
  const [more, setMore] = useState(Object.keys(rest).length ? json(rest) : "");
  const [steered, setSteered] = useState(json(trackingOptions));
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const set = (key: string, value: unknown) => {
    setSaved(false);
    setFields(({ [key]: _old, ...others }) => (value === undefined ? others : { ...others, [key]: value }));
  };

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const parse = (text: string, what: string) => {
        try {
          return text.trim() ? (JSON.parse(text) as Config) : undefined;
        } catch {
          throw new Error(`${what} is not JSON`);
        }
      };
      const body = {
        sdkConfiguration: { ...parse(more, "Other SDK fields"), ...fields },
        trackingOptions: parse(steered, "Live tracking options") ?? null,
      };
      client.setQueryData(["sdk-settings"], await call<Answer>("PUT", "/api/settings/sdk", body));
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  }

  return (
    <form onSubmit={save} className="max-w-2xl space-y-4" aria-label="SDK settings">
      <p className="text-sm text-slate-600">
        What Radar&apos;s SDKs get from <code>GET /v1/config</code> in the{" "}
        <strong>{answer.live ? "live" : "test"}</strong> environment (switch with Data above). A field left at
        &quot;SDK default&quot; is not sent: Android and iOS keep their own defaults.
      </p>
      <FieldRows fields={fields} set={set} />
      <JsonField value={more} onChange={setMore}>
        Other SDK fields (JSON): <code>remoteTrackingOptions</code> presets <code>default</code>,{" "}
        <code>onTrip</code>, <code>inGeofence</code> for offline tracking, and the rest of
        <code> sdkConfiguration</code>
      </JsonField>
      <JsonField value={steered} onChange={setSteered}>
        Live tracking options the server steers (JSON; empty: the app&apos;s own)
      </JsonField>
      <ErrorNote error={error} boxed />
      <div className="flex items-center gap-3">
        <Button tone="primary" type="submit">
          Save
        </Button>
        {saved && (
          <span role="status" className="text-sm text-emerald-700">
            Saved: devices get these the next time their SDK starts.
          </span>
        )}
      </div>
    </form>
  );
}

/** The log level, the switches and the numbers: "SDK default" (unset) or a value. */
function FieldRows({ fields, set }: { fields: Config; set: (key: string, value: unknown) => void }) {
  return (
    <>
      <label className="flex items-center justify-between gap-4 text-sm">
        Log level
        <select
          className="rounded border border-slate-300 px-2 py-1"
          value={(fields.logLevel as string) ?? ""}
          onChange={(e) => set("logLevel", e.target.value || undefined)}
        >
          <option value="">SDK default</option>
          {LOG_LEVELS.map((l) => (
            <option key={l}>{l}</option>
          ))}
        </select>
      </label>
      {SWITCHES.map(([key, label]) => (
        <label key={key} className="flex items-center justify-between gap-4 text-sm">
          {label}
          <select
            className="rounded border border-slate-300 px-2 py-1"
            value={fields[key] === undefined ? "" : String(fields[key])}
            onChange={(e) => set(key, e.target.value === "" ? undefined : e.target.value === "true")}
          >
            <option value="">SDK default</option>
            <option value="true">on</option>
            <option value="false">off</option>
          </select>
        </label>
      ))}
      {NUMBERS.map(([key, label, min, max]) => (
        <label key={key} className="flex items-center justify-between gap-4 text-sm">
          {label}
          <input
            type="number"
            min={min}
            max={max}
            placeholder="SDK default"
            className="w-32 rounded border border-slate-300 px-2 py-1"
            value={fields[key] === undefined ? "" : String(fields[key])}
            onChange={(e) => set(key, e.target.value === "" ? undefined : Number(e.target.value))}
          />
        </label>
      ))}
    </>
  );
}

function JsonField({
  value,
  onChange,
  children,
}: {
  value: string;
  onChange: (v: string) => void;
  children: ReactNode;
}) {
  return (
    <label className="block space-y-1 text-sm">
      <span>{children}</span>
      <textarea
        className="h-32 w-full rounded border border-slate-300 p-2 font-mono text-xs"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
      />
    </label>
  );
}
