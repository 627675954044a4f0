/** A trip as the Trips page reads it (GET /api/trips): Radar's trip object and where its user is. */
export interface BoardTrip {
  _id: string;
  externalId: string;
  userId?: string;
  deviceId?: string;
  status: string;
  mode: string;
  destinationGeofenceTag?: string;
  destinationGeofenceExternalId?: string;
  destinationLocation?: { coordinates: [number, number] };
  eta?: { distance: number; duration: number; source: string };
  delay?: { delayed: boolean; scheduledArrivalTimeDelay: number };
  scheduledArrivalAt?: string;
  legs?: {
    _id: string;
    status: string;
    destination: { type: string; location: { coordinates: [number, number] } };
  }[];
  createdAt: string;
  updatedAt: string;
  user: { _id: string; location: { coordinates: [number, number] }; updatedAt: string } | null;
}

export const ACTIVE = ["started", "approaching", "arrived"];

export const STATUS_COLOR: Record<string, string> = {
  pending: "bg-slate-100 text-slate-700",
  started: "bg-blue-100 text-blue-800",
  approaching: "bg-amber-100 text-amber-800",
  arrived: "bg-emerald-100 text-emerald-800",
  completed: "bg-slate-200 text-slate-700",
  canceled: "bg-red-100 text-red-800",
  expired: "bg-slate-100 text-slate-500",
};

/** "4.2 min · 1.3 km", with "(straight line)" when no road joined them. */
export function etaText(t: BoardTrip): string {
  if (!t.eta) return "—";
  const km =
    t.eta.distance >= 1000 ? `${(t.eta.distance / 1000).toFixed(1)} km` : `${Math.round(t.eta.distance)} m`;
  return `${t.eta.duration} min · ${km}${t.eta.source === "straight_line" ? " (straight line)" : ""}`;
}

export const delayText = (t: BoardTrip) =>
  !t.delay ? "—" : t.delay.delayed ? `${t.delay.scheduledArrivalTimeDelay} min late` : "on time";
