import { type AuthKey, authenticate } from "../auth/keys";
import { permissionFor } from "../auth/roles";
import { sessionAuthKey, tokenFromCookieHeader } from "../auth/sessions";
import { getSettings } from "../settings";
import { authorizeSession } from "./session-auth";
import { isRecordNotFound, isUniqueViolation } from "../db/errors";
import { ApiError } from "./errors";

/**
 * Which keys may call a route: "secret" only, "publishable" (either kind), or "search":
 * geocoding, search and routing, open to publishable keys when an admin has allowed it
 * (the publishableSearch setting, server/settings.ts).
 */
export type Access = "secret" | "publishable" | "search";

export interface Context<P> {
  req: Request;
  key: AuthKey;
  params: P;
}

/** A route's answer: the payload that sits beside `meta`, plus list paging. */
export interface Reply {
  body: Record<string, unknown>;
  hasMore?: boolean;
}

export const reply = (body: Record<string, unknown>, hasMore?: boolean): Reply => ({ body, hasMore });

const ALLOWED_HEADERS = "Authorization, Content-Type, X-Radar-*";
const ALLOWED_HEADER = /^(authorization|content-type|x-radar-[a-z0-9-]+)$/i;

export function json(
  status: number,
  payload: Record<string, unknown>,
  meta: Record<string, unknown> = {},
): Response {
  return Response.json(
    { meta: { code: status, ...meta }, ...payload },
    { status, headers: { "access-control-allow-origin": "*", "cache-control": "no-store" } },
  );
}

/**
 * CORS preflight for every /v1 route. Browsers do not expand wildcards in the allowed headers
 * when a request names them, so the X-Radar-* headers actually asked for are echoed back.
 */
export function OPTIONS(req: Request): Response {
  const requested = (req.headers.get("access-control-request-headers") ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter((h) => ALLOWED_HEADER.test(h));
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
      "access-control-allow-headers": requested.length ? requested.join(", ") : ALLOWED_HEADERS,
      "access-control-max-age": "86400",
    },
  });
}

export function errorResponse(e: unknown): Response {
  const err = toApiError(e);
  const meta: Record<string, unknown> = { message: err.message };
  if (err.param) meta.param = err.param;
  const res = json(err.status, {}, meta);
  if (err.retryAfter) res.headers.set("retry-after", String(err.retryAfter));
  return res;
}

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * Handlers for the methods a route does not have: a 405 in the API's envelope, with an Allow
 * header (Next.js alone answers those with an empty 405). A route exports the ones it lacks:
 * `export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");`
 */
export function otherMethods(...allowed: Method[]): Record<Method, (req: Request) => Response> {
  const answer = (req: Request) => {
    const path = new URL(req.url).pathname;
    const res = errorResponse(
      new ApiError(
        "method_not_allowed",
        `${req.method} ${path} is not supported; use ${allowed.join(" or ")}`,
      ),
    );
    res.headers.set("allow", [...allowed, "OPTIONS"].join(", "));
    return res;
  };
  return Object.fromEntries(METHODS.map((m) => [m, answer])) as Record<Method, (req: Request) => Response>;
}

function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (isUniqueViolation(e)) return new ApiError("conflict", "a record with the same identity already exists");
  if (isRecordNotFound(e)) return new ApiError("not_found", "not found");
  console.error("unexpected error", e);
  return new ApiError("internal", "internal error; the details are in the server log");
}

/**
 * Wraps a /v1 route: checks the key, runs the route, and shapes its reply or error into the
 * `meta` envelope. Everything else (parsing, validation, domain rules) happens in the route.
 */
export function handler<P = Record<string, never>>(access: Access, run: (ctx: Context<P>) => Promise<Reply>) {
  return async (req: Request, route: { params: Promise<P> }): Promise<Response> => {
    try {
      const header = req.headers.get("authorization");
      const token = header ? null : tokenFromCookieHeader(req.headers.get("cookie"));
      const key = token ? await sessionKey(req, token) : await authenticate(header);
      if (!key) throw new ApiError("unauthorized", "a valid API key is required in the Authorization header");
      if (key.kind !== "secret" && access !== "publishable") {
        if (access === "secret" || !getSettings().publishableSearch) {
          throw new ApiError(
            "forbidden",
            access === "search"
              ? "this endpoint needs a secret key (prj_..._sk_...); an admin can allow publishable keys in the dashboard"
              : "this endpoint needs a secret key (prj_..._sk_...)",
          );
        }
      }
      const result = await run({ req, key, params: await route.params });
      return json(200, result.body, result.hasMore === undefined ? {} : { hasMore: result.hasMore });
    } catch (e) {
      return errorResponse(e);
    }
  };
}

/**
 * A dashboard session acting as a secret key of the world it has chosen, limited by its role.
 * Changes must come from the dashboard's own origin (the cookie is SameSite=Strict as well).
 */
async function sessionKey(req: Request, token: string): Promise<AuthKey> {
  const permission = permissionFor(req.method, new URL(req.url).pathname);
  return sessionAuthKey(await authorizeSession(req, token, permission));
}
