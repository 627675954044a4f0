import type { Permission } from "../auth/roles";
import { SESSION_COOKIE, type SessionView, tokenFromCookieHeader } from "../auth/sessions";
import { errorResponse, json } from "./handler";
import { checkOrigin } from "./origin";
import { authorizeSession } from "./session-auth";

export { checkOrigin };

/**
 * The dashboard's own routes (/api/...): session only, never API keys, with the role's
 * permission checked here; mutating calls must come from the dashboard's origin.
 */
export function dashboardHandler<P = Record<string, never>>(
  permission: Permission | null,
  run: (ctx: { req: Request; session: SessionView; token: string; params: P }) => Promise<Response>,
) {
  return async (req: Request, route: { params: Promise<P> }): Promise<Response> => {
    try {
      const token = tokenFromCookieHeader(req.headers.get("cookie"));
      const session = await authorizeSession(req, token, permission ?? "signed-in");
      return await run({ req, session, token: token!, params: await route.params });
    } catch (e) {
      return errorResponse(e);
    }
  };
}

/** HTTP-only, SameSite=Strict; Secure when served over HTTPS (or COOKIE_SECURE=true). */
export function sessionCookie(req: Request, token: string, maxAgeSeconds: number): string {
  const https =
    new URL(req.url).protocol === "https:" ||
    req.headers.get("x-forwarded-proto") === "https" ||
    process.env.COOKIE_SECURE === "true";
  return [
    `${SESSION_COOKIE}=${encodeURIComponent(token)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    `Max-Age=${maxAgeSeconds}`,
    ...(https ? ["Secure"] : []),
  ].join("; ");
}

export const ok = (payload: Record<string, unknown>, status = 200) => json(status, payload);
