import type { SettingStore } from "../../storage/settings";
import { prepared } from "./connection";
import { shared } from "./shared-stores";

export const sqliteSettings: SettingStore = {
  async get(key) {
    const row = prepared(`SELECT "value" FROM "Setting" WHERE "key" = ?`).get(key) as
      { value: string } | undefined;
    return row?.value ?? null;
  },
  set: shared.settings.set,
};
