// core/webhooks -> the SSRF guard of webhook targets (decisions.md §6, architecture.md "Security at a
// glance"): which endpoint addresses may be registered, and which IP addresses a delivery may connect to.
// Only https to public addresses; the local stack alone also accepts loopback http. Registration checks
// the URL here; every delivery checks it again and then every address its host resolves to (the HTTP
// sender does the resolving and connects to the checked address itself). Pure: no I/O.
import ipaddr from 'ipaddr.js';

export const MAX_URL_LENGTH = 2048;

/** The loopback hosts the local stack accepts, as `URL.hostname` spells them. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

export interface TargetPolicy {
  /** The local stack alone: http (or https) to 127.0.0.1, localhost and [::1], any port. */
  allowLoopbackHttp: boolean;
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254']);

/** Why an IPv4 range is not a delivery target; every range but `unicast` has a reason. */
const IPV4_REFUSALS: Record<string, string> = {
  unspecified: 'an unspecified address (0.0.0.0/8)',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (169.254.0.0/16)',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  private: 'a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)',
  reserved: 'a reserved or documentation address',
};

/** Why an IPv6 range is not a delivery target (IPv4-mapped addresses are judged by their IPv4 address). */
const IPV6_REFUSALS: Record<string, string> = {
  unspecified: 'the unspecified address (::)',
  linkLocal: 'a link-local address (fe80::/10)',
  multicast: 'a multicast address',
  loopback: 'a loopback address',
  uniqueLocal: 'a unique-local address (fc00::/7)',
  deprecatedSiteLocal: 'a site-local address (fec0::/10)',
  rfc6145: 'an IPv4-translated address that embeds an IPv4 address',
  rfc6052: 'a NAT64 address that embeds an IPv4 address',
  '6to4': 'a 6to4 address that embeds an IPv4 address',
  teredo: 'a Teredo address that embeds an IPv4 address',
  reserved: 'a reserved or documentation address',
  benchmarking: 'a reserved or documentation address',
  discard: 'a reserved or documentation address',
};

const OTHER_SPECIAL = 'a special-purpose address';

/**
 * IPv4 in dotted decimal only (no `127.1`, hex or octal), IPv6 as the URL standard reads it (no zone).
 * IPv6 goes through the URL parser first: ipaddr.js reads the deprecated `::a.b.c.d` as `::ffff:a.b.c.d`,
 * which would judge `::127.0.0.1` by its IPv4 part, while a socket would connect to `::7f00:1`.
 */
const parse = (ip: string): Address | null => {
  if (ipaddr.IPv4.isValidFourPartDecimal(ip)) return ipaddr.IPv4.parse(ip);
  if (!ip.includes(':') || ip.includes(']')) return null;
  let hostname: string;
  try {
    hostname = new URL(`http://[${ip}]/`).hostname;
  } catch {
    return null;
  }
  return ipaddr.IPv6.parse(hostname.slice(1, -1));
};

const ipv4Refusal = (address: ipaddr.IPv4): string | null => {
  if (METADATA_ADDRESSES.has(address.toString())) return 'the cloud metadata address';
  const range = address.range();
  return range === 'unicast' ? null : (IPV4_REFUSALS[range] ?? OTHER_SPECIAL);
};

const ipv6Refusal = (address: ipaddr.IPv6): string | null => {
  if (METADATA_ADDRESSES.has(address.toString())) return 'the cloud metadata address';
  if (address.isIPv4MappedAddress()) {
    const refusal = ipv4Refusal(address.toIPv4Address());
    return refusal === null ? null : `the IPv4-mapped form of ${refusal}`;
  }
  const range = address.range();
  // ::/96 apart from :: and ::1: the deprecated IPv4-compatible form, never a public destination.
  if (range === 'unicast' && address.match(ipaddr.IPv6.parse('::'), 96))
    return 'an IPv4-compatible address (deprecated, ::/96)';
  if (range !== 'unicast') return IPV6_REFUSALS[range] ?? OTHER_SPECIAL;
  // Everything outside 2000::/3 is unassigned or reserved by IANA.
  if (!address.match(ipaddr.IPv6.parse('2000::'), 3)) return 'outside the global unicast range (2000::/3)';
  return null;
};

/**
 * Why `ip` is not a public address a delivery may connect to, as a phrase ("a private address (…)"), or
 * null when it is public. Anything not a canonical IP address is refused.
 */
export const addressRefusal = (ip: string): string | null => {
  const address = parse(ip);
  if (address === null) return 'not an IP address';
  return address.kind() === 'ipv4'
    ? ipv4Refusal(address as ipaddr.IPv4)
    : ipv6Refusal(address as ipaddr.IPv6);
};

/** Whether a delivery may connect to `ip`: only globally routable unicast addresses are public. */
export const isPublicAddress = (ip: string): boolean => addressRefusal(ip) === null;

/** Whether `ip` is a loopback address (127.0.0.0/8, ::1, or IPv4-mapped 127/8). */
export const isLoopbackAddress = (ip: string): boolean => {
  const address = parse(ip);
  if (address === null) return false;
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    return v6.isIPv4MappedAddress() ? v6.toIPv4Address().range() === 'loopback' : v6.range() === 'loopback';
  }
  return address.range() === 'loopback';
};

/** The IP address a URL's host spells (`[::1]` → `::1`), or null when the host is a name. */
export const hostAddress = (url: URL): string | null => {
  const host = url.hostname;
  if (host.startsWith('[') && host.endsWith(']')) return host.slice(1, -1);
  return ipaddr.IPv4.isValidFourPartDecimal(host) ? host : null;
};

/** Whether the URL is one of the loopback forms the policy lets through (the local stack only). */
export const isAllowedLoopback = (url: URL, policy: TargetPolicy): boolean =>
  policy.allowLoopbackHttp &&
  (url.protocol === 'http:' || url.protocol === 'https:') &&
  LOOPBACK_HOSTS.includes(url.hostname);

const refuse = (reason: string): UrlCheck => ({ ok: false, reason });

/**
 * Whether `raw` may be a webhook endpoint address: absolute, https, no user name or password, no
 * fragment, at most 2048 characters, and a host that is a name or a public IP address. A name is checked
 * again, with every address it resolves to, at each delivery. The `url` is the parsed address; its `href`
 * is the form to store.
 */
export const checkEndpointUrl = (raw: string, policy: TargetPolicy): UrlCheck => {
  if (raw.length === 0) return refuse('it is empty');
  if (raw.length > MAX_URL_LENGTH) return refuse(`it is longer than ${MAX_URL_LENGTH} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u0020\u007f]/.test(raw)) return refuse('it contains spaces or control characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('it is not an absolute URL such as https://hooks.example.com/path');
  }
  if (url.username !== '' || url.password !== '')
    return refuse('it must not contain a user name or password');
  // `href` keeps even an empty fragment (`…/#`), which `hash` does not show.
  if (url.href.includes('#')) return refuse('it must not contain a fragment (#…)');
  if (url.href.length > MAX_URL_LENGTH) return refuse(`it is longer than ${MAX_URL_LENGTH} characters`);
  if (isAllowedLoopback(url, policy)) return { ok: true, url };
  if (url.protocol !== 'https:') return refuse(`it must use https, not ${url.protocol.slice(0, -1)}`);
  const host = url.hostname;
  if (host === '') return refuse('it has no host');
  const ip = hostAddress(url);
  if (ip !== null) {
    const refusal = addressRefusal(ip);
    return refusal === null ? { ok: true, url } : refuse(`its host ${host} is ${refusal}`);
  }
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === 'localhost' || name.endsWith('.localhost'))
    return refuse(`its host ${host} is a loopback name`);
  if (!name.includes('.')) return refuse(`its host ${host} is not a fully qualified domain name`);
  return { ok: true, url };
};
