// The server examples/sync.ts runs against in a test file: started once for the file, on a database
// of its own in a temporary folder, with a locator made by the CLI whose secret key the sync uses.
import { afterAll, beforeAll, expect } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner, type Running, serverUrl, startServer, tempDir } from '../helpers'

const ROOT = join(import.meta.dir, '..', '..')

export type SyncServer = {
  /** The temporary folder: the database (sync.db) and the files a test writes. */
  dir: string
  /** The server's base URL. */
  url: string
  /** The locator's secret key. */
  key: string
  /** The parsed --json output of a CLI command on the server's database. */
  json: (...argv: string[]) => any
}

/** The line a sync prints first once the service answers: the locator its key writes. */
export const LOCATOR_LINE = /^locator ".*" \(lct_[0-9a-z]{16}\)\n/

/**
 * A sync's run with its report after that first line, which it checks is there: every run the
 * service answered names the locator it writes before anything else.
 */
export function reported<T extends { stdout: string }>(run: T): T {
  if (run.stdout === '') return run
  expect(run.stdout).toMatch(LOCATOR_LINE)
  return { ...run, stdout: run.stdout.replace(LOCATOR_LINE, '') }
}

/**
 * Hooks registered here start the server before the file's tests and remove it all after them.
 * `geocoder`: the server's GEOCODER; none unless the test places addresses.
 */
export function syncServer(geocoder = 'none'): SyncServer {
  let server: Running | undefined
  const served: SyncServer = { dir: '', url: '', key: '', json: cliRunner(() => join(served.dir, 'sync.db')).json }
  beforeAll(async () => {
    served.dir = tempDir()
    served.key = served.json('locator', 'create', '--name', 'Sync').key.secret_key
    server = startServer(join(served.dir, 'sync.db'), { GEOCODER: geocoder })
    served.url = await serverUrl(server)
  })
  afterAll(() => {
    server?.proc.kill()
    rmSync(served.dir, { recursive: true, force: true })
  })
  return served
}

/**
 * examples/sync.ts run in step (spawnSync) against the server: `sync` on a CSV text (stores.csv),
 * `syncFile` on a file of its own name, `syncAs` with another locator's key; `stores`: the
 * locator's stores as the Management API lists them.
 */
export function syncRunners(served: SyncServer) {
  const syncAs = (apiKey: string, name: string, text: string, ...flags: string[]) => {
    const file = join(served.dir, name)
    writeFileSync(file, text)
    const p = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), file, ...flags], {
      cwd: ROOT,
      env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: apiKey },
    })
    return reported({ code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() })
  }
  const syncFile = (name: string, text: string, ...flags: string[]) => syncAs(served.key, name, text, ...flags)
  const sync = (csv: string, ...flags: string[]) => syncFile('stores.csv', csv, ...flags)
  const stores = async (): Promise<{ external_id: string; name: string }[]> => {
    const res = await fetch(`${served.url}/admin/v1/locations?limit=500`, {
      headers: { authorization: `Bearer ${served.key}` },
    })
    return ((await res.json()) as any).locations
  }
  return { sync, syncFile, syncAs, stores }
}

/**
 * examples/sync.ts run on `text` (written to stores.csv) against `base`, the server or a stand-in
 * in front of it, without blocking this process; `flags` after the file, `env` beside the server's key.
 */
export async function runSync(
  served: SyncServer,
  base: string,
  text: string,
  flags: string[] = [],
  env: Record<string, string> = {},
) {
  return reported(await runSyncAsIs(served, base, text, flags, env))
}

/** runSync's run with its output as it came: its first line not checked, nor taken off. */
export async function runSyncAsIs(
  served: SyncServer,
  base: string,
  text: string,
  flags: string[] = [],
  env: Record<string, string> = {},
) {
  const file = join(served.dir, 'stores.csv')
  writeFileSync(file, text)
  const p = Bun.spawn([process.execPath, join(import.meta.dir, '..', '..', 'examples/sync.ts'), file, ...flags], {
    cwd: join(import.meta.dir, '..', '..'),
    env: { ...process.env, STORELOC_URL: base, STORELOC_KEY: served.key, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()])
  return { code: await p.exited, stdout, stderr }
}

/**
 * A stand-in for the server at its `url`: `answer` gets each request's body, `on`, which passes
 * the request on to the server (with `body` instead of its own when given), and the request, and answers it.
 */
export function standIn(
  served: SyncServer,
  answer: (
    body: string | undefined,
    on: (body?: string) => Promise<Response>,
    request: Request,
  ) => Response | Promise<Response>,
): { url: string; stop: () => void } {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const sent = request.method === 'POST' ? await request.text() : undefined
      const { pathname, search } = new URL(request.url)
      const on = (body = sent) =>
        fetch(`${served.url}${pathname}${search}`, { method: request.method, headers: request.headers, body })
      return answer(sent, on, request)
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) }
}
