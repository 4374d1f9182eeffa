// The app's log: every line with secret keys redacted, one line per request, and storage faults
// reported once a minute a cause rather than once a request.
import { DEFAULT_CLIENT_RATE_LIMIT } from '../core/config'
import { jsonLine } from '../core/log-line'
import { redactSecrets } from '../core/ids'
import { pathAndQuery } from '../api/public/url'
import type { RequestNote } from '../api/public'
import type { Store } from '../store'
import { storageFaultText, type StorageFault } from '../store/db'

export type Log = (line: Record<string, unknown>) => void

/** A storage fault is logged at most this often (each cause apart), with the count of requests it refused meanwhile. */
export const STORAGE_LOG_EVERY_MS = 60_000

const STORAGE_FAULT_NAMES: Record<StorageFault, string> = {
  full: 'disk full',
  readonly: 'read-only database',
  io: 'I/O error',
}

/** Headers a proxy adds; a process looks for them in its first PROXY_LOOKS requests (a proxy in front sends them from the first). */
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'via']
const PROXY_LOOKS = 1000

/**
 * Without PUBLIC_BASE_URL: one warning line once a request shows a proxy in front, which the start's
 * warning (listen.ts warnNoBaseUrl) misses when the service listens on loopback behind it.
 */
export function proxyWarning(log: Log): (request: Request) => void {
  let left = PROXY_LOOKS
  return (request) => {
    if (left === 0) return
    left--
    const header = PROXY_HEADERS.find((name) => request.headers.has(name))
    if (header === undefined) return
    left = 0
    log({
      level: 'warn',
      message: `A request came through a proxy (it sent ${header}) while PUBLIC_BASE_URL is unset: links in pages, sitemaps and answers name each request's Host and scheme (http:// behind a TLS proxy), so they say Vary: Host and a shared cache keeps a copy for each Host sent. Set PUBLIC_BASE_URL to the address visitors use, such as https://stores.example.com`,
    })
  }
}

/**
 * With CLIENT_RATE_LIMIT unset: one warning line, at the first Query API request from a peer
 * TRUSTED_PROXIES does not name that sent X-Forwarded-For or Forwarded (clients.ts onProxy).
 */
export function untrustedProxy(log: Log): (peer: string) => void {
  let told = false
  return (peer) => {
    if (told) return
    told = true
    log({
      level: 'warn',
      message: `A Query API request came from ${peer} with X-Forwarded-For or Forwarded, and TRUSTED_PROXIES does not name that address: the limit per client address (CLIENT_RATE_LIMIT unset: ${DEFAULT_CLIENT_RATE_LIMIT} a minute) does not count requests through it, as its visitors would share its one address. Behind a proxy, set TRUSTED_PROXIES to its address (such as 127.0.0.1,::1) so that each visitor is counted; CLIENT_RATE_LIMIT=0 says the limit is off.`,
    })
  }
}

/** The most of a request's path its log line quotes. */
const LOGGED_PATH_CHARS = 512

/** `write` (default: a JSON line on stdout) with every string redacted, in a list too: a key sent where it does not belong (a public URL) must not reach the log either. */
export function redactingLog(write: Log = (line) => console.log(jsonLine(line))): Log {
  return (line) => {
    const safe: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(line)) safe[k] = Array.isArray(v) ? v.map(redacted) : redacted(v)
    write(safe)
  }
}
const redacted = (v: unknown) => (typeof v === 'string' ? redactSecrets(v) : v)

/**
 * The request id a proxy in front sent (nginx's $request_id, a load balancer's trace id), kept so
 * that its log and this one name the request alike: 8 to 64 characters of letters, digits and
 * . _ : - (nothing to inject into a header or a log line); null for none or any other.
 */
export function sentRequestId(request: Request): string | null {
  const id = request.headers.get('x-request-id')
  return id !== null && SENT_ID.test(id) ? id : null
}
const SENT_ID = /^[A-Za-z0-9._:-]{8,64}$/

/** The request's log line; returns the response. */
export function logRequest(log: Log, request: Request, response: Response, t0: number, s: RequestNote): Response {
  const target = pathAndQuery(request.url)
  const query = target.indexOf('?')
  const path = query === -1 ? target : target.slice(0, query)
  const line: Record<string, unknown> = {
    level: 'info', // a 500's error line, with its stack, is logged apart
    method: request.method,
    path,
    status: response.status,
    ms: Math.round((performance.now() - t0) * 100) / 100,
    locator: s.locator ?? null,
    request_id: s.id,
  }
  // The id of the secret key a Management API request sent (never the key): which script sent it.
  if (s.key !== undefined) line.key = s.key
  // A path of up to ~16 KB reaches here (Bun answers longer ones itself): its start, and its length.
  // Keys are redacted before the cut, which could leave too little of one for the pattern to find.
  if (path.length > LOGGED_PATH_CHARS)
    Object.assign(line, { path: `${redactSecrets(path).slice(0, LOGGED_PATH_CHARS)}...`, path_chars: path.length })
  log(line)
  return response
}

/**
 * Storage faults met by requests (disk full, read-only, I/O error): when each cause was last
 * logged, and the requests it refused since. One line a minute a cause, not one a request: a
 * sync script retrying against a full disk would write a line per request.
 */
export function storageFaultLog(store: Store, log: Log) {
  const seen = new Map<StorageFault, { loggedAt: number; refused: number }>()
  return {
    report(fault: StorageFault, error: unknown): void {
      const s = seen.get(fault) ?? { loggedAt: -Infinity, refused: 0 }
      seen.set(fault, s)
      s.refused++
      const now = performance.now()
      if (now - s.loggedAt < STORAGE_LOG_EVERY_MS) return
      // The path, SQLite's words and the count: no request data, so no key can reach the line.
      log({
        level: 'error',
        message: storageFaultText(fault, store.path),
        database: store.path,
        error: (error as Error)?.message,
        refused_requests: s.refused,
        next_report_in_s: STORAGE_LOG_EVERY_MS / 1000,
      })
      s.loggedAt = now
      s.refused = 0
    },
    /** After a write: once one commits again (store.writeFault() cleared), says so, once, and forgets the faults. */
    noteRecovered(): void {
      if (seen.size === 0 || store.writeFault() !== null) return
      const passed = [...seen.keys()].map((fault) => STORAGE_FAULT_NAMES[fault]).join(', ')
      log({
        level: 'info',
        message: `database writes succeed again: the ${passed} met before has passed`,
        database: store.path,
      })
      seen.clear()
    },
  }
}
export type StorageFaultLog = ReturnType<typeof storageFaultLog>
