"use client";

import { Marker } from "react-leaflet";
import MarkerClusterGroup from "react-leaflet-cluster";
import type { User } from "@/lib/types";
import L from "../map/leaflet-global";

const userIcon = L.divIcon({
  className: "",
  html: '<span style="display:block;width:12px;height:12px;border-radius:9999px;background:#2563eb;border:2px solid white;box-shadow:0 0 2px #0008"></span>',
  iconSize: [12, 12],
  iconAnchor: [6, 6],
});

/** Users' last positions, clustered. */
export function UserMarkers({ users, onPick }: { users: User[]; onPick: (u: User) => void }) {
  return (
    <MarkerClusterGroup chunkedLoading>
      {users.map((u) => (
        <Marker
          key={u._id}
          position={[u.location.coordinates[1], u.location.coordinates[0]]}
          icon={userIcon}
          title={u.userId ?? u.deviceId}
          eventHandlers={{ click: () => onPick(u) }}
        />
      ))}
    </MarkerClusterGroup>
  );
}
