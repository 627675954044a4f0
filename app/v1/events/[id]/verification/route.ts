import { verifyEvent } from "@/server/events/events";
import { verifySchema } from "@/server/events/schema";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { parseBody } from "@/server/http/request";
import { serializeEvent } from "@/server/tracking/serialize";

export { OPTIONS } from "@/server/http/handler";
export const { GET, POST, PATCH, DELETE } = otherMethods("PUT");

type Params = { id: string };

export const PUT = handler<Params>("secret", async ({ req, key, params }) => {
  const event = await verifyEvent(key, params.id, await parseBody(req, verifySchema));
  return reply({ event: serializeEvent(event) });
});
