import { handler, reply, otherMethods } from "@/server/http/handler";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** SDKs ask for their configuration at start-up; an empty answer lets them start cleanly. */
export const GET = handler({ access: "publishable", permission: "signed-in" }, async () => reply({}));
