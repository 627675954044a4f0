import { type NextRequest, NextResponse } from "next/server";

/**
 * Every page's Content-Security-Policy (docs/security.md#browser): scripts only from this origin
 * and only those Next.js marks with this request's nonce, so a script an attacker gets into a page
 * (a geofence's description shown as HTML somewhere) does not run. Next.js reads the nonce from
 * the request's policy and puts it on its own scripts; pages are rendered per request. Styles may
 * be inline (Leaflet positions its panes and markers with them); images may come from the map's
 * tile server. The API's paths have no pages and keep their own headers (next.config.js).
 */
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const dev = process.env.NODE_ENV === "development";
  const policy = [
    "default-src 'self'",
    // 'unsafe-eval': React's development build only.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  // Pages only: not the API (/v1, /api), the probes, or Next.js's static files.
  matcher: [
    {
      source: "/((?!v1|api|healthz|readyz|_next/static|_next/image|icon.svg|favicon.ico).*)",
      missing: [{ type: "header", key: "next-router-prefetch" }],
    },
  ],
};
