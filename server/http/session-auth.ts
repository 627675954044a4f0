import { type RolePermission, can } from "../auth/roles";
import { type SessionView, sessionFromToken } from "../auth/sessions";
import { ApiError } from "../errors";
import { checkOrigin } from "./origin";

/**
 * The session a cookie token names, for a request from the dashboard's own origin whose role
 * has what the route requires (RolePermission). Used by the /v1 handler and by the dashboard's
 * routes alike.
 */
export async function authorizeSession(
  req: Request,
  token: string | null,
  required: RolePermission,
): Promise<SessionView> {
  if (!token) throw new ApiError("unauthorized", "sign in first");
  const session = await sessionFromToken(token);
  if (!session) throw new ApiError("unauthorized", "your session has ended; sign in again");
  checkOrigin(req);
  if (!allows(session, required)) {
    throw new ApiError("forbidden", `the ${session.account.role} role cannot do this`);
  }
  return session;
}

function allows(session: SessionView, required: RolePermission): boolean {
  if (required === "signed-in") return true;
  if (required === null) return false;
  const needed = typeof required === "string" ? [required] : required;
  return needed.every((p) => can(session.account.role, p));
}
