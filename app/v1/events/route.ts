import { listEvents } from "@/server/events/events";
import { listEventsSchema } from "@/server/events/schema";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { parseQuery } from "@/server/http/request";
import { serializeEvent } from "@/server/tracking/serialize";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

export const GET = handler("secret", async ({ req, key }) => {
  const { events, hasMore } = await listEvents(key, parseQuery(req, listEventsSchema));
  return reply({ events: events.map(serializeEvent) }, hasMore);
});
