// Which client a public request comes from, for the per-address rate limit: the socket's address,
// or the one a trusted proxy names in Forwarded or X-Forwarded-For. Forwarding headers are read
// only from a peer in TRUSTED_PROXIES: anyone else could name any address in them.
import { BlockList, isIP } from 'node:net'

/** What Bun.serve's server gives: the socket's address of a request (null for a closed one). */
export type Peer = { requestIP(request: Request): { address: string } | null }

/**
 * Whether an address (IPv4, or IPv6 as Bun writes it) is no one visitor's for sure: loopback,
 * private, link-local, shared (CGNAT), unique local. A connection from one is a proxy's, a
 * container network's or a NAT's. By hand: BlockList.check costs about a microsecond.
 */
function isSharedAddress(address: string): boolean {
  if (address.includes(':'))
    return address === '::1' || address === '::' || /^(f[cd]|fe[89ab])[0-9a-f]{2}:/i.test(address)
  const dot = address.indexOf('.')
  const a = Number(address.slice(0, dot))
  const b = Number(address.slice(dot + 1, address.indexOf('.', dot + 1)))
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b < 128) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b < 32) ||
    (a === 192 && b === 168)
  )
}

/**
 * Which requests a client key is found for: `all`, or `seen` (CLIENT_RATE_LIMIT unset) those whose
 * client is known for sure; `loopback` is `seen` for a service listening on this machine's loopback
 * only, whose peers are all this machine's.
 */
export type ClientScope = 'all' | 'seen' | 'loopback'

/** Whether a request names a client it forwards (X-Forwarded-For or Forwarded): a proxy's, or a forged one. */
const forwards = (request: Request) => request.headers.has('x-forwarded-for') || request.headers.has('forwarded')

/**
 * The client key of a request sent by `peer` (null: none known, so no per-client count): its
 * address, IPv4-mapped IPv6 written as IPv4, IPv6 cut to its /64 (one host's usual share).
 * With scope `seen`, only a client a trusted proxy names, or a public socket address: any other
 * may be a proxy or a NAT whose visitors would share one count. Without TRUSTED_PROXIES, a peer
 * that sends a forwarding header is not counted either (a proxy no one named, or a forged
 * header), and `onProxy` hears of it; with them, it is counted by its own address.
 */
export function clientResolver(
  trustedProxies: string[],
  scope: ClientScope = 'all',
  onProxy?: (peer: string) => void,
): (request: Request, peer: Peer | undefined) => string | null {
  const trusted = new BlockList()
  for (const entry of trustedProxies) {
    const [address, prefix] = entry.split('/') as [string, string]
    trusted.addSubnet(address, Number(prefix), isIP(address) === 6 ? 'ipv6' : 'ipv4')
  }
  const isTrusted = (address: string) => trustedProxies.length > 0 && trusted.check(address, familyOf(address))
  if (scope === 'loopback' && trustedProxies.length === 0) {
    // No peer is counted: the socket's address (a microsecond's work) is read only to name a proxy.
    let told = false
    return (request, peer) => {
      if (!told && forwards(request)) {
        const socket = peer?.requestIP(request)?.address
        told = socket !== undefined
        if (socket !== undefined) onProxy?.(plain(socket))
      }
      return null
    }
  }
  return (request, peer) => {
    const socket = peer?.requestIP(request)?.address
    if (!socket) return null
    let client = plain(socket)
    if (!isTrusted(client)) {
      if (scope === 'all') return clientKey(client)
      const unnamed = trustedProxies.length === 0 && forwards(request)
      if (unnamed) onProxy?.(client)
      return unnamed || isSharedAddress(client) ? null : clientKey(client)
    }
    // From the nearest hop back: the first address no trusted proxy has is the client's.
    const hops = forwardedFor(request.headers)
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!
      if (isIP(hop) === 0) break // "unknown", an obfuscated name: the last proxy is the client
      client = plain(hop)
      if (!isTrusted(client)) break
    }
    return clientKey(client)
  }
}

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4')

/** "::ffff:1.2.3.4" as "1.2.3.4"; anything else as it is. */
const plain = (address: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address)

/** An IPv4 address as it is; an IPv6 one as its first four groups (its /64), "2001:db8:0:1::/64". */
function clientKey(address: string): string {
  if (isIP(address) !== 6 || address.includes('.')) return address
  const [head = '', tail] = address.toLowerCase().split('::') as [string, string | undefined]
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`
}

/**
 * The addresses a request's proxies named, the client's first: Forwarded's for= when sent (RFC
 * 7239), else X-Forwarded-For. Quotes, brackets and ports are dropped; what is no address is kept
 * as it is, and ends the walk back.
 */
function forwardedFor(headers: Headers): string[] {
  const forwarded = headers.get('forwarded')
  if (forwarded !== null) {
    const out: string[] = []
    for (const element of forwarded.split(',')) {
      const pair = element.split(';').find((p) => p.trim().toLowerCase().startsWith('for='))
      out.push(pair === undefined ? '' : hostOf(pair.trim().slice(4).replace(/^"|"$/g, '')))
    }
    return out
  }
  const list = headers.get('x-forwarded-for')
  return list === null ? [] : list.split(',').map((hop) => hostOf(hop.trim()))
}

/** "[2001:db8::1]:4711" as "2001:db8::1", "192.0.2.1:80" as "192.0.2.1". */
function hostOf(hop: string): string {
  if (hop.startsWith('[')) return hop.slice(1, hop.indexOf(']') === -1 ? undefined : hop.indexOf(']'))
  const colon = hop.indexOf(':')
  return colon !== -1 && colon === hop.lastIndexOf(':') ? hop.slice(0, colon) : hop
}
