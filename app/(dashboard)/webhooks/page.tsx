import type { Metadata } from "next";
import { WebhooksAdmin } from "@/components/webhooks/webhooks-admin";
import { requireSession } from "@/server/auth/current";

export const metadata: Metadata = { title: "Webhooks · Location platform" };

export default async function WebhooksPage() {
  await requireSession("webhooks:manage");
  return (
    <div className="h-full overflow-y-auto p-4">
      <WebhooksAdmin />
    </div>
  );
}
