import { handler, reply, otherMethods } from "@/server/http/handler";
import { trackSchema } from "@/server/tracking/schema";
import { serializeEvent, serializeUser } from "@/server/tracking/serialize";
import { readingUpdate, track } from "@/server/tracking/track";

export { OPTIONS } from "@/server/http/handler";
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

/** Devices report here with a publishable key; dashboard sessions may not (permission null). */
export const POST = handler(
  { access: "publishable", permission: null, body: trackSchema, whileReading: readingUpdate },
  async ({ key, body }) => {
    const { user, geofences, events } = await track(key, body);
    return reply({ user: serializeUser(user, geofences), events: events.map(serializeEvent) });
  },
);
