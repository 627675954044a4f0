import { z } from "zod";
import { createAccount, listAccounts } from "@/server/auth/accounts";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { parseBody } from "@/server/http/request";
import { otherMethods } from "@/server/http/handler";

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

export const GET = dashboardHandler("accounts:manage", async () => ok({ accounts: await listAccounts() }));

const createSchema = z.object({
  email: z.string().min(1, "is required"),
  role: z.string().min(1, "is required"),
  password: z.string().optional(),
});

/** Creates an account; a generated password is returned once. */
export const POST = dashboardHandler("accounts:manage", async ({ req }) => {
  const { account, password } = await createAccount(await parseBody(req, createSchema));
  return ok({ account, password }, 201);
});
