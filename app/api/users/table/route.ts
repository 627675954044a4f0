import { sessionAuthKey } from "@/server/auth/sessions";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { tableQuery } from "@/server/http/table";
import { USER_SORTS, userTable } from "@/server/users/read";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /api/users/table?page&size&sort&dir&search : the dashboard's users table. */
export const GET = dashboardHandler(
  { permission: "users:list", query: tableQuery(USER_SORTS, "updatedAt", "desc") },
  async ({ session, query }) => {
    const { rows, total } = await userTable(sessionAuthKey(session), query);
    return ok({ users: rows, total });
  },
);
