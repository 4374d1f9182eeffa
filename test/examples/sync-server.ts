// The server examples/sync.ts runs against in a test file: started once for the file, on a database
// of its own in a temporary folder, with a locator made by the CLI whose secret key the sync uses.
import { afterAll, beforeAll } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner, type Running, serverUrl, startServer, tempDir } from '../helpers'

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
