import { handler, otherMethods, reply } from "@/server/http/handler";
import { appendLogs, logsSchema } from "@/server/sdk/logs";

export { OPTIONS } from "@/server/http/handler";
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

/** Radar's SDKs send their log lines here (publishable key); dashboard sessions may not. */
export const POST = handler(
  { access: "publishable", permission: null, body: logsSchema },
  async ({ key, body }) => {
    await appendLogs(key.live, body);
    return reply({});
  },
);
