import type { z } from "zod";
import { type AuthKey, authenticate } from "../auth/keys";
import type { RolePermission } from "../auth/roles";
import { sessionAuthKey, tokenFromCookieHeader } from "../auth/sessions";
import { setting } from "../settings";
import { authorizeSession } from "./session-auth";
import { ApiError, isRetryableConflict, retryLater } from "../errors";
import { parseBody, parseQuery, refuseNul } from "./request";
import { clientAddress } from "./client-address";
import { limitsFor, takeDevice } from "./limits";
import { log, noteCaller } from "../log/logger.mjs";

/**
 * Which keys may call a route: "secret" only, "publishable" (either kind), "search":
 * geocoding, search and routing, open to publishable keys when an admin has allowed it
 * (the publishableSearch setting, server/settings.ts), or "sync": the geofences around a device,
 * open to publishable keys unless an admin has turned it off (publishableGeofenceSync).
 */
export type Access = "secret" | "publishable" | "search" | "sync";
export type { RolePermission };

/**
 * Everything a route requires of a request, declared next to its handler; `params` names the
 * path's dynamic segments.
 */
export interface RouteContract<Q, B> {
  access: Access;
  permission: RolePermission;
  /**
   * A route devices call with their identities in the body (deviceId, installId, userId): each is
   * rate-limited on its own for a publishable key (./limits.ts).
   */
  perDevice?: true;
  query?: Q;
  body?: B;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The parsed query and body of a request, as its contract's schemas make them. */
export interface Input<Q, B> {
  query: Parsed<Q>;
  body: Parsed<B>;
}

export interface Context<P> {
  req: Request;
  key: AuthKey;
  params: P;
}

/** Parses the query and the body a contract declares (the body before the query). */
export async function parseInput<Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
  req: Request,
  contract: Pick<RouteContract<Q, B>, "query" | "body">,
): Promise<Input<Q, B>> {
  const { body: bodySchema, query: querySchema } = contract;
  const body = bodySchema ? await parseBody(req, bodySchema) : undefined;
  const query = querySchema ? parseQuery(req, querySchema) : undefined;
  return { query, body } as Input<Q, B>;
}

/**
 * A route's answer: the payload that sits beside `meta`, plus list paging; or the payload
 * already written as JSON (an object's text, made on another thread: tracking's answer).
 */
export type Reply =
  | { body: Record<string, unknown>; hasMore?: boolean; meta?: Record<string, unknown> }
  | { encoded: string; meta?: Record<string, unknown> };

export const reply = (body: Record<string, unknown>, hasMore?: boolean): Reply => ({ body, hasMore });
/** A payload with fields of its own in `meta` (GET /v1/config's sdkConfiguration). */
export const replyWithMeta = (body: Record<string, unknown>, meta: Record<string, unknown>): Reply => ({
  body,
  meta,
});
/** A value already written as JSON, for replyEncoded's `extra`. */
export class Encoded {
  constructor(readonly json: string) {}
}

/**
 * The payload already written as JSON, with `extra` fields added beside it (values as they are,
 * or already written: Encoded) and `meta` fields in the envelope when given.
 */
export const replyEncoded = (
  encoded: string,
  extra?: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Reply => {
  const more = extra
    ? Object.entries(extra)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${JSON.stringify(k)}:${v instanceof Encoded ? v.json : JSON.stringify(v)}`)
        .join(",")
    : "";
  return {
    encoded: more === "" ? encoded : `${encoded.slice(0, -1)},${more}}`,
    ...(meta && Object.keys(meta).length > 0 && { meta }),
  };
};

const ALLOWED_HEADERS = "Authorization, Content-Type, If-Match, X-Request-Id, X-Radar-*";
const ALLOWED_HEADER = /^(authorization|content-type|if-match|x-request-id|x-radar-[a-z0-9-]+)$/i;

/**
 * Every answer in the envelope may be read cross-origin (its request id too: scripts/serve.mjs
 * sets it) and is never cached.
 */
const ENVELOPE_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "X-Request-Id",
  "cache-control": "no-store",
};

export function json(
  status: number,
  payload: Record<string, unknown>,
  meta: Record<string, unknown> = {},
): Response {
  return Response.json(
    { meta: { code: status, ...meta }, ...payload },
    { status, headers: ENVELOPE_HEADERS },
  );
}

/** As json(), for a payload already written as JSON text (an object's, at least one member). */
function encodedJson(status: number, payload: string, meta?: Record<string, unknown>): Response {
  if (!payload.startsWith("{") || payload === "{}")
    throw new Error("an encoded reply must be a non-empty object");
  const envelope = JSON.stringify({ code: status, ...meta });
  return new Response(`{"meta":${envelope},${payload.slice(1)}`, {
    status,
    headers: { ...ENVELOPE_HEADERS, "content-type": "application/json" },
  });
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
  for (const [name, value] of Object.entries(err.headers ?? {})) res.headers.set(name, value);
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

/** Paths no route has (under /v1 and /api): a 404 in the API's envelope rather than an HTML page. */
export function unknownRoute(req: Request): Response {
  const path = new URL(req.url).pathname;
  return errorResponse(new ApiError("not_found", `no such endpoint: ${req.method} ${path}`));
}

function toApiError(e: unknown): ApiError {
  // The stores turn what a database refuses into answers of their own (null, false, a status):
  // anything else that reaches here is unexpected.
  if (e instanceof ApiError) return e;
  // A deadlock, a serialization failure, a busy SQLite: not done, worth trying again (503).
  if (isRetryableConflict(e)) {
    log.warn({ reason: (e as Error).message }, "a concurrent transaction was in the way, answered 503");
    return retryLater();
  }
  log.error({ err: e }, "unexpected error");
  return new ApiError("internal", "internal error; the details are in the server log");
}

/** Who may call a route, as it declares it: read by the test that holds routes to docs/security.md. */
export interface Declared {
  /** an API key's access level, "session" (the dashboard's routes) or "none" (no credential) */
  access: Access | "session" | "none";
  permission: RolePermission;
}

/** A route's function, carrying who may call it (`contract`). */
export function declared<F extends object>(fn: F, contract: Declared): F & { contract: Declared } {
  return Object.assign(fn, { contract: { access: contract.access, permission: contract.permission } });
}

/**
 * Wraps a /v1 route around its contract, declared in one place: which keys may call it, what a
 * dashboard session's role needs for it, and the schemas of its query and body. The wrapper
 * checks the key (or the session and its role), parses the input, runs the route, and shapes
 * its reply or error into the `meta` envelope. Domain rules stay in the route's domain function.
 */
export function handler<
  const K extends string = never,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(
  contract: RouteContract<Q, B> & { params?: readonly K[] },
  run: (ctx: Context<Record<K, string>> & Input<Q, B>) => Promise<Reply>,
) {
  const route = async (req: Request, route: { params: Promise<Record<K, string>> }): Promise<Response> => {
    try {
      const key = await authorize(req, contract);
      noteCaller(key.id);
      const input = await parseInput(req, contract);
      if (contract.perDevice) await takeDevice(key, input.body);
      const params = await route.params;
      refuseNul(params);
      const result = await run({ req, key, params, ...input });
      if ("encoded" in result) return encodedJson(200, result.encoded, result.meta);
      return json(200, result.body, {
        ...result.meta,
        ...(result.hasMore !== undefined && { hasMore: result.hasMore }),
      });
    } catch (e) {
      return errorResponse(e);
    }
  };
  return declared(route, contract);
}

/**
 * The key a request acts with: its API key, checked against the route's access level, or a
 * dashboard session (when there is no Authorization header), acting as a secret key of the world
 * it has chosen, limited by the route's permission for its role.
 */
async function authorize(req: Request, contract: RouteContract<unknown, unknown>): Promise<AuthKey> {
  const header = req.headers.get("authorization");
  const token = header ? null : tokenFromCookieHeader(req.headers.get("cookie"));
  if (token) return sessionAuthKey(await authorizeSession(req, token, contract.permission));
  // A request without a valid key is limited by its address (once), before a key it names is
  // looked up in the database.
  let taken = false;
  const byAddress = async () => {
    if (!taken) await limitsFor().address.take(clientAddress(req));
    taken = true;
  };
  const key = await authenticate(header, byAddress);
  if (!key) {
    await byAddress();
    throw new ApiError("unauthorized", "a valid API key is required in the Authorization header");
  }
  await limitsFor().key.take(key.id);
  if (key.kind !== "secret" && contract.access !== "publishable") {
    if (contract.access === "secret")
      throw new ApiError("forbidden", "this endpoint needs a secret key (prj_..._sk_...)");
    if (contract.access === "search" && !(await setting("publishableSearch"))) {
      throw new ApiError(
        "forbidden",
        "this endpoint needs a secret key (prj_..._sk_...); an admin can allow publishable keys in the dashboard",
      );
    }
    if (contract.access === "sync" && !(await setting("publishableGeofenceSync"))) {
      throw new ApiError(
        "forbidden",
        "an admin has turned off geofence sync for publishable keys: this endpoint needs a secret key (prj_..._sk_...)",
      );
    }
  }
  return key;
}
