// store.writeSoon(fn): writes queued in one turn of the event loop commit in one transaction, each
// in a savepoint of its own, so one that throws is undone alone; a transaction that cannot begin
// or commit rejects every write in it and keeps none. The Management API's writes go this way.
import { Database } from 'bun:sqlite'
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { setLocatorSettings } from '../../src/operator'
import { isBusyError } from '../../src/store/db'
import { locationRecord, makeEnv, storeBody, type TestEnv } from '../helpers'

let env: TestEnv
beforeEach(() => (env = makeEnv()))
afterEach(() => env.close())

/** Inserts a location named `name` (inside a write); returns its id. */
function insert(name: string): string {
  const record = locationRecord(env.locatorId, { ...storeBody(), name })
  env.store.locations.insert(record)
  return record.id
}

const names = () =>
  (env.store.db.query('SELECT name FROM locations ORDER BY name').all() as { name: string }[]).map((r) => r.name)
const changeCount = () => (env.store.db.query('SELECT count(*) AS n FROM changes').get() as { n: number }).n

/**
 * Runs `fn` while another connection holds the write lock (released at its end if `fn` did not),
 * with the store's connection waiting at most `busyTimeoutMs` for it.
 */
async function withLockHeld(busyTimeoutMs: number, fn: (other: Database) => Promise<void>): Promise<void> {
  const other = new Database(join(env.dir, 'test.db'))
  try {
    env.store.db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`)
    other.exec('BEGIN IMMEDIATE')
    await fn(other)
  } finally {
    if (other.inTransaction) other.exec('ROLLBACK')
    other.close()
  }
}

describe('store.writeSoon', () => {
  test('writes queued in one turn run at the next, in one commit; each promise resolves with its own value', async () => {
    const writes = env.store.writeCount()
    const changes = changeCount()
    const pending = ['a', 'b', 'c', 'd', 'e'].map((name) => env.store.writeSoon(() => insert(name)))
    expect(names()).toEqual([]) // not run yet
    const ids = await Promise.all(pending)
    expect(env.store.writeCount()).toBe(writes + 1)
    expect(names()).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(changeCount()).toBe(changes + 5)
    for (const [i, id] of ids.entries()) expect(env.store.locations.get(env.locatorId, id)?.name).toBe('abcde'[i])
  })

  test('a write that throws is undone alone: its rows and change entries are gone, its promise rejects with its error, the others commit', async () => {
    const changes = changeCount()
    const failure = new Error('refused half-way')
    const results = await Promise.allSettled([
      env.store.writeSoon(() => insert('first')),
      env.store.writeSoon(() => {
        insert('half-written')
        throw failure
      }),
      env.store.writeSoon(() => insert('last')),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((results[1] as PromiseRejectedResult).reason).toBe(failure)
    expect(names()).toEqual(['first', 'last'])
    expect(changeCount()).toBe(changes + 2)
  })

  test('later writes in the same commit see the earlier ones', async () => {
    const [id, seen] = await Promise.all([env.store.writeSoon(() => insert('one')), env.store.writeSoon(() => names())])
    expect(seen).toEqual(['one'])
    expect(env.store.locations.get(env.locatorId, id)).not.toBeNull()
  })

  test('when SQLite ends the transaction during a write, every write in it rejects with that error, none after it runs, and none is kept', async () => {
    const ended = new Error('disk full, say')
    const ran: string[] = []
    const results = await Promise.allSettled([
      env.store.writeSoon(() => (ran.push('before'), insert('before'))),
      env.store.writeSoon(() => {
        ran.push('ending')
        env.store.db.exec('ROLLBACK') // as SQLite does by itself on SQLITE_FULL, an I/O error or busy
        throw ended
      }),
      env.store.writeSoon(() => (ran.push('after'), insert('after'))),
    ])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected'])
    for (const r of results) expect((r as PromiseRejectedResult).reason).toBe(ended)
    expect(ran).toEqual(['before', 'ending'])
    expect(names()).toEqual([])
    await env.store.writeSoon(() => insert('next'))
    expect(names()).toEqual(['next'])
  })

  test('when the commit fails after every write ran (a foreign key checked at commit), every write rejects and none is kept', async () => {
    const results = await Promise.allSettled([
      env.store.writeSoon(() => insert('fine')),
      env.store.writeSoon(() => {
        env.store.db.exec('PRAGMA defer_foreign_keys = ON')
        env.store.db.run(
          "INSERT INTO custom_fields (locator_id, id, name, type, position) VALUES ('no such locator', 'f', 'F', 'text', 0)",
        )
      }),
    ])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(names()).toEqual([])
  })

  test('when the transaction cannot begin (another connection holds the write lock), every write in it rejects and none is kept', async () => {
    await withLockHeld(50, async (other) => {
      const results = await Promise.allSettled([
        env.store.writeSoon(() => insert('x')),
        env.store.writeSoon(() => insert('y')),
      ])
      other.exec('ROLLBACK')
      for (const r of results) {
        expect(r.status).toBe('rejected')
        expect(isBusyError((r as PromiseRejectedResult).reason)).toBe(true)
      }
      expect(names()).toEqual([])
      // The queue is not stuck: the next write commits.
      await env.store.writeSoon(() => insert('after'))
      expect(names()).toEqual(['after'])
    })
  })

  test("writes waiting for another connection's write lock do not stop the process: other work goes on, and they commit once it is free", async () => {
    await withLockHeld(3000, async (other) => {
      let settled = false
      const pending = Promise.all([
        env.store.writeSoon(() => insert('x')),
        env.store.writeSoon(() => insert('y')),
      ]).finally(() => (settled = true))
      // Before: SQLite's wait held the event loop for busy_timeout, then the writes failed busy.
      const ticks: number[] = []
      for (let i = 0; i < 5; i++) {
        await Bun.sleep(20)
        ticks.push(i)
      }
      const answered = await env.call('GET', '/admin/v1/locations')
      expect({ ticks: ticks.length, answered: answered.status, settled }).toEqual({
        ticks: 5,
        answered: 200,
        settled: false,
      })
      other.exec('ROLLBACK')
      await pending
      expect(names()).toEqual(['x', 'y'])
    })
  })

  test('a write queued while others wait for the lock waits its own busy_timeout: the ones that waited it are refused, in order', async () => {
    await withLockHeld(200, async (other) => {
      const first = env.store
        .writeSoon(() => insert('first'))
        .then(
          () => 'committed',
          (e) => (isBusyError(e) ? 'busy' : String(e)),
        )
      await Bun.sleep(150)
      const second = env.store
        .writeSoon(() => insert('second'))
        .then(
          () => 'committed',
          (e) => (isBusyError(e) ? 'busy' : String(e)),
        )
      expect(await first).toBe('busy') // at ~200 ms
      other.exec('ROLLBACK')
      expect(await second).toBe('committed')
      expect(names()).toEqual(['second'])
    })
  })

  test('more writes than one commit takes (256) go in further commits, in order', async () => {
    const writes = env.store.writeCount()
    const order: number[] = []
    await Promise.all(Array.from({ length: 600 }, (_, i) => env.store.writeSoon(() => order.push(i))))
    // 3 at the least: more should they take more CPU than one commit takes (a slow machine).
    expect(env.store.writeCount()).toBeGreaterThanOrEqual(writes + 3)
    expect(order).toEqual(Array.from({ length: 600 }, (_, i) => i))
  })

  test('writes that take more CPU than one commit takes (8 ms) go in further commits, in order: others are answered between', async () => {
    const writes = env.store.writeCount()
    const order: number[] = []
    const cpuMs = () => (process.threadCpuUsage().user + process.threadCpuUsage().system) / 1000
    const slow = (i: number) => () => {
      const until = cpuMs() + 10
      while (cpuMs() < until) {}
      order.push(i)
    }
    await Promise.all([0, 1, 2].map((i) => env.store.writeSoon(slow(i))))
    expect(env.store.writeCount()).toBe(writes + 3)
    expect(order).toEqual([0, 1, 2])
  })
})

describe('the Management API under concurrent writes', () => {
  test('creates, updates and deletes sent together each get their own answer, and exactly what was answered 2xx is kept', async () => {
    const kept = (await env.call('POST', '/admin/v1/locations', { body: storeBody({ name: 'Kept' }) })).body.location.id
    const gone = (await env.call('POST', '/admin/v1/locations', { body: storeBody({ name: 'Gone' }) })).body.location.id
    const commits = env.store.writeCount()
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) =>
        env.call('POST', '/admin/v1/locations', { body: storeBody({ name: `New ${String(i).padStart(2, '0')}` }) }),
      ),
      env.call('POST', `/admin/v1/locations/${kept}`, { body: { name: 'Kept, renamed' } }),
      env.call('POST', `/admin/v1/locations/${gone}/delete`),
      env.call('POST', '/admin/v1/locations', { body: storeBody({ name: '' }) }), // invalid: 422, nothing written
    ])
    expect(answers.map((a) => a.status)).toEqual([...Array(20).fill(201), 200, 200, 422])
    // Sent together, their 22 writes shared commits: fewer than one each.
    expect(env.store.writeCount() - commits).toBeLessThan(22)
    const list = await env.call('GET', '/admin/v1/locations?limit=100')
    expect(list.body.locations.map((l: { name: string }) => l.name).sort()).toEqual(
      ['Kept, renamed', ...Array.from({ length: 20 }, (_, i) => `New ${String(i).padStart(2, '0')}`)].sort(),
    )
    for (const a of answers.slice(0, 20))
      expect(list.body.locations.some((l: { id: string }) => l.id === a.body.location.id)).toBe(true)
  })

  test('writes through the API are applied to the indexes right after their commit, not at a later query', async () => {
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    const token = env.store.locators.get(env.locatorId)!.publicToken
    const total = async () =>
      (await env.call('GET', `/public/v1/${token}/locations?lat=39.78&lng=-89.65&radius=50&unit=km`, { key: null }))
        .body.data.pagination.total
    expect(await total()).toBe(0) // the index is built
    const created = await Promise.all(
      [1, 2, 3].map((i) => env.call('POST', '/admin/v1/locations', { body: storeBody({ name: `Springfield ${i}` }) })),
    )
    expect(created.map((c) => c.status)).toEqual([201, 201, 201])
    // Rows taken away behind the change log: a query that applied the writes only now would read them gone.
    env.store.db.run('DELETE FROM locations WHERE locator_id = ?', [env.locatorId])
    expect(await total()).toBe(3)
  })
})
