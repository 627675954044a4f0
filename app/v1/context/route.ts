import { getContext } from "@/server/context/get-context";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { coordinatePair } from "@/server/http/fields";
import { parseQuery } from "@/server/http/request";
import { z } from "zod";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

const contextSchema = z.object({ coordinates: coordinatePair });

export const GET = handler("publishable", async ({ req, key }) => {
  const context = getContext(key, parseQuery(req, contextSchema).coordinates);
  // One Radar SDK reads the fields at the top level, the others under `context`.
  return reply({ context, ...context });
});
