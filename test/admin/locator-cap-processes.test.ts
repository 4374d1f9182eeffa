// LOCATOR_MAX_LOCATIONS between processes: a running server counts what the CLI imported into its
// database file meanwhile, at its next create.
import { afterAll, expect, test } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createLocator } from '../../src/operator'
import { openStore } from '../../src/store'
import { cliRunner, type Running, serverUrl, startServer, storeBody, tempDir } from '../helpers'

const dir = tempDir()
const db = join(dir, 'cap.db')
let server: Running | undefined
afterAll(async () => {
  server?.proc.kill('SIGTERM')
  await server?.proc.exited
  rmSync(dir, { recursive: true, force: true })
})

test("a server's creates are refused once the CLI has imported up to LOCATOR_MAX_LOCATIONS", async () => {
  const store = openStore(db)
  const { locator, secret } = createLocator(store, 'Imported')
  store.close()
  server = startServer(db, { LOG_REQUESTS: '0', LOCATOR_MAX_LOCATIONS: '3' })
  const url = await serverUrl(server)
  const create = (name: string) =>
    fetch(`${url}/admin/v1/locations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(storeBody({ name })),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))
  expect((await create('Before')).status).toBe(201)
  const file = join(dir, 'stores.json')
  writeFileSync(file, JSON.stringify([storeBody({ name: 'CLI 1' }), storeBody({ name: 'CLI 2' })]))
  cliRunner(() => db).json('locations', 'import', locator.id, '--file', file)
  const refused = await create('After')
  expect([refused.status, refused.body.error]).toEqual([400, 'limit_exceeded'])
  expect(refused.body.message).toStartWith(
    `The locator ${locator.id} holds 3 locations and this request would create 1 more`,
  )
}, 60_000)
