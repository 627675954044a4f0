import { z } from "zod";
import { getContext } from "@/server/context/get-context";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { coordinatePair } from "@/server/http/fields";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

export const GET = handler(
  { access: "publishable", permission: "context:read", query: z.object({ coordinates: coordinatePair }) },
  async ({ key, query }) => {
    const context = await getContext(key, query.coordinates);
    // One Radar SDK reads the fields at the top level, the others under `context`.
    return reply({ context, ...context });
  },
);
