import { ApiError } from "../errors";

/** The host of an Origin header, or null when it names no origin ("null", or malformed). */
function originHost(origin: string): string | null {
  try {
    return new URL(origin).host || null;
  } catch {
    return null;
  }
}

/**
 * Session-authenticated changes must come from the dashboard's own origin, as the browser says:
 * its Origin header, or (a browser that sends none) Sec-Fetch-Site "same-origin". A change that
 * says neither is refused (a form or script of another site in an old browser, or a client that
 * is not a browser: those use API keys). An Origin that names no origin (`null` from sandboxed
 * frames and some redirects, or garbage) is not the dashboard's.
 */
export function checkOrigin(req: Request): void {
  if (req.method === "GET" || req.method === "HEAD") return;
  const origin = req.headers.get("origin");
  if (origin === null) {
    if (req.headers.get("sec-fetch-site") === "same-origin") return;
    throw new ApiError(
      "forbidden",
      "a change with a session must say it comes from the dashboard (an Origin or Sec-Fetch-Site header)",
    );
  }
  const host = req.headers.get("host") ?? new URL(req.url).host;
  if (originHost(origin) !== host) {
    throw new ApiError("forbidden", "cross-site requests with a session are refused");
  }
}
