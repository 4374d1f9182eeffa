// Whether this process can serve, and if not, why: GET /readyz's answer, and the status /metrics
// reports.
import { redactSecrets } from '../core/ids'
import { geodataDamage } from '../geocode/embedded/open'
import { storageFaultText } from '../store/db'
import { STORAGE_LOG_EVERY_MS } from './app-log'
import type { ServiceDeps } from './app-routes'

/** Every status GET /readyz answers while serving (a stop's "stopping" is the drain's). */
export const READY_STATUSES = ['ready', 'degraded', 'loading', 'failed'] as const

export type Readiness = {
  status: (typeof READY_STATUSES)[number]
  message?: string
  locators?: string[]
  /** 200 while queries are answered; 503 otherwise. */
  httpStatus: number
}

/** The readiness of the process serving `deps`; throws what reading the database throws. */
export function readinessOf(deps: Pick<ServiceDeps, 'store' | 'registry' | 'preloading'>): Readiness {
  const { store, registry } = deps
  store.db.query('SELECT 1').get()
  const refused = store.damaged() ?? store.fileMoved()
  if (refused !== null) return { status: 'failed', message: refused.message, httpStatus: 503 }
  if (deps.preloading() > 0)
    return {
      status: 'loading',
      message: "The locators' indexes are being built; public queries are answered meanwhile, more slowly.",
      httpStatus: 503,
    }
  // Writes refused by the storage in the last minute, none written since: public queries and
  // Management API reads are answered, so ready (200, as for a locator that cannot be built):
  // every server on this file meets the same disk, and a load balancer would drop them all.
  const fault = store.writeFault()
  if (fault !== null && performance.now() - fault.at < STORAGE_LOG_EVERY_MS) {
    return {
      status: 'degraded',
      message: `Writes are refused: ${storageFaultText(fault.fault, store.path)} Public queries are answered meanwhile.`,
      httpStatus: 200,
    }
  }
  const failed = registry.buildFailures()
  if (failed.length > 0) {
    const message = `${failed.map((f) => redactSecrets(f.message)).join('; ')}. Public queries to ${failed.length === 1 ? 'that locator' : 'those locators'} fail until the rows are repaired (tried again every ${registry.buildRetryMs / 1000} s, no restart needed).`
    const locators = failed.map((f) => f.locatorId)
    // Unready only when no public locator can be served: the others' queries are answered, and
    // every server on this database meets the same rows (a load balancer would drop them all).
    const servable = store.locators.list().some((l) => l.active && l.queryApiEnabled && !locators.includes(l.id))
    return { status: servable ? 'degraded' : 'failed', message, locators, httpStatus: servable ? 200 : 503 }
  }
  // Places and addresses cannot be looked up; queries by lat/lng and writes with coordinates go on.
  const geodata = geodataDamage()
  if (geodata !== null) return { status: 'degraded', message: geodata, httpStatus: 200 }
  return { status: 'ready', httpStatus: 200 }
}

/** readinessOf's status, "failed" when the database cannot be read (/readyz answers 503 then too). */
export function statusNow(deps: Parameters<typeof readinessOf>[0]): Readiness['status'] {
  try {
    return readinessOf(deps).status
  } catch {
    return 'failed'
  }
}
