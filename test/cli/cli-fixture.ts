// Shared by the tests of the storeloc CLI (cli-*.test.ts): a temporary database path for each test,
// the CLI run on it, and the Management API and row counts read from the same file.
import { afterEach, beforeEach } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { openStore } from '../../src/store'
import { cliRunner, tempDir, quietApp } from '../helpers'

export let dir: string
export let dbPath: string

/** Registers, in the calling test file, the hooks that give each test its own directory and database path. */
export function useTempDatabase(): void {
  beforeEach(() => {
    dir = tempDir()
    dbPath = join(dir, 'cli.db')
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))
}

export const { storeloc, json } = cliRunner(() => dbPath)

/** Calls the Management API on the same database file, as a running server would. */
export async function adminGet(key: string, path = '/admin/v1/locations') {
  const store = openStore(dbPath)
  try {
    const app = quietApp(store)
    const res = await app.handle(
      new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } }),
    )
    return { status: res.status, body: (await res.json()) as any }
  } finally {
    store.close()
  }
}

export const countRows = (table: string) => {
  const store = openStore(dbPath)
  try {
    return (store.db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
  } finally {
    store.close()
  }
}
