import { z } from "zod";
import { syncRegion } from "@/server/context/sync-region";
import { handler, otherMethods, reply } from "@/server/http/handler";
import { numberIn, optionalString } from "@/server/http/fields";

export { OPTIONS } from "@/server/http/handler";
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

const schema = z.object({
  latitude: numberIn(-90, 90),
  longitude: numberIn(-180, 180),
  userId: optionalString(256),
});

/** The SDKs fetch what they need to make events offline around the device (publishable key). */
export const POST = handler({ access: "sync", permission: null, body: schema }, async ({ key, body }) =>
  reply(await syncRegion(key, body)),
);
