// The bulk endpoint: the same rows sent to POST /admin/v1/locations/bulk, BULK_MAX_ITEMS a request,
// one request after the other from one client, to the service on a fresh locator.
import { join } from 'node:path'
import { BULK_MAX_ITEMS } from '../../src/locations/bulk'
import { ROOT } from '../http/options'
import { CLK_TCK, procTable, stopChild, tree } from '../http/processes'
import { startService, waitForLine, waitReady } from '../http/servers'
import { countRows, cpuMark, freshLocator, otherCpu } from './cli'

export type BulkRun = {
  /** From the first request sent to the last answer read. */
  totalMs: number
  requests: number
  /** Each request's time, in order. */
  requestMs: number[]
  /** The server's CPU over the requests, in cores. */
  serverCpu: number
  otherCpu: number
  /** The locator's rows once done: every item sent. */
  rows: number
}

/**
 * One run: a fresh database and locator (Query API on), the service started on it as the HTTP
 * bench starts it, then `bodies` in requests of BULK_MAX_ITEMS, JSON made before the clock starts.
 * Every answer must be 200 with as many created as sent.
 */
export async function bulkRun(dir: string, bodies: Record<string, unknown>[], run: number): Promise<BulkRun> {
  const db = join(dir, `bulk-${run}.db`)
  const { locatorId, secret } = freshLocator(db, `Bulk import ${run}`)
  const server = startService(join(ROOT, 'src/main.ts'), db, 1)
  try {
    await waitReady(server, '/readyz')
    await waitForLine(server, '"listening"')
    const requests: string[] = []
    for (let i = 0; i < bodies.length; i += BULK_MAX_ITEMS)
      requests.push(JSON.stringify({ locations: bodies.slice(i, i + BULK_MAX_ITEMS) }))
    const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }
    const from = cpuMark()
    const serverTicks = () => tree(server.pid).reduce((sum, p) => sum + (procTable().get(p)?.ticks ?? 0), 0)
    const ticks0 = serverTicks()
    const requestMs: number[] = []
    const t0 = performance.now()
    for (const [i, body] of requests.entries()) {
      const t = performance.now()
      const r = await fetch(`${server.base}/admin/v1/locations/bulk`, { method: 'POST', headers, body })
      const answer = (await r.json()) as { created?: number }
      requestMs.push(performance.now() - t)
      const sent = Math.min(BULK_MAX_ITEMS, bodies.length - i * BULK_MAX_ITEMS)
      if (r.status !== 200 || answer.created !== sent)
        throw new Error(`bulk request ${i + 1} answered ${r.status}: ${JSON.stringify(answer).slice(0, 500)}`)
    }
    const totalMs = performance.now() - t0
    const serverCpu = (serverTicks() - ticks0) / CLK_TCK / (totalMs / 1000)
    return {
      totalMs,
      requests: requests.length,
      requestMs,
      serverCpu,
      otherCpu: otherCpu(from, [server.pid]),
      rows: countRows(db, locatorId),
    }
  } finally {
    await stopChild(server.child)
  }
}
