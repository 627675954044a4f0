import tzLookup from "@photostructure/tz-lookup";

/**
 * The time zone of a point, as Radar's address objects carry it (`timeZone`): the IANA id from
 * the time-zone boundaries @photostructure/tz-lookup ships (offline, about 100 KB, microseconds a
 * lookup; coarse within a few kilometres of a zone's border, where the larger geo-tz is exact),
 * with its name, abbreviation, offsets and local time from the runtime's own time-zone data (Intl).
 */

export interface TimeZone {
  /** IANA id, e.g. America/New_York */
  id: string;
  /** e.g. Eastern Standard Time */
  name: string;
  /** e.g. EST; GMT+1 style where English has no abbreviation */
  code: string;
  /** the local time now, ISO 8601 with its offset */
  currentTime: string;
  /** seconds east of UTC now (daylight saving included) */
  utcOffset: number;
  /** seconds of daylight saving in effect now (0 outside it) */
  dstOffset: number;
}

interface Zone {
  parts: Intl.DateTimeFormat;
  long: Intl.DateTimeFormat;
  shorts: Intl.DateTimeFormat[];
}
const zones = new Map<string, Zone>();

/** English abbreviations: the US names its zones, Britain, India and Australia theirs. */
const ABBREVIATING = ["en-US", "en-GB", "en-IN", "en-AU"];

function zone(id: string): Zone {
  let z = zones.get(id);
  if (!z) {
    z = {
      parts: new Intl.DateTimeFormat("en-US", {
        timeZone: id,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      }),
      long: new Intl.DateTimeFormat("en-US", { timeZone: id, timeZoneName: "long" }),
      shorts: ABBREVIATING.map((l) => new Intl.DateTimeFormat(l, { timeZone: id, timeZoneName: "short" })),
    };
    zones.set(id, z);
  }
  return z;
}

const nameIn = (f: Intl.DateTimeFormat, at: Date) =>
  f.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "";

/** The zone's offset from UTC at `at`, in seconds (from its wall clock). */
function wallClock(z: Zone, at: Date): { offset: number } {
  const p = Object.fromEntries(z.parts.formatToParts(at).map((x) => [x.type, x.value]));
  const local = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  return { offset: Math.round((local - Math.floor(at.getTime() / 1000) * 1000) / 1000) };
}

const offsetText = (seconds: number) => {
  const sign = seconds < 0 ? "-" : "+";
  const abs = Math.abs(seconds);
  return `${sign}${String(Math.floor(abs / 3600)).padStart(2, "0")}:${String(Math.floor((abs % 3600) / 60)).padStart(2, "0")}`;
};

/** What a zone says for one quarter hour (offsets change on the quarter hour at the finest). */
interface Quarter {
  name: string;
  code: string;
  offset: number;
  dst: number;
}
const QUARTER_MS = 15 * 60_000;
const quarters = new Map<string, Quarter>();

function quarterOf(id: string, at: Date): Quarter {
  const key = `${id}@${Math.floor(at.getTime() / QUARTER_MS)}`;
  let q = quarters.get(key);
  if (!q) {
    const z = zone(id);
    const offset = wallClock(z, at).offset;
    // Standard time is the smaller offset of the year (the southern hemisphere saves in January).
    const year = at.getUTCFullYear();
    const standard = Math.min(
      wallClock(z, new Date(Date.UTC(year, 0, 1))).offset,
      wallClock(z, new Date(Date.UTC(year, 6, 1))).offset,
    );
    const code =
      z.shorts.map((f) => nameIn(f, at)).find((c) => !/^(GMT|UTC)/.test(c)) ?? nameIn(z.shorts[0]!, at);
    q = { name: nameIn(z.long, at), code, offset, dst: offset - standard };
    // A quarter hour's answers for the zones in use: bounded, and dropped as time moves on.
    if (quarters.size > 5000) quarters.clear();
    quarters.set(key, q);
  }
  return q;
}

export function timeZoneAt(lng: number, lat: number, at = new Date()): TimeZone | null {
  let id: string;
  try {
    id = tzLookup(lat, lng);
  } catch {
    return null;
  }
  const q = quarterOf(id, at);
  // The local time from the offset: Intl formats once per zone and quarter hour, not per answer
  // (formatting is most of an answer's cost; docs/performance.md).
  const local = new Date(Math.floor(at.getTime() / 1000) * 1000 + q.offset * 1000).toISOString().slice(0, 19);
  return {
    id,
    name: q.name,
    code: q.code,
    currentTime: `${local}${offsetText(q.offset)}`,
    utcOffset: q.offset,
    dstOffset: q.dst,
  };
}

/** An address with its time zone, when it has a position. */
export function withTimeZone<A extends { latitude?: number; longitude?: number }>(
  address: A,
  at = new Date(),
): A & { timeZone?: TimeZone } {
  if (address.latitude === undefined || address.longitude === undefined) return address;
  const timeZone = timeZoneAt(address.longitude, address.latitude, at);
  return timeZone ? { ...address, timeZone } : address;
}
