// An upgrade as an operator makes it: a database of an older schema, a start of this version on
// it. The start's log says the schema moved, and from which version, in one process or with
// WORKERS; a start on a current file says nothing of it. Real processes, real files.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { MIGRATIONS } from '../src/store/migrations'
import { olderSchemaDatabase, startServer, tempDir } from './helpers'

let dir: string
beforeAll(() => (dir = tempDir()))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const schemaLines = (lines: string[]) =>
  lines.filter((l) => l.includes('database schema upgraded')).map((l) => JSON.parse(l))

for (const workers of ['1', '2']) {
  test(`WORKERS=${workers}: a start on an older schema logs the upgrade once, from which version to which`, async () => {
    const path = join(dir, `old-${workers}.db`)
    olderSchemaDatabase(path, 3)
    const server = startServer(path, { DEMO: '0', GEOCODER: 'none', WORKERS: workers })
    await server.waitFor(/"listening"/)
    const said = schemaLines(server.lines)
    expect(said).toHaveLength(1)
    expect(said[0]).toMatchObject({ level: 'info', database: path })
    expect(said[0].message).toStartWith(`database schema upgraded from version 3 to ${MIGRATIONS.length}:`)
    // Before `listening`: the log reads in the order things happened.
    expect(server.lines.findIndex((l) => l.includes('database schema upgraded'))).toBeLessThan(
      server.lines.findIndex((l) => l.includes('"listening"')),
    )
    server.proc.kill('SIGTERM')
    expect(await server.proc.exited).toBe(0)

    const again = startServer(path, { DEMO: '0', GEOCODER: 'none', WORKERS: workers })
    await again.waitFor(/"listening"/)
    expect(schemaLines(again.lines)).toEqual([])
    again.proc.kill('SIGTERM')
    expect(await again.proc.exited).toBe(0)
  })
}

test('a new database is made, not upgraded: its first start says nothing of a schema', async () => {
  const path = join(dir, 'new.db')
  const server = startServer(path, { DEMO: '0', GEOCODER: 'none' })
  await server.waitFor(/"listening"/)
  expect(schemaLines(server.lines)).toEqual([])
  server.proc.kill('SIGTERM')
  expect(await server.proc.exited).toBe(0)
})

test('a start that waits while another process upgrades the schema does not say it upgraded it', async () => {
  const path = join(dir, 'raced.db')
  olderSchemaDatabase(path, 3)
  // The other process: it holds the write lock before this start reads the version, and upgrades under it.
  const other = new Database(path)
  other.exec('BEGIN IMMEDIATE')
  const server = startServer(path, { DEMO: '0', GEOCODER: 'none' })
  try {
    await server.waitFor(/waiting for the database/)
    for (const migration of MIGRATIONS.slice(3)) other.exec(migration)
    other.exec(`PRAGMA user_version = ${MIGRATIONS.length}`)
    other.exec('COMMIT')
    await server.waitFor(/"listening"/)
    expect(schemaLines(server.lines)).toEqual([])
  } finally {
    other.close()
    server.proc.kill('SIGTERM')
  }
  expect(await server.proc.exited).toBe(0)
})
