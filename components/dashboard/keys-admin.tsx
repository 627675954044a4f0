import { AccountsAdmin } from "./accounts-admin";
import { ApiKeys } from "./api-keys";
import { PublishableSetting } from "./publishable-setting";

/** The admin page: API keys, what publishable keys may call, and dashboard accounts. */
export function KeysAdmin({ selfId }: { selfId: string }) {
  return (
    <div className="mx-auto max-w-5xl space-y-10 p-6">
      <ApiKeys />
      <PublishableSetting />
      <AccountsAdmin selfId={selfId} />
    </div>
  );
}
