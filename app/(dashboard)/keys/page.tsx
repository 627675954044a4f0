import type { Metadata } from "next";
import { KeysAdmin } from "@/components/dashboard/keys-admin";
import { requireSession } from "@/server/auth/current";

export const metadata: Metadata = { title: "Keys & accounts · Location platform" };

export default async function KeysPage() {
  const session = await requireSession("keys:manage");
  return (
    <div className="h-full overflow-y-auto">
      <KeysAdmin selfId={session.account.id} />
    </div>
  );
}
