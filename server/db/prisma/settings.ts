import type { SettingStore } from "../../storage/settings";
import { prisma } from "../client";
import type { WriteLock } from "./common";

export function settingStore(lock: WriteLock): Pick<SettingStore, "set"> {
  return {
    async set(values, at) {
      await lock(() =>
        prisma.$transaction(
          Object.entries(values).map(([key, value]) =>
            prisma.setting.upsert({
              where: { key },
              create: { key, value, updatedAt: at },
              update: { value, updatedAt: at },
            }),
          ),
        ),
      );
    },
  };
}
