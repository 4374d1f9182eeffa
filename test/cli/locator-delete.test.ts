// storeloc locator delete: a locator goes with all it holds, in one transaction, and a server
// already open on the file stops answering for it at its next request.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openStore } from '../../src/store'
import { quietApp, storeBody } from '../helpers'
import { waitingForLock } from '../process-waits'
import { dbPath, dir, json, storeloc, useTempDatabase } from './cli-fixture'

useTempDatabase()

/** A locator with something in each table that holds a locator's rows. */
function filled(name: string): { id: string; token: string; key: string } {
  const made = json('locator', 'create', '--name', name)
  const id = made.locator.id as string
  json('locator', 'set', id, '--query-api', 'on')
  json('custom-field', 'add', id, '--id', 'parking', '--name', 'Parking', '--type', 'text')
  const filters = join(dir, `${name}-filters.json`)
  writeFileSync(
    filters,
    JSON.stringify([{ id: 'kind', name: 'Kind', label: 'Kind', tags: [{ value: 'bikes', label: 'Bikes' }] }]),
  )
  json('filters', 'set', id, '--file', filters)
  const stores = join(dir, `${name}-stores.json`)
  const rows = Array.from({ length: 5 }, (_, i) => ({
    ...storeBody({ name: `${name} ${i}`, tags: ['bikes'] }),
    custom_fields: { parking: 'yes' },
  }))
  writeFileSync(stores, JSON.stringify(rows))
  json('locations', 'import', id, '--file', stores)
  const rules = join(dir, `${name}-rules.json`)
  writeFileSync(rules, JSON.stringify([{ custom_field: 'parking', value: 'yes' }]))
  json('priority', 'set', id, '--file', rules)
  return { id, token: made.locator.public_token, key: made.key.secret_key }
}

const TABLES = [
  'api_keys',
  'locations',
  'custom_fields',
  'filter_groups',
  'filter_tags',
  'priority_rules',
  'ranked_custom_values',
  'idempotency_keys',
]

test('locator delete removes a locator and its rows, refuses without --yes and for the last one', async () => {
  const gone = filled('Gone')
  const kept = filled('Kept')
  const store = openStore(dbPath)
  try {
    const app = quietApp(store)
    const query = (token: string) =>
      app.handle(new Request(`http://localhost/public/v1/${token}/locations?lat=51.5&lng=-0.12&radius=100`))
    const admin = (key: string) =>
      app.handle(
        new Request('http://localhost/admin/v1/locations', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'k1' },
          body: JSON.stringify(storeBody({ name: 'Extra' })),
        }),
      )
    expect((await admin(gone.key)).status).toBe(201)
    expect((await query(gone.token)).status).toBe(200)
    const rowsOf = (locator: string) =>
      Object.fromEntries(
        TABLES.map((t) => [
          t,
          (store.db.query(`SELECT count(*) AS n FROM ${t} WHERE locator_id = ?`).get(locator) as { n: number }).n,
        ]),
      )
    const before = rowsOf(gone.id)
    for (const t of TABLES) expect(before[t]).toBeGreaterThan(0)
    const keptBefore = rowsOf(kept.id)

    const unconfirmed = storeloc('locator', 'delete', gone.id)
    expect(unconfirmed.code).toBe(1)
    expect(unconfirmed.stderr).toContain('removes for good 6 locations, 1 key,')
    expect(unconfirmed.stderr).toContain('--yes')
    expect(rowsOf(gone.id)).toEqual(before)
    expect((await query(gone.token)).status).toBe(200)

    const out = json('locator', 'delete', gone.id, '--yes')
    expect(out).toMatchObject({
      deleted: { id: gone.id, name: 'Gone' },
      locations: { published: 6, draft: 0 },
      keys: 1,
    })
    for (const t of TABLES) expect(rowsOf(gone.id)[t]).toBe(0)
    expect(rowsOf(kept.id)).toEqual(keptBefore)
    // The server open on the file since before: the token names nothing, the key is unknown.
    const res = await query(gone.token)
    expect(res.status).toBe(404)
    expect(((await res.json()) as any).error.code).toBe('INVALID_TOKEN')
    expect((await admin(gone.key)).status).toBe(401)
    expect((await query(kept.token)).status).toBe(200)
    expect(storeloc('locator', 'show', gone.id).stderr).toContain(`No locator "${gone.id}"`)

    const last = storeloc('locator', 'delete', kept.id, '--yes')
    expect(last.code).toBe(1)
    expect(last.stderr).toContain('is the only locator')
    expect(last.stderr).toContain(`storeloc locator set ${kept.id} --active off`)
    expect(rowsOf(kept.id)).toEqual(keptBefore)
  } finally {
    store.close()
  }
})

test('locator delete of an unknown id says how to list them', () => {
  json('locator', 'create', '--name', 'A')
  json('locator', 'create', '--name', 'B')
  const r = storeloc('locator', 'delete', 'lct_nope', '--yes')
  expect(r.code).toBe(1)
  expect(r.stderr).toContain('storeloc locator list')
})

test('a command that waited for the lock while its locator was deleted says so and writes nothing', async () => {
  const made = json('locator', 'create', '--name', 'Going')
  json('locator', 'create', '--name', 'Staying')
  const id = made.locator.id as string
  const keyId = made.key.id as string
  const file = (name: string, body: unknown) => {
    const path = join(dir, name)
    writeFileSync(path, JSON.stringify(body))
    return path
  }
  const commands = [
    ['custom-field', 'add', id, '--id', 'parking', '--name', 'Parking', '--type', 'text'],
    ['filters', 'set', id, '--file', file('filters.json', [{ id: 'kind', name: 'Kind', label: 'Kind', tags: [] }])],
    ['priority', 'set', id, '--file', file('rules.json', [{ tag: 'bikes' }])],
    ['key', 'create', id],
    ['key', 'rotate', keyId],
    ['key', 'revoke', keyId],
    ['locator', 'set', id, '--radius', '10'],
    ['locator', 'rotate-token', id],
  ]
  // Another process holds the write lock: each command reads its locator, then waits for the lock.
  const holder = openStore(dbPath)
  holder.db.exec('BEGIN IMMEDIATE')
  const runs = commands.map((argv) =>
    Bun.spawn([process.execPath, join(import.meta.dir, '../../src/cli/main.ts'), ...argv], {
      env: { ...process.env, DATABASE_PATH: dbPath },
      stdout: 'pipe',
      stderr: 'pipe',
    }),
  )
  const stopped = new Set<number>()
  try {
    // Each has read its locator once it sleeps in SQLite's busy handler, and is stopped there until
    // the locator is gone. busy_timeout counts the handler's sleeps, not the time: however long a
    // loaded machine takes to start the others, none gives up on the lock meanwhile.
    while (stopped.size < runs.length) {
      for (const [i, run] of runs.entries()) {
        if (stopped.has(run.pid)) continue
        if (run.exitCode !== null)
          throw new Error(`${commands[i]!.join(' ')} ended before it waited: ${await new Response(run.stderr).text()}`)
        if (!waitingForLock(run.pid)) continue
        run.kill('SIGSTOP')
        stopped.add(run.pid)
      }
      await Bun.sleep(20)
    }
    holder.db.run('DELETE FROM locators WHERE id = ?', [id])
    holder.db.exec('COMMIT')
    for (const run of runs) run.kill('SIGCONT')
    stopped.clear()
    for (const [i, run] of runs.entries()) {
      const stderr = await new Response(run.stderr).text()
      expect({ command: commands[i]!.slice(0, 2), code: await run.exited }).toEqual({
        command: commands[i]!.slice(0, 2),
        code: 1,
      })
      expect(stderr).not.toContain('FOREIGN KEY')
      expect(stderr).toMatch(/No locator|No API key record/)
    }
    for (const table of ['api_keys', 'custom_fields', 'filter_groups', 'priority_rules']) {
      expect(holder.db.query(`SELECT count(*) AS n FROM ${table} WHERE locator_id = ?`).get(id)).toEqual({ n: 0 })
    }
  } finally {
    for (const run of runs) if (stopped.has(run.pid)) run.kill('SIGCONT')
    if (holder.db.inTransaction) holder.db.exec('ROLLBACK')
    holder.close()
  }
}, 60_000)
