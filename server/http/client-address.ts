/**
 * The caller's address: the first hop of X-Forwarded-For. The server in front of Next.js
 * (scripts/serve.mjs) sets that header to the connection's address unless TRUST_PROXY=true,
 * when a reverse proxy sets it (docs/api.md#ip-geocoding-secret-key-publishable-when-allowed).
 */
export function clientAddress(req: Request): string {
  return req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
}
