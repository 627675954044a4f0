import type { Metadata } from "next";
import { SdkSettingsForm } from "@/components/settings/sdk-settings";
import { requireSession } from "@/server/auth/current";

export const metadata: Metadata = { title: "Settings · Location platform" };

export default async function SettingsPage() {
  await requireSession("keys:manage");
  return (
    <div className="h-full space-y-4 overflow-y-auto p-4">
      <h1 className="text-lg font-semibold">SDK settings</h1>
      <SdkSettingsForm />
    </div>
  );
}
