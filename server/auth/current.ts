import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { type Permission, can } from "./roles";
import { SESSION_COOKIE, type SessionView, sessionFromToken } from "./sessions";

/** The request's session, looked up once per render however many components ask (layout, page). */
export const currentSession = cache(async () =>
  sessionFromToken((await cookies()).get(SESSION_COOKIE)?.value),
);

/**
 * For dashboard pages (server components): the signed-in session, or a redirect to sign-in.
 * With a permission, a role without it sees the "not for your role" page instead.
 */
export async function requireSession(permission?: Permission): Promise<SessionView> {
  const session = await currentSession();
  if (!session) redirect("/login");
  if (permission && !can(session.account.role, permission)) redirect("/forbidden");
  return session;
}
