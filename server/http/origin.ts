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
 * Session-authenticated changes must come from the dashboard's own origin. An Origin that names
 * no origin (`null` from sandboxed frames and some redirects, or garbage) is not the dashboard's.
 */
export function checkOrigin(req: Request): void {
  if (req.method === "GET" || req.method === "HEAD") return;
  const origin = req.headers.get("origin");
  if (origin === null) return;
  const host = req.headers.get("host") ?? new URL(req.url).host;
  if (originHost(origin) !== host) {
    throw new ApiError("forbidden", "cross-site requests with a session are refused");
  }
}
