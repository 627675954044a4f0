import type { z } from "zod";
import { env } from "../config/env";
import { SESSION_COOKIE, type SessionView, tokenFromCookieHeader } from "../auth/sessions";
import { type Input, type RolePermission, declared, errorResponse, json, parseInput } from "./handler";
import { checkOrigin } from "./origin";
import { authorizeSession } from "./session-auth";
import { refuseNul } from "./request";
import { noteCaller } from "../log/logger.mjs";

export { checkOrigin };

/** The contract of a dashboard route: sessions only, so no key access level. */
export interface DashboardContract<Q, B> {
  permission: Exclude<RolePermission, null>;
  query?: Q;
  body?: B;
}

/**
 * The dashboard's own routes (/api/...): session only, never API keys, with the role's
 * permission checked here; mutating calls must come from the dashboard's origin.
 */
export function dashboardHandler<
  const K extends string = never,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(
  contract: DashboardContract<Q, B> & { params?: readonly K[] },
  run: (
    ctx: { req: Request; session: SessionView; token: string; params: Record<K, string> } & Input<Q, B>,
  ) => Promise<Response>,
) {
  const route = async (req: Request, route: { params: Promise<Record<K, string>> }): Promise<Response> => {
    try {
      const token = tokenFromCookieHeader(req.headers.get("cookie"));
      const session = await authorizeSession(req, token, contract.permission);
      noteCaller(`account:${session.account.id}`);
      const input = await parseInput(req, contract);
      const params = await route.params;
      refuseNul(params);
      return await run({ req, session, token: token!, params, ...input });
    } catch (e) {
      return errorResponse(e);
    }
  };
  return declared(route, { access: "session", permission: contract.permission });
}

/** HTTP-only, SameSite=Strict; Secure when served over HTTPS (or COOKIE_SECURE=true). */
export function sessionCookie(req: Request, token: string, maxAgeSeconds: number): string {
  const https =
    new URL(req.url).protocol === "https:" ||
    req.headers.get("x-forwarded-proto") === "https" ||
    env().COOKIE_SECURE;
  return [
    `${SESSION_COOKIE}=${token}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    `Max-Age=${maxAgeSeconds}`,
    ...(https ? ["Secure"] : []),
  ].join("; ");
}

export const ok = (payload: Record<string, unknown>, status = 200) => json(status, payload);
