import { type LookupAddress, lookup as dnsLookup } from "node:dns";
import { lookup } from "node:dns/promises";
import { BlockList, type LookupFunction, isIP } from "node:net";
import { ApiError } from "../errors";

/**
 * Webhook URLs may not reach the service's own network (docs/webhooks.md#safety): a host that
 * resolves to a loopback, private, link-local, metadata, reserved or multicast address is refused
 * at creation and again before every attempt (DNS can change), unless WEBHOOKS_ALLOW_PRIVATE=true.
 * An IPv6 address that carries an IPv4 one (mapped, IPv4-compatible, NAT64, 6to4, Teredo) is
 * judged by the IPv4 address it reaches.
 */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["127.0.0.0", 8],
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["169.254.0.0", 16],
  ["100.64.0.0", 10],
  // IETF protocol assignments, benchmarking, documentation
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  // multicast; reserved, and the broadcast address
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  PRIVATE.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::1", 128],
  ["::", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
  // NAT64 for local use, documentation
  ["64:ff9b:1::", 48],
  ["2001:db8::", 32],
] as const)
  PRIVATE.addSubnet(net, bits, "ipv6");

export const allowPrivate = () => process.env.WEBHOOKS_ALLOW_PRIVATE === "true";

/** An IPv6 address as its eight 16-bit groups (a trailing dotted IPv4 part taken as two). */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().split("%")[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const part = (t: string | undefined) => (t ? t.split(":").map((g) => parseInt(g, 16)) : []);
  const front = part(head);
  const back = part(tail);
  const groups =
    tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : null;
}

const ipv4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/** The IPv4 address an IPv6 one carries: mapped, compatible, NAT64 (64:ff9b::/96), 6to4, Teredo. */
export function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return ipv4Of(g[1]!, g[2]!);
  // Teredo: the client's address, its bits inverted.
  if (g[0] === 0x2001 && g[1] === 0) return ipv4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff);
  return null;
}

export function isPrivate(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, "ipv4");
  if (family !== 6) return true;
  if (PRIVATE.check(address, "ipv6")) return true;
  const v4 = embeddedIpv4(address);
  return v4 !== null && PRIVATE.check(v4, "ipv4");
}

/** A webhook URL as given, checked: http or https, a host, and (unless allowed) a public address. */
export function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ApiError("invalid_input", "url must be an absolute http or https URL", "url");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ApiError("invalid_input", "url must be http or https", "url");
  if (url.username || url.password)
    throw new ApiError("invalid_input", "url may not carry credentials", "url");
  return url;
}

/** Why an address may not be called (a private one, unless allowed), or null when it may. */
export function refusedAddress(address: string, host = address): string | null {
  if (allowPrivate() || !isPrivate(address)) return null;
  return `${host} resolves to ${address}, a loopback, private, link-local or metadata address (set WEBHOOKS_ALLOW_PRIVATE=true to allow)`;
}

/**
 * dns.lookup for the sender's connections: each address a name resolves to is checked before
 * the connection is made to it, every time a connection is made (DNS can change).
 */
export const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 4);
    const list = addresses as LookupAddress[];
    const bad = list.map((a) => refusedAddress(a.address, hostname)).find((r) => r !== null);
    if (bad) return callback(Object.assign(new Error(bad), { code: "EPRIVATE" }), "", 4);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

/** Why the URL's host may not be called (a private address), or null when it may. */
export async function privateAddressOf(url: URL): Promise<string | null> {
  if (allowPrivate()) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch (e) {
    return `${host} does not resolve (${(e as NodeJS.ErrnoException).code ?? "error"})`;
  }
  const bad = addresses.find(isPrivate);
  return bad ? refusedAddress(bad, host) : null;
}
