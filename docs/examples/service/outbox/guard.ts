/**
 * Where the relay may send webhooks (docs/service.md, "Where webhooks may go"): the URLs come from
 * API callers, so without a guard the service would POST wherever they point it — its own
 * loopback, the private network behind it, a cloud's metadata service (server-side request
 * forgery).
 *
 * The rule is checked on the address the socket connects to, never on the name: a literal address
 * in the URL before any connection is made, a name after it is resolved and before it is
 * connected to (send.ts connects only to the addresses checked here). Only global unicast
 * addresses pass (ipaddr.js classifies them); loopback, private, link-local, carrier-grade NAT,
 * multicast, unique-local, unspecified, reserved, the IPv6 ranges that carry an IPv4 address
 * (IPv4-mapped, NAT64, 6to4, Teredo: judged by their IPv4 address or refused) and the cloud
 * metadata addresses are refused, unless an operator's allow-list names the network (never the
 * metadata addresses). Plain `http` is allowed in development and to allow-listed networks only.
 */
import ipaddr from 'ipaddr.js'

/** What the relay may reach (config.ts, `WEBHOOK_ALLOW_NETWORKS`, development mode). */
export interface TargetPolicy {
  /** Plain http to any permitted address (development mode); otherwise only to allow-listed networks. */
  readonly allowHttp: boolean
  /** Networks (CIDR, or one address) the relay may reach although they are not public. */
  readonly allowNetworks: ReadonlyArray<string>
}

/** The development default of the allow-list: this machine's loopback receivers. */
export const loopbackNetworks: ReadonlyArray<string> = ['127.0.0.0/8', '::1/128']

/**
 * Cloud metadata services and platform endpoints that answer credentials to whoever asks from
 * inside (AWS, GCP, Azure, OpenStack, DigitalOcean: 169.254.169.254; AWS IPv6 fd00:ec2::254; ECS
 * task credentials 169.254.170.2; Alibaba 100.100.100.200; Oracle 192.0.0.192; Azure's wire
 * server 168.63.129.16, a public address). Refused even when an allow-list covers them.
 */
export const metadataAddresses: ReadonlyArray<string> = [
  '169.254.169.254',
  '169.254.170.2',
  '169.254.170.23',
  'fd00:ec2::254',
  '100.100.100.200',
  '192.0.0.192',
  '168.63.129.16'
]
const metadata = new Set(metadataAddresses.map((a) => ipaddr.parse(a).toNormalizedString()))

/** A parsed CIDR of the allow-list. */
type Network = readonly [ipaddr.IPv4 | ipaddr.IPv6, number]

/** Parses one allow-list entry (`10.0.0.0/8`, `::1`, `127.0.0.1`); throws with the entry named. */
export const parseNetwork = (entry: string): Network => {
  try {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry)
    const a = ipaddr.parse(entry)
    return [a, a.kind() === 'ipv4' ? 32 : 128]
  } catch {
    throw new Error(`"${entry}" is not an IP address or a CIDR range`)
  }
}

/** An address as the socket would reach it: IPv4-mapped IPv6 (`::ffff:127.0.0.1`) as its IPv4 address. */
const canonical = (address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined => {
  // an IPv6 zone (fe80::1%eth0) is link-local anyway; ipaddr keeps the zone apart
  if (!ipaddr.isValid(address)) return undefined
  return ipaddr.process(address)
}

const inNetwork = (a: ipaddr.IPv4 | ipaddr.IPv6, [net, bits]: Network): boolean =>
  a.kind() === net.kind() && (a as ipaddr.IPv4).match(net, bits)

/**
 * Why the relay must not connect to `address` (a reason for the outbox row), or undefined when it
 * may: global unicast, or inside an allow-listed network; a metadata address never.
 */
export const addressRefusal = (address: string, allow: ReadonlyArray<Network>): string | undefined => {
  const a = canonical(address)
  if (a === undefined) return `"${address}" is not an IP address`
  const shown = a.toString()
  if (metadata.has(a.toNormalizedString())) return `address ${shown} is a cloud metadata address`
  if (allow.some((n) => inNetwork(a, n))) return undefined
  const range = a.range()
  if (range === 'unicast') return undefined
  return `address ${shown} is not public (${range})`
}

/** A policy with its networks parsed once. */
export interface Guard {
  readonly allowHttp: boolean
  readonly networks: ReadonlyArray<Network>
}

export const guardOf = (policy: TargetPolicy): Guard => ({ allowHttp: policy.allowHttp, networks: policy.allowNetworks.map(parseNetwork) })

/** The URL's host as an IP address when it is one (`[::1]` → `::1`), else undefined (a name). */
export const literalAddress = (url: URL): string | undefined => {
  const host = url.hostname.startsWith('[') && url.hostname.endsWith(']') ? url.hostname.slice(1, -1) : url.hostname
  return ipaddr.isValid(host) && (host.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(host)) ? host : undefined
}

/**
 * What can be decided from the URL alone, before anything is resolved or connected: the scheme,
 * and a literal address. Undefined: go on (a name is checked on its resolved addresses).
 */
export const urlRefusal = (url: URL, guard: Guard): string | undefined => {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `scheme ${url.protocol} is not http(s)`
  if (url.username !== '' || url.password !== '') return 'credentials in the url are not sent'
  const literal = literalAddress(url)
  if (literal !== undefined) {
    const refused = addressRefusal(literal, guard.networks)
    if (refused !== undefined) return refused
    return httpRefusal(url, [literal], guard)
  }
  // a name over plain http with no allow-list: no address could pass, so it is not even resolved
  if (url.protocol === 'http:' && !guard.allowHttp && guard.networks.length === 0) return HTTP_REFUSED
  return undefined
}

const HTTP_REFUSED = 'plain http is allowed only to allow-listed networks outside development; use https'

/** Plain http: only in development, or when every address is allow-listed (a local receiver). */
export const httpRefusal = (url: URL, addresses: ReadonlyArray<string>, guard: Guard): string | undefined => {
  if (url.protocol !== 'http:' || guard.allowHttp) return undefined
  const allListed = addresses.every((address) => {
    const a = canonical(address)
    return a !== undefined && guard.networks.some((n) => inNetwork(a, n))
  })
  return allListed ? undefined : HTTP_REFUSED
}

/** A name's resolved addresses judged together: one refused address refuses the name (no picking). */
export const resolvedRefusal = (url: URL, addresses: ReadonlyArray<string>, guard: Guard): string | undefined => {
  if (addresses.length === 0) return `${url.hostname} resolved to no address`
  for (const address of addresses) {
    const refused = addressRefusal(address, guard.networks)
    if (refused !== undefined) return `${url.hostname} → ${refused}`
  }
  return httpRefusal(url, addresses, guard)
}

/** The URL as shown in logs and the dead-letter list: no query string, no credentials. */
export const shownUrl = (raw: string): string => {
  try {
    const u = new URL(raw)
    return `${u.protocol}//${u.host}${u.pathname}${u.search !== '' ? '?…' : ''}`
  } catch {
    return '(not a url)'
  }
}
