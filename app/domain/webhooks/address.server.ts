import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";

/**
 * Where a webhook may go (ADR 054, no SSRF). In production an endpoint is `https://` and every address its host
 * resolves to must be public: private, loopback, link-local, shared (CGNAT), multicast and reserved ranges are
 * refused, at registration and again at every delivery, on the address the connection actually uses (the
 * delivery's own DNS lookup goes through `guardedLookup`). In development and test an `http://localhost` receiver
 * is allowed too, and local addresses are not refused.
 */
export type AddressRules = { production: boolean };

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

/** Whether an address is one a production webhook may not reach (an IPv4-mapped IPv6 address as its IPv4). */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1];
    if (mapped) return blocked.check(mapped, "ipv4");
    return blocked.check(address, "ipv6");
  }
  return blocked.check(address, "ipv4");
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export type UrlProblem = "invalid" | "httpsRequired" | "privateAddress" | "unresolvable";

/** The URL's form alone: a problem, or null. */
export function urlFormProblem(raw: string, rules: AddressRules): UrlProblem | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "invalid";
  }
  if (url.username || url.password || url.hash) return "invalid";
  if (url.protocol === "https:") return null;
  if (url.protocol !== "http:") return "invalid";
  return !rules.production && LOCAL_HOSTS.has(url.hostname) ? null : "httpsRequired";
}

type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses: LookupAddress[]) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );

/** The registration's check: the form, then (production) every address the host resolves to. */
export async function checkEndpointUrl(
  raw: string,
  rules: AddressRules,
  resolve: Resolver = systemResolver,
): Promise<UrlProblem | null> {
  const problem = urlFormProblem(raw, rules);
  if (problem || !rules.production) return problem;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return "unresolvable";
  }
  if (addresses.length === 0) return "unresolvable";
  return addresses.some(isBlockedAddress) ? "privateAddress" : null;
}

/** The error a delivery's connection fails with when its address is refused. */
export class AddressRefusedError extends Error {
  readonly code = "EADDRREFUSED";
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that refuses blocked addresses in production: the check is on the addresses the
 * socket will connect to, after DNS, so a name that resolves differently at delivery time is still caught.
 */
export function guardedLookup(rules: AddressRules) {
  return (hostname: string, options: object, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "");
      if (rules.production && addresses.some((a) => isBlockedAddress(a.address))) {
        return callback(new AddressRefusedError(`${hostname} resolves to a private address`), "");
      }
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`), "");
      callback(null, first.address, first.family);
    });
  };
}
