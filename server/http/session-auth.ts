import { type Permission, can } from "../auth/roles";
import { type SessionView, sessionFromToken } from "../auth/sessions";
import { ApiError } from "./errors";
import { checkOrigin } from "./origin";

/**
 * The session a cookie token names, for a request from the dashboard's own origin whose role
 * has `permission` ("signed-in": any role; null: no role may). Used by the /v1 handler and by
 * the dashboard's routes alike.
 */
export async function authorizeSession(
  req: Request,
  token: string | null,
  permission: Permission | "signed-in" | null,
): Promise<SessionView> {
  if (!token) throw new ApiError("unauthorized", "sign in first");
  const session = await sessionFromToken(token);
  if (!session) throw new ApiError("unauthorized", "your session has ended; sign in again");
  checkOrigin(req);
  if (permission !== "signed-in" && !(permission && can(session.account.role, permission))) {
    throw new ApiError("forbidden", `the ${session.account.role} role cannot do this`);
  }
  return session;
}
