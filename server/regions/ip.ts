import { processOnce } from "../process-once";
import { readFileSync } from "node:fs";
import { BlockList, isIP } from "node:net";
import path from "node:path";
import { Reader, type Response as MmdbResponse } from "mmdb-lib";
import { type Address, answeredAddress, countryFields, pointFields } from "../text/address";
import { ApiError } from "../errors";
import { countryCenter } from "./embedded";
import { packageFile } from "./package-file";

/**
 * IP geocoding from an MMDB file read with mmdb-lib: by default the country-level database of
 * @ip-location-db/geo-whois-asn-country-mmdb (docs/data.md); IP_DATABASE may name another MMDB,
 * such as a GeoIP2/GeoLite2 City file, whose city, state, postal code and location are used too.
 */

interface MmdbRecord {
  // ip-location-db's flat format
  country_code?: string;
  // MaxMind's format
  country?: { iso_code?: string };
  subdivisions?: { iso_code?: string; names?: { en?: string } }[];
  city?: { names?: { en?: string } };
  postal?: { code?: string };
  location?: { latitude?: number; longitude?: number };
}

export function ipDatabasePath(): string {
  if (process.env.IP_DATABASE) return path.resolve(process.env.IP_DATABASE);
  return packageFile("@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb");
}

function lookup(ip: string): MmdbRecord | null {
  const reader = processOnce("ip-database", () => new Reader<MmdbResponse>(readFileSync(ipDatabasePath())));
  return reader.get(ip) as MmdbRecord | null;
}

/** Addresses that never have a location: private, loopback, link-local, shared and reserved. */
const NO_LOCATION = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["224.0.0.0", 3],
] as const) {
  NO_LOCATION.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 127],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  NO_LOCATION.addSubnet(net, prefix, "ipv6");
}

/** Normalizes an address (IPv4-mapped IPv6 becomes IPv4) or refuses it with a 400. */
export function parseIp(text: string): { ip: string; family: "ipv4" | "ipv6" } {
  const trimmed = text.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  const ip = mapped ? mapped[1]! : trimmed;
  const version = isIP(ip);
  if (!version) throw new ApiError("invalid_input", `ip: ${JSON.stringify(text)} is not an IP address`, "ip");
  return { ip, family: version === 4 ? "ipv4" : "ipv6" };
}

/** The address object for an IP (wire contract), or a 404 saying why there is none. */
export function geocodeIp(text: string) {
  const { ip, family } = parseIp(text);
  if (NO_LOCATION.check(ip, family)) {
    throw new ApiError(
      "not_found",
      `ip: ${ip} is a private, loopback or reserved address, which has no location`,
      "ip",
    );
  }
  const record = lookup(ip);
  const countryCode = record?.country_code ?? record?.country?.iso_code;
  if (!record || !countryCode) throw new ApiError("not_found", `ip: no location is known for ${ip}`, "ip");
  const state = record.subdivisions?.[0];
  const city = record.city?.names?.en;
  const hasPoint = record.location?.latitude !== undefined && record.location?.longitude !== undefined;
  const [lng, lat] = hasPoint
    ? [record.location!.longitude!, record.location!.latitude!]
    : (countryCenter(countryCode) ?? []);
  const address: Address = answeredAddress({
    ...(lat !== undefined && lng !== undefined && pointFields(lng, lat)),
    ...countryFields(countryCode),
    ...(state?.names?.en && { state: state.names.en }),
    ...(state?.iso_code && { stateCode: state.iso_code }),
    ...(city && { city }),
    ...(record.postal?.code && { postalCode: record.postal.code }),
    layer: city ? "locality" : state ? "state" : "country",
    // An IP gives an area at best, never the device's position.
    confidence: "fallback",
  });
  return { address, ip, proxy: false };
}

/**
 * Where an address's IP location puts a caller, `[lng, lat]`, to bias a search that named no
 * point; null when the address is private or reserved, or has no known location.
 */
export function ipBias(text: string): readonly [number, number] | null {
  try {
    const { address } = geocodeIp(text);
    return typeof address.longitude === "number" && typeof address.latitude === "number"
      ? [address.longitude, address.latitude]
      : null;
  } catch (e) {
    if (e instanceof ApiError) return null;
    throw e;
  }
}
