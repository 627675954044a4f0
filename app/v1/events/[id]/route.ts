import { deleteEvent, getEvent } from "@/server/events/events";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { serializeEvent } from "@/server/tracking/serialize";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH } = otherMethods("GET", "DELETE");

export const GET = handler(
  { params: ["id"], access: "secret", permission: "events:read" },
  async ({ key, params }) => reply({ event: serializeEvent(await getEvent(key, params.id)) }),
);

export const DELETE = handler(
  { params: ["id"], access: "secret", permission: "events:delete" },
  async ({ key, params }) => {
    await deleteEvent(key, params.id);
    return reply({});
  },
);
