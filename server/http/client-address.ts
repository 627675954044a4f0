/**
 * The caller's address: the first hop of X-Forwarded-For. Next.js fills that header with the
 * socket's address when a request arrives without one; a request that brings its own keeps it,
 * so behind the internet without a proxy that sets the header, the value is the caller's claim.
 * Run the service behind a reverse proxy that sets X-Forwarded-For (docs/api.md).
 */
export function clientAddress(req: Request): string {
  return req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
}
