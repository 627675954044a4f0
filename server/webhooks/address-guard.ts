import { type LookupAddress, lookup as dnsLookup } from "node:dns";
import { lookup } from "node:dns/promises";
import { BlockList, type LookupFunction, isIP } from "node:net";
import { ApiError } from "../errors";

/**
 * Webhook URLs may not reach the service's own network (docs/webhooks.md#safety): a host that
 * resolves to a loopback, private, link-local or metadata address is refused at creation and
 * again before every attempt (DNS can change), unless WEBHOOKS_ALLOW_PRIVATE=true.
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
] as const)
  PRIVATE.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::1", 128],
  ["::", 128],
  ["fc00::", 7],
  ["fe80::", 10],
] as const)
  PRIVATE.addSubnet(net, bits, "ipv6");

export const allowPrivate = () => process.env.WEBHOOKS_ALLOW_PRIVATE === "true";

function isPrivate(address: string): boolean {
  const family = isIP(address);
  if (family === 6 && address.toLowerCase().startsWith("::ffff:")) return isPrivate(address.slice(7));
  return family === 4 ? PRIVATE.check(address, "ipv4") : family === 6 ? PRIVATE.check(address, "ipv6") : true;
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
