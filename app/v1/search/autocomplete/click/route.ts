import { z } from "zod";
import { handler, otherMethods, reply } from "@/server/http/handler";
import { optionalInt, optionalString } from "@/server/http/fields";

export { OPTIONS } from "@/server/http/handler";
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

const schema = z.object({
  sessionToken: optionalString(256),
  requestId: optionalString(256),
  idx: optionalInt(0, 99),
});

/**
 * POST /v1/search/autocomplete/click: radar-sdk-js reports which autocomplete result a person
 * picked ({sessionToken, requestId, idx}), fire and forget. Radar learns from these; this service
 * does not rank by them, so the report is checked and acknowledged and nothing is kept
 * (docs/api.md).
 */
export const POST = handler({ access: "search", permission: "context:read", body: schema }, async () =>
  reply({}),
);
