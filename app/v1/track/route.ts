import { handler, otherMethods, replyEncoded } from "@/server/http/handler";
import { trackSchema } from "@/server/tracking/schema";
import { trackOnThread } from "@/server/tracking/thread";

export { OPTIONS } from "@/server/http/handler";
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

/** Devices report here with a publishable key; dashboard sessions may not (permission null). */
export const POST = handler(
  { access: "publishable", permission: null, body: trackSchema },
  async ({ key, body }) => replyEncoded(await trackOnThread(key, body)),
);
