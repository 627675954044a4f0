"use client";

import { useQuery } from "@tanstack/react-query";
import { call } from "@/lib/api-client";

/** What the signed-in role may do, as GET /api/session says (the server checks every call again). */
export interface Permissions {
  geofences: boolean;
  /** list users (reviewers may only open a user whose events they review) */
  users: boolean;
  events: boolean;
  keys: boolean;
}

/** The session's permissions, asked once per page; undefined until known. */
export function usePermissions(): Permissions | undefined {
  return useQuery({
    queryKey: ["session", "permissions"],
    staleTime: Infinity,
    queryFn: () => call<{ permissions: Permissions }>("GET", "/api/session").then((r) => r.permissions),
  }).data;
}
