"use client";

import { useMutation } from "@tanstack/react-query";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";

export interface IpAnswer {
  ip: string;
  address: Record<string, unknown> & { latitude?: number; longitude?: number; country: string };
}

/** IP geocoding (an address typed, or the caller's own); the answer goes to the map too. */
export function IpPanel({ onAnswer }: { onAnswer: (answer: IpAnswer | null) => void }) {
  const ip = useMutation({
    mutationFn: (address: string) =>
      call<IpAnswer>("GET", `/v1/geocode/ip${address ? `?ip=${encodeURIComponent(address)}` : ""}`),
    onSuccess: onAnswer,
    onError: () => onAnswer(null),
  });
  return (
    <section aria-labelledby="ip-title" className="space-y-2">
      <h2 id="ip-title" className="text-lg font-semibold">
        IP geocoding
      </h2>
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          ip.mutate(String(new FormData(e.currentTarget).get("ip") ?? "").trim());
        }}
      >
        <input
          name="ip"
          aria-label="IP address"
          placeholder="8.8.8.8 (empty: yours)"
          className="min-w-0 flex-1 rounded border border-slate-300 px-2 py-1.5 text-sm"
        />
        <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">
          Look up
        </button>
      </form>
      <ErrorNote error={ip.error} />
      {ip.data && (
        <pre aria-label="IP result" className="overflow-x-auto rounded bg-slate-50 p-2 text-xs">
          {JSON.stringify(ip.data.address, null, 2)}
        </pre>
      )}
    </section>
  );
}
