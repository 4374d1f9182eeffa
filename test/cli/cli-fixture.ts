// Shared by the tests of the storeloc CLI (cli-*.test.ts): a temporary database path for each test,
// the CLI run on it, and the Management API and row counts read from the same file.
import { openStore } from '../../src/store'
import { quietApp } from '../helpers'
import { dbPath } from './temp-database'

export { dbPath, dir, json, storeloc, useTempDatabase } from './temp-database'

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
