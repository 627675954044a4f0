import { handler, otherMethods, replyWithMeta } from "@/server/http/handler";
import { configMeta } from "@/server/sdk/config";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/**
 * Radar's SDKs ask for their configuration at start-up (with installId, sessionId,
 * locationAuthorization… in the query, which change nothing here): `meta.sdkConfiguration` and
 * `meta.trackingOptions` as an admin set them for the key's environment, only what was set
 * (server/sdk/config.ts).
 */
export const GET = handler({ access: "publishable", permission: "signed-in" }, async ({ key }) =>
  replyWithMeta({}, await configMeta(key.live)),
);
