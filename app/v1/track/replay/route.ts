import { handler, otherMethods, replyEncoded } from "@/server/http/handler";
import { replay, replaySchema } from "@/server/tracking/replay";
import { trackOnThread } from "@/server/tracking/thread";

export { OPTIONS } from "@/server/http/handler";
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

/** The mobile SDKs flush the updates they buffered offline here (server/tracking/replay.ts). */
export const POST = handler(
  { access: "publishable", perDevice: true, permission: null, body: replaySchema },
  async ({ key, body }) =>
    replyEncoded(await replay(key, body.replays, async (k, input) => (await trackOnThread(k, input)).answer)),
);
