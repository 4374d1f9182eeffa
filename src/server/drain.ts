// A stop that resets no request a client sent before it: first every answer tells its client to
// close the connection, until requests stop coming; then the port is closed and the requests
// under way are finished, up to a deadline.
import type { Server } from 'bun'
import { pathOf } from '../api/public/url'
import { harden } from './harden'

/** The drain ends once no request has come for this long... */
const QUIET_MS = 50
/** ...or after this long, whichever is first. */
const DRAIN_MAX_MS = 1000

/** Bun.serve's fetch: the server, which knows each request's socket address, second. */
type Fetch = (request: Request, server?: Server<unknown>) => Response | Promise<Response>

/** `fetch`, and a stop for the server that serves it (see the top of the file). */
export function drainable(fetch: Fetch) {
  let stopping = false
  let lastAt = 0
  // Not async: the public fast path's Response goes back to Bun in the same turn, no promise.
  const serve: Fetch = (request, server) => (stopping ? closing(request, server) : fetch(request, server))
  const closing = async (request: Request, server?: Server<unknown>): Promise<Response> => {
    lastAt = performance.now()
    if (pathOf(request.url) === '/readyz')
      return harden(
        Response.json(
          { status: 'stopping', message: 'The service is stopping.' },
          { status: 503, headers: { connection: 'close' } },
        ),
        false,
      )
    const response = await fetch(request, server)
    const headers = new Headers(response.headers)
    headers.set('connection', 'close')
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
  /**
   * Stops `server` (which serves `serve`): answers with Connection: close (/readyz 503 "stopping")
   * until requests stop coming, then closes the port and idle connections and waits for the
   * requests under way, for `deadlineMs` in all; what is left then is cut. Resolves with the
   * requests cut.
   */
  async function stop(server: Server<unknown>, deadlineMs: number): Promise<number> {
    stopping = true
    const start = performance.now()
    lastAt = start
    while (performance.now() - lastAt < QUIET_MS && performance.now() - start < Math.min(DRAIN_MAX_MS, deadlineMs / 2))
      await Bun.sleep(10)
    const left = Math.max(0, deadlineMs - (performance.now() - start))
    return finishOrCut(server, server.stop(false), left)
  }
  return { serve, stop }
}

/**
 * Waits for `closing` (`server`'s stop(false): its port closed, its requests under way being
 * answered) up to `deadlineMs`, then cuts what is left. Resolves with the requests cut.
 */
export async function finishOrCut(server: Server<unknown>, closing: Promise<unknown>, deadlineMs: number) {
  let timer: Timer | undefined
  const late = await Promise.race([
    closing.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), deadlineMs))),
  ])
  clearTimeout(timer)
  if (!late) return 0
  const cut = server.pendingRequests
  await server.stop(true)
  return cut
}
