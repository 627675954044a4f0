"use client";

import { useEffect } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { call, isNotFound } from "@/lib/api-client";
import { boundsParam } from "@/lib/map-view";
import type { Geofence, User } from "@/lib/types";
import type { MapView } from "../map/view-tracker";
import { usePermissions } from "../ui/use-permissions";

/** The most the map loads of each kind for one view (the API's page limit). */
export const MAP_LIMIT = 1000;

/** How often the open geofence is read again while the page is in view (as the users in view). */
const OPEN_GEOFENCE_REFRESH_MS = 5000;

/** The query that reads the open geofence by id (dropped when the map's own panel deletes it). */
export const openGeofenceKey = (id: string | null) => ["geofences", "id", id] as const;

type Page<K extends string, T> = Record<K, T[]> & { meta: { hasMore?: boolean } };

/**
 * What the map shows, asked of the server for the area in view: geofences (of a tag, if one is
 * chosen) and users, each with whether more were there than loaded; the open geofence and user
 * by id (they stay open when the map moves away); geofences anywhere matching the search text.
 */
export function useMapData({
  view,
  tag,
  text,
  geofenceId,
  userId,
}: {
  view: MapView | null;
  tag: string;
  text: string;
  geofenceId: string | null;
  userId: string | null;
}) {
  const bounds = view ? boundsParam(view.box) : null;
  const inView = (extra: Record<string, string>) =>
    new URLSearchParams({ limit: String(MAP_LIMIT), bounds: bounds ?? "", ...extra }).toString();

  const geofences = useQuery({
    queryKey: ["geofences", "view", bounds, tag],
    enabled: bounds !== null,
    placeholderData: keepPreviousData,
    queryFn: () => call<Page<"geofences", Geofence>>("GET", `/v1/geofences?${inView(tag ? { tag } : {})}`),
  });
  const listsUsers = usePermissions()?.users ?? false;
  const users = useQuery({
    queryKey: ["users", "view", bounds],
    enabled: bounds !== null && listsUsers,
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
    queryFn: () => call<Page<"users", User>>("GET", `/v1/users?${inView({})}`),
  });
  const search = text.trim();
  const matches = useQuery({
    queryKey: ["geofences", "search", search, tag],
    enabled: search !== "",
    queryFn: () =>
      call<Page<"geofences", Geofence>>(
        "GET",
        `/v1/geofences?${new URLSearchParams({ limit: "200", search, ...(tag && { tag }) })}`,
      ),
  });

  const loadedGeofence = geofences.data?.geofences.find((g) => g._id === geofenceId);
  // The open geofence is read by id as well, again every few seconds: another analyst may change
  // or delete it, and the geofences in view are read again only when the view or tag changes.
  const geofence = useQuery({
    queryKey: openGeofenceKey(geofenceId),
    enabled: geofenceId !== null,
    refetchInterval: OPEN_GEOFENCE_REFRESH_MS,
    queryFn: () => call<{ geofence: Geofence }>("GET", `/v1/geofences/${geofenceId}`).then((r) => r.geofence),
  });
  const gone = !!geofenceId && isNotFound(geofence.error);
  const read = geofence.data;
  // Versions compare as their times (the API's ISO form, UTC, always to the millisecond).
  const newer =
    read && (!loadedGeofence || read.updatedAt > loadedGeofence.updatedAt) ? read : loadedGeofence;
  // What the map draws follows: the geofences in view are read again when the open one is gone or
  // has changed since they were read.
  const queryClient = useQueryClient();
  const viewStale = !!loadedGeofence && (gone || newer !== loadedGeofence);
  useEffect(() => {
    if (viewStale) void queryClient.invalidateQueries({ queryKey: ["geofences", "view"] });
  }, [viewStale, queryClient]);
  const loadedUser = users.data?.users.find((u) => u._id === userId);
  const user = useQuery({
    queryKey: ["users", "id", userId],
    enabled: userId !== null && !loadedUser,
    queryFn: () => call<{ user: User }>("GET", `/v1/users/${userId}`).then((r) => r.user),
  });

  return {
    geofences: geofences.data?.geofences ?? [],
    geofencesMore: Boolean(geofences.data?.meta.hasMore),
    users: users.data?.users ?? [],
    usersMore: Boolean(users.data?.meta.hasMore),
    matches: {
      data: matches.data?.geofences,
      more: Boolean(matches.data?.meta.hasMore),
      loading: matches.isLoading,
    },
    selectedGeofence: gone ? undefined : newer,
    /** the open geofence is not there (deleted, or of the other world) */
    selectedGone: gone,
    selectedUser: loadedUser ?? (userId ? user.data : undefined),
    loading: geofences.isLoading || users.isLoading,
    error: geofences.error ?? users.error ?? matches.error,
  };
}

/** What the map shows (useMapData). */
export type MapData = ReturnType<typeof useMapData>;
