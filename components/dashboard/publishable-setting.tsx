"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";

/** Whether publishable keys may call geocoding, search and routing (off by default). */
export function PublishableSetting() {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ["settings"],
    queryFn: () =>
      call<{ settings: { publishableSearch: boolean } }>("GET", "/api/settings").then((r) => r.settings),
  });
  const change = useMutation({
    mutationFn: (publishableSearch: boolean) => call("PATCH", "/api/settings", { publishableSearch }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["settings"] }),
  });
  return (
    <section aria-labelledby="settings-title" className="space-y-2">
      <h2 id="settings-title" className="text-xl font-semibold">
        Publishable keys
      </h2>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-1"
          disabled={settings.isLoading || change.isPending}
          checked={settings.data?.publishableSearch ?? false}
          onChange={(e) => change.mutate(e.target.checked)}
        />
        <span>
          Let publishable keys call geocoding, search (geofences, places) and routing, so browser SDKs can use
          them. User search always needs a secret key. Off by default.
        </span>
      </label>
      <ErrorNote error={settings.error ?? change.error} />
    </section>
  );
}
