import { z } from "zod";
import { changeAccount } from "@/server/auth/accounts";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";

export const { GET, POST, PUT } = otherMethods("PATCH", "DELETE");

const changeSchema = z
  .object({
    role: z.string().optional(),
    disabled: z.boolean({ error: "must be true or false" }).optional(),
  })
  .refine((c) => c.role !== undefined || c.disabled !== undefined, {
    message: "send role, disabled or both",
    path: ["body"],
  });

/** Changes an account's role, or disables or enables it. */
export const PATCH = dashboardHandler(
  { params: ["id"], permission: "accounts:manage", body: changeSchema },
  async ({ params, session, body }) =>
    ok({ account: await changeAccount(params.id, session.account.id, body) }),
);

/** Disables an account and signs it out everywhere (as PATCH {disabled: true}). */
export const DELETE = dashboardHandler(
  { params: ["id"], permission: "accounts:manage" },
  async ({ params, session }) =>
    ok({ account: await changeAccount(params.id, session.account.id, { disabled: true }) }),
);
