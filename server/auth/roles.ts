/**
 * Dashboard roles, and what each may do through the session-authenticated API. One table, read
 * by the /v1 handler and the dashboard's own routes and pages, so a page that is hidden is also
 * refused when called directly.
 */

export const ROLES = ["admin", "analyst", "reviewer"] as const;
export type Role = (typeof ROLES)[number];

export type Permission =
  | "geofences:read"
  | "geofences:write"
  | "users:read"
  | "users:write"
  | "events:read"
  | "events:verify"
  | "events:delete"
  | "context:read"
  | "keys:manage"
  | "accounts:manage";

const GRANTS: Record<Role, readonly Permission[]> = {
  admin: [
    "geofences:read",
    "geofences:write",
    "users:read",
    "users:write",
    "events:read",
    "events:verify",
    "events:delete",
    "context:read",
    "keys:manage",
    "accounts:manage",
  ],
  analyst: ["geofences:read", "geofences:write", "users:read", "events:read", "context:read"],
  // Reviewers see the geofence and the user an event is about, to judge it.
  reviewer: ["geofences:read", "users:read", "events:read", "events:verify"],
};

export const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);

export const can = (role: Role, permission: Permission): boolean => GRANTS[role].includes(permission);

/**
 * What a /v1 call needs when made with a dashboard session. Anything not listed (tracking, for
 * one, which is for devices with a publishable key) is refused.
 */
export function permissionFor(method: string, pathname: string): Permission | null {
  const read = method === "GET" || method === "HEAD";
  const path = pathname.replace(/\/+$/, "");
  if (path === "/v1/config") return "geofences:read";
  if (/^\/v1\/events\/[^/]+\/verification$/.test(path)) return "events:verify";
  if (path.startsWith("/v1/events")) return read ? "events:read" : "events:delete";
  if (path.startsWith("/v1/search/geofences")) return "geofences:read";
  if (path.startsWith("/v1/search/users")) return "users:read";
  if (/^\/v1\/geofences(\/[^/]+){1,2}\/users$/.test(path)) return "users:read";
  if (path.startsWith("/v1/geofences")) return read ? "geofences:read" : "geofences:write";
  if (path.startsWith("/v1/users")) return read ? "users:read" : "users:write";
  if (path === "/v1/context" || path.startsWith("/v1/geocode") || path.startsWith("/v1/search/places")) {
    return "context:read";
  }
  return null;
}
