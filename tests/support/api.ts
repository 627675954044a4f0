import { randomBytes } from "node:crypto";
import { expect, inject } from "vitest";

/** HTTP helpers for API tests: real requests against the server started by server.ts. */

export const keys = inject("keys");
const baseUrl = inject("baseUrl");

export interface ApiResponse {
  status: number;
  body: Record<string, unknown> & {
    meta: { code: number; message?: string; param?: string; hasMore?: boolean };
  };
  headers: Headers;
}

export async function api(
  method: string,
  path: string,
  opts: {
    key?: string | null;
    json?: unknown;
    form?: Record<string, string>;
    body?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse> {
  // A browser says where a dashboard change comes from (server/http/origin.ts).
  const dashboard = !!opts.headers?.cookie || path.startsWith("/api/");
  const headers: Record<string, string> = {
    ...(dashboard && { origin: baseUrl }),
    ...opts.headers,
  };
  const key = opts.key === undefined ? keys.secret : opts.key;
  if (key) headers.authorization = key;
  let body: string | undefined = opts.body;
  if (opts.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(opts.form).toString();
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: ApiResponse["body"];
  try {
    parsed = JSON.parse(text) as ApiResponse["body"];
  } catch {
    throw new Error(`${method} ${path}: answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  expect(parsed.meta?.code, `${method} ${path}: meta.code matches the status`).toBe(res.status);
  return { status: res.status, body: parsed, headers: res.headers };
}

/** A name no other test uses, so tests share one database and run in parallel. */
export const unique = (prefix: string) => `${prefix}-${randomBytes(5).toString("hex")}`;

/** Asserts an error answer: status, meta.param and words in meta.message. */
export function expectError(res: ApiResponse, status: number, param?: string, message?: RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (param !== undefined) expect(res.body.meta.param).toBe(param);
  expect(typeof res.body.meta.message).toBe("string");
  if (message) expect(res.body.meta.message).toMatch(message);
}

/**
 * Signs in through the dashboard's route and returns the session cookie ("session=..."): on the
 * shared server, or on the server at `base`.
 */
export async function signIn(email: string, password: string, base = baseUrl): Promise<string> {
  const res = await fetch(`${base}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}
