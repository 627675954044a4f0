import { handler, otherMethods, reply } from "@/server/http/handler";
import { reorderLegs } from "@/server/tracking/trips/api";
import { reorderLegsSchema } from "@/server/tracking/trips/schema";

export { OPTIONS } from "@/server/http/handler";
export const { GET, POST, PATCH, DELETE } = otherMethods("PUT");

/** Puts a trip's legs in a new order: every leg's _id, once. */
export const PUT = handler(
  { params: ["ref"], access: "publishable", permission: "trips:write", body: reorderLegsSchema },
  async ({ key, params, body }) => reply(await reorderLegs(key, params.ref, body.legs)),
);
