import { z } from "zod";
import {
  SESSION_TTL_MS,
  signIn,
  signOut,
  setSessionWorld,
  tokenFromCookieHeader,
} from "@/server/auth/sessions";
import { can } from "@/server/auth/roles";
import { checkOrigin, dashboardHandler, ok, sessionCookie } from "@/server/http/dashboard";
import { clientAddress } from "@/server/http/client-address";
import { limitsFor } from "@/server/http/limits";
import { declared, errorResponse, otherMethods } from "@/server/http/handler";
import { parseBody } from "@/server/http/request";

export const { PUT } = otherMethods("GET", "POST", "PATCH", "DELETE");

const signInSchema = z.object({
  email: z.string().min(1, "is required").max(320),
  password: z.string().min(1, "is required").max(1000),
});

/** Who is signed in, what they may do, and which data they see. */
export const GET = dashboardHandler({ permission: "signed-in" }, async ({ session }) =>
  ok({
    account: session.account,
    live: session.live,
    permissions: {
      geofences: can(session.account.role, "geofences:write"),
      users: can(session.account.role, "users:list"),
      events: can(session.account.role, "events:verify"),
      keys: can(session.account.role, "keys:manage"),
    },
  }),
);

/** Sign in (no credential: an email and password): sets the session cookie. */
export const POST = declared(signInRoute, { access: "none", permission: null });

async function signInRoute(req: Request): Promise<Response> {
  try {
    checkOrigin(req);
    const { email, password } = await parseBody(req, signInSchema);
    const client = clientAddress(req);
    await limitsFor().signIn.take(client);
    const { token, account } = await signIn(email, password, client);
    const res = ok({ account });
    res.headers.set("set-cookie", sessionCookie(req, token, SESSION_TTL_MS / 1000));
    return res;
  } catch (e) {
    return errorResponse(e);
  }
}

/** Switch between test and live data. */
export const PATCH = dashboardHandler(
  { permission: "signed-in", body: z.object({ live: z.boolean() }) },
  async ({ token, body: { live } }) => {
    await setSessionWorld(token, live);
    return ok({ live });
  },
);

/** Sign out (whatever the session, or none): ends the session and clears the cookie. */
export const DELETE = declared(signOutRoute, { access: "none", permission: null });

async function signOutRoute(req: Request): Promise<Response> {
  try {
    checkOrigin(req);
    const token = tokenFromCookieHeader(req.headers.get("cookie"));
    if (token) await signOut(token);
    const res = ok({});
    res.headers.set("set-cookie", sessionCookie(req, "", 0));
    return res;
  } catch (e) {
    return errorResponse(e);
  }
}
