import { listEvents } from "@/server/events/events";
import { listEventsSchema } from "@/server/events/schema";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { conversionSchema, logConversion } from "@/server/tracking/conversion";
import { serializeEvent } from "@/server/tracking/serialize";
import { mayRead, sentEvent } from "@/server/tracking/visible";

export { OPTIONS } from "@/server/http/handler";
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

export const GET = handler(
  { access: "secret", permission: "events:read", query: listEventsSchema },
  async ({ key, query }) => {
    const { events, hasMore } = await listEvents(key, query);
    return reply({ events: events.map(serializeEvent) }, hasMore);
  },
);

/**
 * Conversions (the SDKs' logConversion): devices log them with a publishable key, servers with a
 * secret one; dashboard sessions may not (permission null).
 */
export const POST = handler(
  { access: "publishable", perDevice: true, permission: null, body: conversionSchema },
  async ({ key, body }) => {
    const { event, owned } = await logConversion(key, body);
    return reply({ event: mayRead(key, owned) ? serializeEvent(event) : sentEvent(event, body) });
  },
);
