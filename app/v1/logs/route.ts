import { limitsFor } from "@/server/http/limits";
import { handler, otherMethods, reply } from "@/server/http/handler";
import { appendLogs, logsSchema } from "@/server/sdk/logs";

export { OPTIONS } from "@/server/http/handler";
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

/** Radar's SDKs send their log lines here (publishable key); dashboard sessions may not. */
export const POST = handler(
  { access: "publishable", perDevice: true, permission: null, body: logsSchema },
  async ({ key, body }) => {
    // Lines count against the key's daily quota (LOG_LINES_PER_KEY_PER_DAY).
    await limitsFor().logLines.take(key.id, body.logs.length);
    await appendLogs(key.live, body);
    return reply({});
  },
);
