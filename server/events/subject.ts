/**
 * What an event is about, as the class its verifications are pooled over (docs/confidence.md):
 * a geofence, a place or a region. Kept on the event, so counting a class's verdicts is one
 * indexed lookup for every kind of event.
 */
export function eventSubject(e: {
  geofenceId?: string | null;
  placeId?: string | null;
  region?: { type: string; name: string; code?: string } | null;
}): string | null {
  if (e.geofenceId) return `geofence:${e.geofenceId}`;
  if (e.placeId) return `place:${e.placeId}`;
  if (e.region) return `region:${e.region.type}:${e.region.code ?? e.region.name}`;
  return null;
}
