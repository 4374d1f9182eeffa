// A real app on a temporary store whose log lines are kept, with a geocoder that throws: what the
// tests of failures, request logs and request ids share.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { RateLimiter } from '../../src/api/public/guards'
import type { Geocoder } from '../../src/geocode/geocoder'
import { createLocator } from '../../src/operator'
import { createApp } from '../../src/server/app'
import { openStore, type Store } from '../../src/store'
import { tempDir } from '../helpers'

export const SECRET_TEXT = 'secret internals: db password hunter2 at /srv/private/geocoder.ts'

export type Harness = {
  store: Store
  lines: Record<string, unknown>[]
  key: string
  /** Answers the app sent from its answer cache. */
  cacheHits: () => number
  /**
   * The request log lines (those with a status) that `pick` takes, once there are `n`: the wait is
   * for the lines, not for a time a loaded machine outlasts; the test's timeout ends a hang.
   */
  requestLines: (n: number, pick?: (line: Record<string, unknown>) => boolean) => Promise<Record<string, unknown>[]>
  call: (
    method: string,
    path: string,
    body?: unknown,
    key?: string | null,
    sent?: Record<string, string>,
  ) => Promise<{ status: number; text: string; body: any; headers: Headers }>
  close: () => void
}

/** Bun.serve's server as the app sees it: every request comes from one client address. */
const oneClient = { requestIP: () => ({ address: '198.51.100.7', family: 'IPv4', port: 40_000 }) }

/**
 * A real app on a temporary store with its own geocoder, capturing every log line. `pageRateLimit`:
 * PAGE_RATE_LIMIT, every request then from one client, on a clock that stands still.
 */
export function harness(geocoder: Geocoder, logRequests = false, pageRateLimit = 0): Harness {
  const dir = tempDir()
  const store = openStore(join(dir, 'test.db'))
  const lines: Record<string, unknown>[] = []
  const waiters = new Set<() => void>()
  const app = createApp({
    store,
    geocoder,
    config: { maxBodyBytes: 256 * 1024, logRequests, pageRateLimit },
    pageLimiter: new RateLimiter(() => 0),
    log: (line) => {
      lines.push(line)
      for (const check of waiters) check()
    },
  })
  const { secret } = createLocator(store, 'Errors')
  return {
    store,
    lines,
    key: secret,
    cacheHits: app.cacheHits,
    requestLines: (n, pick = () => true) =>
      new Promise((resolve) => {
        const check = () => {
          const found = lines.filter((l) => l.status !== undefined && pick(l))
          if (found.length < n) return
          waiters.delete(check)
          resolve(found)
        }
        waiters.add(check)
        check()
      }),
    async call(method, path, body, key = secret, sent = {}) {
      const headers: Record<string, string> = { ...sent }
      if (key !== null) headers.authorization = `Bearer ${key}`
      if (body !== undefined) headers['content-type'] = 'application/json'
      const res = await app.handle(
        new Request(`http://localhost${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        pageRateLimit > 0 ? oneClient : undefined,
      )
      const text = await res.text()
      let parsed: unknown = text
      try {
        parsed = JSON.parse(text)
      } catch {}
      return { status: res.status, text, body: parsed, headers: res.headers }
    },
    close() {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export const throwingGeocoder: Geocoder = {
  name: 'throwing',
  async geocode() {
    throw new Error(SECRET_TEXT)
  },
}
