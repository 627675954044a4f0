import { deleteEvent, getEvent } from "@/server/events/events";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { serializeEvent } from "@/server/tracking/serialize";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH } = otherMethods("GET", "DELETE");

type Params = { id: string };

export const GET = handler<Params>("secret", async ({ key, params }) => {
  return reply({ event: serializeEvent(await getEvent(key, params.id)) });
});

export const DELETE = handler<Params>("secret", async ({ key, params }) => {
  await deleteEvent(key, params.id);
  return reply({});
});
