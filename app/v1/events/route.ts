import { listEvents } from "@/server/events/events";
import { listEventsSchema } from "@/server/events/schema";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { serializeEvent } from "@/server/tracking/serialize";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

export const GET = handler(
  { access: "secret", permission: "events:read", query: listEventsSchema },
  async ({ key, query }) => {
    const { events, hasMore } = await listEvents(key, query);
    return reply({ events: events.map(serializeEvent) }, hasMore);
  },
);
