// GET /metrics on a port of its own (METRICS_PORT, on METRICS_HOST: loopback by default), never on
// the APIs' port: a proxy or load balancer in front of the APIs cannot expose it by mistake. With
// METRICS_TOKEN set, a scrape must send it as a bearer token.
import { createHash, timingSafeEqual } from 'node:crypto'
import { pathOf } from '../api/public/url'
import type { MetricsConfig } from '../core/config'
import { harden } from './harden'
import { LOOPBACK, listenFault } from './listen'
import { CONTENT_TYPE, exposition, mergeFamilies, type ProcessFamilies } from './metrics-text'

type Log = (line: Record<string, unknown>) => void

/** SHA-256 of a token: compared digest to digest, equal lengths, in constant time. */
const digest = (token: string) => createHash('sha256').update(token).digest()

/** Whether the Authorization header carries the token (a scheme other than Bearer, or none, does not). */
function authorized(header: string | null, expected: Buffer): boolean {
  const match = header === null ? null : /^Bearer +(\S+) *$/i.exec(header)
  return match !== null && timingSafeEqual(digest(match[1]!), expected)
}

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } })

/**
 * Listens on the metrics port and answers GET /metrics with `gather()`'s families in Prometheus's
 * text format; anything else 404 or 405. Logs where it listens (never the token). A StartError
 * when the port cannot be had.
 */
export function serveMetrics(config: MetricsConfig, gather: () => Promise<ProcessFamilies[]>, log: Log) {
  const expected = config.token === null ? null : digest(config.token)
  const answer = async (request: Request): Promise<Response> => {
    if (pathOf(request.url) !== '/metrics') return text(404, 'This port serves GET /metrics only.\n')
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return text(405, 'GET /metrics only.\n', { allow: 'GET, HEAD' })
    if (expected !== null && !authorized(request.headers.get('authorization'), expected))
      return text(401, 'Send the metrics token (METRICS_TOKEN) as "Authorization: Bearer <token>".\n', {
        'www-authenticate': 'Bearer realm="metrics"',
      })
    try {
      const body = exposition(mergeFamilies(await gather()))
      return new Response(body, { headers: { 'content-type': CONTENT_TYPE, 'cache-control': 'no-store' } })
    } catch (e) {
      log({ level: 'error', message: 'metrics not gathered', error: (e as Error)?.message, stack: (e as Error)?.stack })
      return text(500, 'The metrics could not be gathered; the error was logged.\n')
    }
  }
  const fetch = async (request: Request) => harden(await answer(request), true)
  let server: ReturnType<typeof Bun.serve>
  try {
    server = Bun.serve({ hostname: config.host, port: config.port, fetch })
  } catch (e) {
    throw listenFault(e, 'Cannot listen for metrics', config.host, config.port, {
      host: 'METRICS_HOST (--metrics-host)',
      port: 'METRICS_PORT (--metrics-port)',
    })
  }
  log({
    level: 'info',
    message: 'metrics listening',
    url: `http://${server.hostname}:${server.port}/metrics`,
    token_required: expected !== null,
  })
  if (expected === null && !LOOPBACK.test(config.host))
    log({
      level: 'warn',
      message:
        'metrics are served beyond this machine (METRICS_HOST) without METRICS_TOKEN: anyone who reaches the port can read them',
    })
  return server
}
