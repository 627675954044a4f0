/**
 * Dashboard roles, and what each may do through the session-authenticated API. Every route
 * declares the permission each of its methods needs (server/http/handler.ts); this table says
 * which roles hold it. Pages check the same table, so a page that is hidden is also refused when
 * its calls are made directly.
 */

export const ROLES = ["admin", "analyst", "reviewer"] as const;
export type Role = (typeof ROLES)[number];

export type Permission =
  | "geofences:read"
  | "geofences:write"
  | "users:read"
  | "users:list"
  | "users:write"
  | "events:read"
  | "events:verify"
  | "events:delete"
  | "context:read"
  | "keys:manage"
  | "accounts:manage"
  | "webhooks:manage"
  | "trips:read"
  | "trips:write"
  | "overview:read";

const GRANTS: Record<Role, readonly Permission[]> = {
  admin: [
    "geofences:read",
    "geofences:write",
    "users:read",
    "users:list",
    "users:write",
    "events:read",
    "events:verify",
    "events:delete",
    "context:read",
    "keys:manage",
    "accounts:manage",
    "webhooks:manage",
    "trips:read",
    "trips:write",
    "overview:read",
  ],
  analyst: [
    "geofences:read",
    "geofences:write",
    "users:read",
    "users:list",
    "events:read",
    "context:read",
    "trips:read",
    "trips:write",
    "overview:read",
  ],
  // Reviewers see the geofence and the user an event is about, to judge it: a user with events to
  // review (its profile, trail and logs; server/users/read.ts), never the list of all users.
  reviewer: ["geofences:read", "users:read", "events:read", "events:verify", "trips:read"],
};

/**
 * What a dashboard session's role needs to call a route: a permission, several (all needed),
 * "signed-in" (any role), or null: sessions may not call it at all.
 */
export type RolePermission = Permission | readonly Permission[] | "signed-in" | null;

export const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);

export const can = (role: Role, permission: Permission): boolean => GRANTS[role].includes(permission);
