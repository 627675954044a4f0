"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";

interface Settings {
  publishableSearch: boolean;
  publishableGeofenceSync: boolean;
}

/**
 * What publishable keys may ask beyond tracking: geocoding, search and routing (off by default),
 * and the geofences around a device (on by default, as the SDKs need them offline).
 */
export function PublishableSetting() {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ["settings"],
    queryFn: () => call<{ settings: Settings }>("GET", "/api/settings").then((r) => r.settings),
  });
  const change = useMutation({
    mutationFn: (patch: Partial<Settings>) => call("PATCH", "/api/settings", patch),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["settings"] }),
  });
  const toggle = (name: keyof Settings, text: string, fallback: boolean) => (
    <label className="flex items-start gap-2 text-sm">
      <input
        type="checkbox"
        className="mt-1"
        disabled={settings.isLoading || change.isPending}
        checked={settings.data?.[name] ?? fallback}
        onChange={(e) => change.mutate({ [name]: e.target.checked })}
      />
      <span>{text}</span>
    </label>
  );
  return (
    <section aria-labelledby="settings-title" className="space-y-2">
      <h2 id="settings-title" className="text-xl font-semibold">
        Publishable keys
      </h2>
      {toggle(
        "publishableSearch",
        "Let publishable keys call geocoding, search (geofences, places) and routing, so browser SDKs can use them. User search always needs a secret key. Off by default.",
        false,
      )}
      {toggle(
        "publishableGeofenceSync",
        "Tell devices the geofences around them (sync/region and a track's nearbyGeofences), which the mobile SDKs need for offline events. Anyone holding the publishable key can then list the geofences near any point (never whom they are for). On by default.",
        true,
      )}
      <ErrorNote error={settings.error ?? change.error} />
    </section>
  );
}
