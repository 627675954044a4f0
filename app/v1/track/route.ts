import { handler, reply, otherMethods } from "@/server/http/handler";
import { parseBody } from "@/server/http/request";
import { trackSchema } from "@/server/tracking/schema";
import { serializeEvent, serializeUser } from "@/server/tracking/serialize";
import { readingUpdate, track } from "@/server/tracking/track";

export { OPTIONS } from "@/server/http/handler";
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

export const POST = handler("publishable", async ({ req, key }) => {
  const { user, geofences, events } = await track(
    key,
    await readingUpdate(() => parseBody(req, trackSchema)),
  );
  return reply({ user: serializeUser(user, geofences), events: events.map(serializeEvent) });
});
