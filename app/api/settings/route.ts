import { z } from "zod";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { parseBody } from "@/server/http/request";
import { getSettings, updateSettings } from "@/server/settings";
import { otherMethods } from "@/server/http/handler";

export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");

export const GET = dashboardHandler("keys:manage", async () => ok({ settings: getSettings() }));

export const PATCH = dashboardHandler("keys:manage", async ({ req }) =>
  ok({
    settings: await updateSettings(
      await parseBody(req, z.object({ publishableSearch: z.boolean().optional() })),
    ),
  }),
);
