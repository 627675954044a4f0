import { z } from "zod";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { getSettings, updateSettings } from "@/server/settings";
import { otherMethods } from "@/server/http/handler";

export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");

export const GET = dashboardHandler({ permission: "keys:manage" }, async () =>
  ok({ settings: await getSettings() }),
);

export const PATCH = dashboardHandler(
  {
    permission: "keys:manage",
    body: z.object({
      publishableSearch: z.boolean().optional(),
      publishableGeofenceSync: z.boolean().optional(),
    }),
  },
  async ({ body }) => ok({ settings: await updateSettings(body) }),
);
