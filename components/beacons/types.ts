/** A beacon as the API answers it (docs/beacons.md). */
export interface Beacon {
  _id: string;
  description: string;
  tag?: string;
  externalId?: string;
  type: "ibeacon";
  uuid: string;
  major: string;
  minor: string;
  metadata?: Record<string, unknown>;
  geometry: { type: "Point"; coordinates: [number, number] };
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}
