import { disableAccount } from "@/server/auth/accounts";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");

/** Disables an account and signs it out everywhere. */
export const DELETE = dashboardHandler(
  { params: ["id"], permission: "accounts:manage" },
  async ({ params, session }) => ok({ account: await disableAccount(params.id, session.account.id) }),
);
