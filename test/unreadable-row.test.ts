// A location row the service did not write (a hand edit in sqlite3, another program), with text
// that is not JSON in a JSON column: the Management API's answers that include it are a 500, and
// the log's error line names the row and its column, and where the others are listed. A real
// server on a real file, edited under it.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner, serverUrl, startServer, storeBody, tempDir } from './helpers'

let dir: string
beforeAll(() => (dir = tempDir()))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a 500 from a row with text that is not JSON logs the location id and the column', async () => {
  const path = join(dir, 'edited.db')
  const { json } = cliRunner(() => path)
  const made = json('locator', 'create', '--name', 'Shop')
  const server = startServer(path, { DEMO: '0', GEOCODER: 'none' })
  try {
    const url = await serverUrl(server)
    const headers = { authorization: `Bearer ${made.key.secret_key}`, 'content-type': 'application/json' }
    const created = await fetch(`${url}/admin/v1/locations`, {
      method: 'POST',
      headers,
      body: JSON.stringify(storeBody({ name: 'Edited' })),
    })
    const { id } = ((await created.json()) as { location: { id: string } }).location
    const db = new Database(path)
    db.exec('PRAGMA busy_timeout = 5000') // the server may be writing (a town looked up)
    db.exec(`UPDATE locations SET special_hours = '{"2026-12-24": closed}' WHERE id = '${id}'`)
    db.close()
    const res = await fetch(`${url}/admin/v1/locations`, { headers })
    expect(res.status).toBe(500)
    const requestId = res.headers.get('x-request-id')!
    const line = JSON.parse(await server.waitFor(new RegExp(`"level":"error","request_id":"${requestId}"`)))
    expect(line.error).toStartWith(`location ${id}: its special_hours column is not JSON (`)
    expect(line.error).toEndWith('so the service did not write it: storeloc doctor lists every such row')
  } finally {
    server.proc.kill('SIGTERM')
    await server.proc.exited
  }
})
