import type { SettingStore } from "../../storage/settings";
import { shared } from "./shared-stores";
import { row } from "./sql";

export const postgresSettings: SettingStore = {
  async get(key) {
    return (
      (await row<{ value: string }>(`SELECT "value" FROM "Setting" WHERE "key" = $1`, [key]))?.value ?? null
    );
  },
  set: shared.settings.set,
};
