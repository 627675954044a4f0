/**
 * Who may travel an OpenStreetMap way, in which direction and how fast (docs/routing.md#profiles):
 * pure functions of a way's tags, for car, bike and foot. The road graph (import) keeps, per
 * edge and mode, the speed each way (0: not allowed) and the flags `avoid` needs.
 */

export type Tags = Record<string, string>;
export const MODES = ["car", "bike", "foot"] as const;
export type Mode = (typeof MODES)[number];

/** Speeds in km/h one way and the other along the way's drawing direction; 0: not allowed. */
export interface Direction {
  forward: number;
  backward: number;
}

export interface WayProfile {
  car: Direction;
  bike: Direction;
  foot: Direction;
  /** a ferry route: `avoid=ferries` leaves it out */
  ferry: boolean;
  /** `toll=yes`: `avoid=tolls` leaves it out */
  toll: boolean;
  /** a motorway or trunk road (and their links): `avoid=highways` leaves it out */
  highway: boolean;
  /** what directions and map matching say of it */
  road: RoadLabel;
}

/**
 * A way as directions and map matching name it (docs/routing.md#directions): its `name` and
 * `ref`, its class (the `highway` value, or "ferry"), whether it is a roundabout, and its
 * `maxspeed` as tagged ("50", "30 mph"; "" when untagged).
 */
export interface RoadLabel {
  name: string;
  ref: string;
  class: string;
  roundabout: boolean;
  maxspeed: string;
}

function roadLabel(tags: Tags, roadClass: string): RoadLabel {
  return {
    name: tags.name ?? "",
    ref: tags.ref ?? "",
    class: roadClass,
    roundabout: /^(roundabout|circular)$/.test(tags.junction ?? ""),
    maxspeed: tags.maxspeed ?? "",
  };
}

/** Walking speed, also a bike's when pushed (steps, footways, against a one-way street). */
export const WALK_KMH = 5;
/** A ferry without a `duration` tag: its speed. */
export const FERRY_KMH = 10;

/** Car speeds by road class (km/h), where no `maxspeed` says otherwise. */
export const CAR_KMH: Record<string, number> = {
  motorway: 110,
  motorway_link: 60,
  trunk: 90,
  trunk_link: 50,
  primary: 70,
  primary_link: 40,
  secondary: 60,
  secondary_link: 40,
  tertiary: 50,
  tertiary_link: 30,
  unclassified: 40,
  residential: 30,
  living_street: 10,
  service: 15,
  road: 30,
};

/** Bike speeds by road class (km/h); footways and steps are pushed unless bikes are allowed on them. */
export const BIKE_KMH: Record<string, number> = {
  cycleway: 18,
  primary: 18,
  primary_link: 18,
  secondary: 18,
  secondary_link: 18,
  tertiary: 18,
  tertiary_link: 18,
  unclassified: 16,
  residential: 16,
  living_street: 10,
  service: 14,
  road: 15,
  track: 12,
  path: 12,
};

/** Highways people walk (km/h); motorways and motorroads never. */
export const FOOT_HIGHWAYS = new Set([
  "footway",
  "path",
  "pedestrian",
  "steps",
  "track",
  "living_street",
  "residential",
  "service",
  "unclassified",
  "road",
  "tertiary",
  "tertiary_link",
  "secondary",
  "secondary_link",
  "primary",
  "primary_link",
  "trunk",
  "trunk_link",
  "platform",
  "corridor",
]);

const NONE: Direction = { forward: 0, backward: 0 };
const YES = new Set(["yes", "designated", "permissive", "destination", "delivery", "customers", "official"]);
const NO = new Set(["no", "private", "agricultural", "forestry", "discouraged", "use_sidepath"]);

/**
 * Whether the most specific access tag present allows the mode: the first of `keys` that is set
 * decides ("motorcar" before "motor_vehicle" before "vehicle" before "access"); none: `fallback`.
 */
function allowed(tags: Tags, keys: string[], fallback: boolean): boolean {
  for (const key of keys) {
    const value = tags[key];
    if (value === undefined) continue;
    if (YES.has(value)) return true;
    if (NO.has(value) || value === "dismount") return false;
  }
  return fallback;
}

const CAR_KEYS = ["motorcar", "motor_vehicle", "vehicle", "access"];
const BIKE_KEYS = ["bicycle", "vehicle", "access"];
const FOOT_KEYS = ["foot", "access"];

/** The limits a `maxspeed` tag names, in its own units ("50", "30 mph", "50;30"); "none" and the like name none. */
export function maxspeedLimits(
  value: string | undefined,
): { value: number; unit: "kph" | "mph" | "knots" }[] {
  return (value ?? "")
    .split(";")
    .map((v) => /^\s*(\d+(?:\.\d+)?)\s*(mph|knots)?\s*$/.exec(v))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => ({ value: Number(m[1]), unit: (m[2] as "mph" | "knots" | undefined) ?? "kph" }));
}

const KMH_PER = { kph: 1, mph: 1.609344, knots: 1.852 } as const;

/** "50", "30 mph", "50;30" (the lower), "none"; 0 when absent or not understood. */
export function maxspeedKmh(value: string | undefined): number {
  const speeds = maxspeedLimits(value).map((l) => l.value * KMH_PER[l.unit]);
  return speeds.length ? Math.min(...speeds) : 0;
}

/** A ferry's speed: its length over its `duration` ("1:30", "PT45M", "20" minutes), else FERRY_KMH. */
export function ferryKmh(tags: Tags, lengthMeters: number): number {
  const d = tags.duration;
  let hours = 0;
  if (d) {
    const hm = /^(\d+):(\d{1,2})(?::(\d{1,2}))?$/.exec(d);
    const iso = /^PT(?:(\d+)H)?(?:(\d+)M)?$/.exec(d);
    if (hm) hours = Number(hm[1]) + Number(hm[2]) / 60 + Number(hm[3] ?? 0) / 3600;
    else if (iso) hours = Number(iso[1] ?? 0) + Number(iso[2] ?? 0) / 60;
    else if (/^\d+(\.\d+)?$/.test(d)) hours = Number(d) / 60;
  }
  return hours > 0 && lengthMeters > 0 ? Math.max(1, lengthMeters / 1000 / hours) : FERRY_KMH;
}

/** The way's one-way sense for a mode: 1 along its drawing, -1 against it, 0 both ways. */
function onewayOf(tags: Tags, key = "oneway"): 1 | -1 | 0 {
  const v = tags[key];
  if (v === "yes" || v === "true" || v === "1") return 1;
  if (v === "-1" || v === "reverse") return -1;
  if (v === "no" || v === "false" || v === "0") return 0;
  if (key !== "oneway") return onewayOf(tags); // no specific tag: the general one
  const junction = tags.junction;
  if (junction === "roundabout" || junction === "circular") return 1;
  if (tags.highway === "motorway") return 1;
  return 0;
}

const directed = (speed: number, oneway: 1 | -1 | 0): Direction =>
  oneway === 1
    ? { forward: speed, backward: 0 }
    : oneway === -1
      ? { forward: 0, backward: speed }
      : { forward: speed, backward: speed };

function car(tags: Tags, highway: string | undefined): Direction {
  const base = highway ? CAR_KMH[highway] : undefined;
  if (!base) return NONE;
  if (tags.area === "yes") return NONE;
  if (!allowed(tags, CAR_KEYS, true)) return NONE;
  const limit = maxspeedKmh(tags.maxspeed);
  // Traffic keeps below the limit; a limit above the class's speed is not driven at.
  const speed = limit ? Math.min(limit * 0.9, Math.max(base, limit * 0.6)) : base;
  return directed(speed, onewayOf(tags, "oneway:motorcar"));
}

/** Whether a one-way street may be ridden against its direction (contraflow). */
function bikeContraflow(tags: Tags): boolean {
  if (tags["oneway:bicycle"] === "no") return true;
  return ["cycleway", "cycleway:left", "cycleway:right", "cycleway:both"].some((k) =>
    (tags[k] ?? "").startsWith("opposite"),
  );
}

function bike(tags: Tags, highway: string | undefined): Direction {
  if (!highway) return NONE;
  const dismount = tags.bicycle === "dismount";
  const explicit = allowed(tags, ["bicycle"], false);
  if (!dismount && !allowed(tags, BIKE_KEYS, true)) return NONE;
  let speed = BIKE_KMH[highway];
  if (speed === undefined) {
    if (
      highway === "motorway" ||
      highway === "motorway_link" ||
      highway === "trunk" ||
      highway === "trunk_link"
    ) {
      if (!explicit) return NONE;
      speed = 18;
    } else if (
      highway === "footway" ||
      highway === "pedestrian" ||
      highway === "steps" ||
      highway === "platform"
    ) {
      speed = explicit && highway !== "steps" ? 12 : WALK_KMH; // pushed, unless bikes are allowed
    } else if (highway === "bridleway") {
      if (!explicit) return NONE;
      speed = 10;
    } else return NONE;
  }
  if (dismount) speed = WALK_KMH;
  const oneway = onewayOf(tags, "oneway:bicycle");
  const d = directed(speed, oneway);
  // Against a one-way street without contraflow: pushed on the pavement, at walking speed.
  if (oneway !== 0 && !bikeContraflow(tags) && highway !== "motorway" && highway !== "motorway_link") {
    if (d.forward === 0) d.forward = WALK_KMH;
    if (d.backward === 0) d.backward = WALK_KMH;
  }
  if (bikeContraflow(tags)) return { forward: speed, backward: speed };
  return d;
}

function foot(tags: Tags, highway: string | undefined): Direction {
  if (!highway) return NONE;
  if (highway === "motorway" || highway === "motorway_link" || tags.motorroad === "yes") return NONE;
  const explicit = allowed(tags, ["foot"], false);
  if (!FOOT_HIGHWAYS.has(highway) && !((highway === "cycleway" || highway === "bridleway") && explicit)) {
    return NONE;
  }
  if (!allowed(tags, FOOT_KEYS, true)) return NONE;
  const oneway = tags["oneway:foot"] === "yes" ? 1 : 0;
  return directed(WALK_KMH, oneway);
}

/** The profile of a way for each mode, or null when no mode may use it. */
export function wayProfile(tags: Tags, lengthMeters = 0): WayProfile | null {
  const highway = tags.highway;
  if (tags.route === "ferry") {
    const speed = ferryKmh(tags, lengthMeters);
    const mode = (keys: string[], fallback: boolean) =>
      allowed(tags, keys, fallback) ? { forward: speed, backward: speed } : NONE;
    const profile = {
      car: mode(CAR_KEYS, true),
      bike: mode(BIKE_KEYS, true),
      foot: mode(FOOT_KEYS, true),
      ferry: true,
      toll: tags.toll === "yes",
      highway: false,
      road: roadLabel(tags, "ferry"),
    };
    return profile.car.forward || profile.bike.forward || profile.foot.forward ? profile : null;
  }
  if (!highway || (tags.area === "yes" && highway !== "pedestrian")) return null;
  const profile: WayProfile = {
    car: car(tags, highway),
    bike: bike(tags, highway),
    foot: foot(tags, highway),
    ferry: false,
    toll: tags.toll === "yes",
    highway: /^(motorway|trunk)(_link)?$/.test(highway),
    road: roadLabel(tags, highway),
  };
  const any = (d: Direction) => d.forward > 0 || d.backward > 0;
  return any(profile.car) || any(profile.bike) || any(profile.foot) ? profile : null;
}

/** Barrier nodes that stop cars (a bollard, a locked gate); bikes and people pass most of them. */
export function barrierBlocks(tags: Tags, mode: Mode): boolean {
  const barrier = tags.barrier;
  if (!barrier) return false;
  const keys = mode === "car" ? CAR_KEYS : mode === "bike" ? BIKE_KEYS : FOOT_KEYS;
  const open = new Set([
    "cattle_grid",
    "border_control",
    "toll_booth",
    "entrance",
    "height_restrictor",
    "lift_gate",
    "sally_port",
    "kerb",
    "no",
  ]);
  const fallback =
    mode === "car"
      ? open.has(barrier) || barrier === "gate"
      : mode === "bike"
        ? barrier !== "stile" &&
          barrier !== "turnstile" &&
          barrier !== "kissing_gate" &&
          barrier !== "full-height_turnstile"
        : barrier !== "wall" && barrier !== "fence";
  return !allowed(tags, keys, fallback);
}
