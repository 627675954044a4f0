import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { getSdkSettings, sdkSettingsSchema, setSdkSettings } from "@/server/sdk/config";

export const { POST, PATCH, DELETE } = otherMethods("GET", "PUT");

/**
 * The SDK settings of the session's environment (test or live): what GET /v1/config answers
 * Radar's SDKs. Admins only; PUT replaces them whole, checked as the SDKs parse them.
 */
export const GET = dashboardHandler({ permission: "keys:manage" }, async ({ session }) =>
  ok({ live: session.live, settings: await getSdkSettings(session.live) }),
);

export const PUT = dashboardHandler(
  { permission: "keys:manage", body: sdkSettingsSchema },
  async ({ session, body }) => ok({ live: session.live, settings: await setSdkSettings(session.live, body) }),
);
