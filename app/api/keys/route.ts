import { z } from "zod";
import { createKey, listKeys } from "@/server/auth/keys";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { keyView } from "@/server/auth/key-view";
import { otherMethods } from "@/server/http/handler";

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

export const GET = dashboardHandler({ permission: "keys:manage" }, async () =>
  ok({ keys: (await listKeys()).map(keyView) }),
);

const createSchema = z.object({
  kind: z.enum(["secret", "publishable"], { message: "must be secret or publishable" }),
  live: z.boolean().default(false),
  name: z.string().trim().max(200).optional(),
});

/** Creates a key; the response is the only time the full key is shown. */
export const POST = dashboardHandler({ permission: "keys:manage", body: createSchema }, async ({ body }) => {
  const { key, record } = await createKey(body);
  return ok({ key, record: keyView(record) }, 201);
});
