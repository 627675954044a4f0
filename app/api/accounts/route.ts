import { z } from "zod";
import { createAccount, listAccounts } from "@/server/auth/accounts";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

export const GET = dashboardHandler({ permission: "accounts:manage" }, async () =>
  ok({ accounts: await listAccounts() }),
);

const createSchema = z.object({
  email: z.string().min(1, "is required"),
  role: z.string().min(1, "is required"),
  password: z.string().optional(),
});

/** Creates an account; a generated password is returned once. */
export const POST = dashboardHandler(
  { permission: "accounts:manage", body: createSchema },
  async ({ body }) => {
    const { account, password } = await createAccount(body);
    return ok({ account, password }, 201);
  },
);
