import { ApiError } from "./errors";

/** Session-authenticated changes must come from the dashboard's own origin. */
export function checkOrigin(req: Request): void {
  if (req.method === "GET" || req.method === "HEAD") return;
  const origin = req.headers.get("origin");
  const host = req.headers.get("host") ?? new URL(req.url).host;
  if (origin && new URL(origin).host !== host) {
    throw new ApiError("forbidden", "cross-site requests with a session are refused");
  }
}
