/**
 * The caller's address. The server in front of Next.js (scripts/serve.mjs) sets X-Forwarded-For
 * to it alone: the connection's address, or with TRUST_PROXY=N the address the outermost of N
 * trusted proxies saw (docs/deployment.md).
 */
export function clientAddress(req: Request): string {
  return req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
}
