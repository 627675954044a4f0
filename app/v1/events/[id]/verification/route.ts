import { verifyEvent } from "@/server/events/events";
import { verifySchema } from "@/server/events/schema";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { serializeEvent } from "@/server/tracking/serialize";

export { OPTIONS } from "@/server/http/handler";
export const { GET, POST, PATCH, DELETE } = otherMethods("PUT");

export const PUT = handler(
  { params: ["id"], access: "secret", permission: "events:verify", body: verifySchema },
  async ({ key, params, body }) => reply({ event: serializeEvent(await verifyEvent(key, params.id, body)) }),
);
