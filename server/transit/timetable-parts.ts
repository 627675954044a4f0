import type { Service } from "./gtfs";
import type { Timetable, TransferRule } from "./timetable";

/** The timetable stored in an import bundle and read back: typed arrays as bytes, the rest as JSON. */

const ARRAYS = {
  tripRoute: Uint32Array,
  tripService: Uint32Array,
  tripPattern: Uint32Array,
  tripFirstTime: Uint32Array,
  arrival: Int32Array,
  departure: Int32Array,
  callKinds: Uint8Array,
  patternFirstStop: Uint32Array,
  patternStops: Uint32Array,
  patternFirstTrip: Uint32Array,
  patternTrips: Uint32Array,
  stopFirstPattern: Uint32Array,
  stopPatterns: Uint32Array,
  stopPatternPosition: Uint32Array,
  pathFirst: Uint32Array,
  pathTo: Uint32Array,
  pathSeconds: Uint32Array,
} as const;

/** The timetable's parts for the bundle's transit table: typed arrays as bytes, the rest as JSON. */
export function timetableParts(tt: Timetable): [string, Uint8Array][] {
  const rest = {
    timezone: tt.timezone,
    stops: tt.stops,
    routes: tt.routes,
    tripId: tt.tripId,
    tripTemplate: tt.tripTemplate,
    tripHeadsign: tt.tripHeadsign,
    serviceIds: tt.serviceIds,
    services: tt.services.map((s) => ({ ...s, added: [...s.added], removed: [...s.removed] })),
    stopTransfers: [...tt.stopTransfers],
    linkTransfers: [...tt.linkTransfers],
    blockNext: [...tt.blockNext],
  };
  return [
    ...Object.keys(ARRAYS).map((k) => {
      const a = tt[k as keyof typeof ARRAYS];
      return [k, new Uint8Array(a.buffer, a.byteOffset, a.byteLength)] as [string, Uint8Array];
    }),
    ["json", new TextEncoder().encode(JSON.stringify(rest))],
  ];
}

/** Parts a timetable imported before they existed lacks, and what they then are. */
const LATER_PARTS: Partial<Record<keyof typeof ARRAYS, (tt: { arrival: Int32Array }) => Uint8Array>> = {
  // every call a regular one (imports before pickup_type and drop_off_type were read)
  callKinds: (tt) => new Uint8Array(tt.arrival.length),
};

/** The timetable from its stored parts (arrays copied: a blob's bytes need not be aligned). */
export function timetableFromParts(parts: Map<string, Uint8Array>): Timetable {
  const part = (name: string) => {
    const bytes = parts.get(name);
    if (!bytes) throw new Error(`transit timetable: part ${name} is missing`);
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    return copy.buffer;
  };
  const arrays = Object.fromEntries(
    Object.entries(ARRAYS)
      .filter(([k]) => parts.has(k) || !(k in LATER_PARTS))
      .map(([k, Type]) => [k, new Type(part(k))]),
  ) as Record<string, ArrayLike<number>>;
  for (const [k, make] of Object.entries(LATER_PARTS)) {
    if (!(k in arrays)) arrays[k] = make!(arrays as unknown as { arrival: Int32Array });
  }
  const rest = JSON.parse(new TextDecoder().decode(part("json"))) as Omit<
    Timetable,
    keyof typeof ARRAYS | "services" | "stopTransfers" | "linkTransfers" | "blockNext"
  > & {
    services: (Omit<Service, "added" | "removed"> & { added: number[]; removed: number[] })[];
    stopTransfers: [number, { fromRoute?: number; toRoute?: number; seconds: number }[]][];
    linkTransfers?: [string, TransferRule[]][];
    blockNext: [number, number[]][];
  };
  return {
    ...(arrays as unknown as Pick<Timetable, keyof typeof ARRAYS>),
    ...rest,
    // imports before trip rules were read name no trip: each trip its own
    tripTemplate: rest.tripTemplate ?? rest.tripId.map((_, t) => t),
    services: rest.services.map((s) => ({ ...s, added: new Set(s.added), removed: new Set(s.removed) })),
    stopTransfers: new Map(rest.stopTransfers),
    // imports before link transfers were read have none
    linkTransfers: new Map(rest.linkTransfers ?? []),
    blockNext: new Map(rest.blockNext),
  };
}
