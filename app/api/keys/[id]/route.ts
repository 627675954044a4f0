import { revokeKey } from "@/server/auth/keys";
import { keyView } from "@/server/auth/key-view";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { notFound } from "@/server/errors";
import { otherMethods } from "@/server/http/handler";

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");

/** Revokes a key: calls made with it are refused from now on. */
export const DELETE = dashboardHandler({ params: ["id"], permission: "keys:manage" }, async ({ params }) => {
  const record = await revokeKey(params.id);
  if (!record) throw notFound("key");
  return ok({ record: keyView(record) });
});
