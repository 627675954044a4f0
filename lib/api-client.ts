/**
 * The dashboard's calls: the same /v1 routes API clients use (and its own /api routes),
 * authenticated by the session cookie. Errors carry the API's message and parameter.
 */

export class ApiCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly param?: string,
  ) {
    super(message);
  }
}

export async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiCallError("the server cannot be reached; check your connection", 0);
  }
  const payload = (await res.json().catch(() => ({}))) as { meta?: { message?: string; param?: string } };
  if (res.status === 401 && typeof window !== "undefined" && !path.startsWith("/api/session")) {
    // A full load of the sign-in page: the session has ended, so nothing here is current.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.href = `/login?next=${encodeURIComponent(window.location.pathname)}`;
  }
  if (!res.ok) {
    throw new ApiCallError(
      payload.meta?.message ?? `the server answered ${res.status}`,
      res.status,
      payload.meta?.param,
    );
  }
  return payload as T;
}

/** The server answered that what was asked is not there. */
export const isNotFound = (e: unknown) => e instanceof ApiCallError && e.status === 404;

export const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));
