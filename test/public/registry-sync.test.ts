// IndexRegistry.sync(): what another connection commits reaches the index, even when a sync
// fails part-way (it is not lost to the check that something was committed).
import { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { createApp } from '../../src/server/app'
import { createLocator, deleteLocator, setLocatorSettings } from '../../src/operator'
import { locationsBody } from '../../src/api/public/answer'
import { BUSY_RETRY_MS } from '../../src/indexes/bounds'
import { IndexUnavailable } from '../../src/indexes/errors'
import { IndexRegistry } from '../../src/indexes/registry'
import { openStore } from '../../src/store'
import { locationRecord, tableGeocoder, withTempStore } from '../helpers'

const ctx = withTempStore()

const record = (locatorId: string, name: string) =>
  locationRecord(locatorId, {
    name,
    address: '1 Main Street, Paris',
    coordinates: { lat: 48.85, lng: 2.35 },
    status: 'published',
  })

/** A locator with its Query API on, a registry (no background tasks), and its answer's total around Paris. */
function setup(name: string) {
  const { store } = ctx
  const { locator } = createLocator(store, name)
  setLocatorSettings(store, locator.id, { queryApi: 'on' })
  const token = store.locators.get(locator.id)!.publicToken!
  const registry = new IndexRegistry(store, () => {})
  const total = () =>
    locationsBody(
      registry,
      store.locators.get(locator.id)!,
      new URL(`http://localhost/public/v1/${token}/locations?lat=48.85&lng=2.35&radius=10&unit=km`).href,
    ).total
  return { store, locator, token, registry, total }
}

test('a change another connection commits is applied at the next sync after one that failed', () => {
  const { store, locator, registry, total } = setup('Sync')
  store.write(() => store.locations.insert(record(locator.id, 'First')))
  registry.sync()
  expect(total()).toBe(1)

  // Another connection (the CLI, another server) adds one.
  const other = openStore(store.db.filename)
  try {
    other.write(() => other.locations.insert(record(locator.id, 'Second')))
  } finally {
    other.close()
  }
  // The change log cannot be read this once: the sync fails.
  const since = store.changes.since
  let failures = 1
  store.changes.since = (...args) => {
    if (failures-- > 0) throw new Error('SQLITE_BUSY: database is locked')
    return since(...args)
  }
  try {
    expect(() => registry.sync()).toThrow('SQLITE_BUSY')
    registry.sync()
    expect(total()).toBe(2)
  } finally {
    store.changes.since = since
  }
})

test('a commit by a raw connection in this process is seen at the next sync', () => {
  const { store, locator, token, registry, total } = setup('Raw')
  expect(total()).toBe(0)
  const raw = new Database(store.db.filename)
  try {
    raw.query('UPDATE locators SET query_api_enabled = 0 WHERE id = ?').run(locator.id)
    raw
      .query(
        "INSERT INTO changes (locator_id, entity, entity_id, op, at) VALUES (?, 'locator', ?, 'upsert', '2026-01-01T00:00:00Z')",
      )
      .run(locator.id, locator.id)
  } finally {
    raw.close()
  }
  registry.sync()
  expect(registry.locatorByToken(token)?.queryApiEnabled).toBe(false)
})

test('an answer made for a URL that is not ASCII (not as URL writes it) still has its links as UTF-8 JSON', () => {
  const { store, locator, registry } = setup('Links')
  store.write(() => {
    for (const name of ['A', 'B', 'C']) store.locations.insert(record(locator.id, name))
  })
  registry.sync()
  const href = 'http://localhost/público/v1/€/locations?lat=48.85&lng=2.35&radius=10&unit=km&limit=1&offset=1'
  const { body } = locationsBody(registry, store.locators.get(locator.id)!, href)
  const { pagination } = JSON.parse(new TextDecoder().decode(body)).data
  expect(pagination.next).toBe(
    'http://localhost/público/v1/€/locations?lat=48.85&lng=2.35&radius=10&unit=km&limit=1&offset=2',
  )
  expect(pagination.prev).toBe(
    'http://localhost/público/v1/€/locations?lat=48.85&lng=2.35&radius=10&unit=km&limit=1&offset=0',
  )
})

test('a sync with a time budget applies a batch of changes at least, says whether it applied them all, and the next one goes on', () => {
  const { store, locator, registry, total } = setup('Budget')
  expect(total()).toBe(0) // the index is built
  store.write(() => {
    for (let i = 0; i < 150; i++) store.locations.insert(record(locator.id, `Store ${i}`))
  })
  // A budget of 0 ms: one batch (64 changes) per call.
  expect(registry.sync(0)).toBe(false)
  expect(total()).toBe(64)
  expect(registry.sync(0)).toBe(false)
  expect(total()).toBe(128)
  let calls = 2
  while (!registry.sync(0)) calls++
  expect({ calls, total: total() }).toEqual({ calls: 3, total: 150 })
  expect(registry.sync(0)).toBe(true) // nothing left

  // An unbudgeted sync (a query's) applies whatever a budgeted one left.
  store.write(() => {
    for (let i = 0; i < 100; i++) store.locations.insert(record(locator.id, `More ${i}`))
  })
  expect(registry.sync(0)).toBe(false)
  expect(total()).toBe(214)
  expect(registry.sync()).toBe(true)
  expect(total()).toBe(250)
})

test('a public request whose sync meets a busy database (another process holds it): 503 UNAVAILABLE with Retry-After and the rate (not counted), not logged as an error; not waited for again within a second; then answered', async () => {
  const { store, locator, token } = setup('Busy')
  const lines: Record<string, unknown>[] = []
  let now = 0 // what the indexes' retries are counted on: stepped, not waited for
  const app = createApp({
    store,
    geocoder: tableGeocoder({}),
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: (l) => lines.push(l),
    indexUpkeep: { clock: () => now },
  })
  const ask = () =>
    app.handle(new Request(`http://localhost/public/v1/${token}/locations?lat=48.85&lng=2.35&radius=10&unit=km`))
  // A locator turned inactive: its token is invalid, and its 503 tells no more of it than its INVALID_TOKEN does.
  const off = setup('Busy, inactive')
  setLocatorSettings(store, off.locator.id, { active: 'off' })
  const askOff = () =>
    app.handle(new Request(`http://localhost/public/v1/${off.token}/locations?lat=48.85&lng=2.35&radius=10&unit=km`))
  const invalid = await askOff()
  expect(((await invalid.json()) as any).error.code).toBe('INVALID_TOKEN')
  expect(invalid.headers.get('ratelimit-limit')).toBeNull()
  const first = await ask()
  expect(first.status).toBe(200)
  const remaining = first.headers.get('ratelimit-remaining')
  store.write(() => store.locations.insert(record(locator.id, 'Committed')))
  const since = store.changes.since
  let reads = 0
  store.changes.since = () => {
    reads++
    throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
  }
  const busy: Response[] = []
  try {
    for (let i = 0; i < 2; i++) busy.push(await ask())
  } finally {
    store.changes.since = since
  }
  for (const res of busy) {
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('ratelimit-remaining')).toBe(remaining)
    expect(res.headers.get('ratelimit-limit')).toBe('1000')
    expect(await res.json()).toEqual({
      success: false,
      error: {
        code: 'UNAVAILABLE',
        message: expect.stringContaining('busy'),
        docs: 'http://localhost/docs#UNAVAILABLE',
      },
    })
  }
  expect(reads).toBe(1) // the fast path's; neither the app's path after it nor the next request waited for the lock again
  const offBusy = await askOff()
  expect(offBusy.status).toBe(503)
  expect(offBusy.headers.get('ratelimit-limit')).toBeNull()
  expect(lines.filter((l) => l.level === 'error')).toEqual([])
  // Within the second: still 503, at once; after it, the change is applied and answered.
  now = BUSY_RETRY_MS - 1
  expect((await ask()).status).toBe(503)
  expect(reads).toBe(1)
  now = BUSY_RETRY_MS
  const after = await ask()
  expect(after.status).toBe(200)
  expect(((await after.json()) as any).data.pagination.total).toBe(1)
})

test('an index build that meets a busy database: 503 with Retry-After after one read of the rows (the app path after the fast one does not wait again), tried again after busyRetryMs', async () => {
  const { store, locator, token } = setup('Busy build')
  store.write(() => store.locations.insert(record(locator.id, 'Stored')))
  const lines: Record<string, unknown>[] = []
  let now = 0 // what the indexes' retries are counted on: stepped, not waited for
  const app = createApp({
    store,
    geocoder: tableGeocoder({}),
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: (l) => lines.push(l),
    indexUpkeep: { clock: () => now },
  })
  const ask = () =>
    app.handle(new Request(`http://localhost/public/v1/${token}/locations?lat=48.85&lng=2.35&radius=10&unit=km`))
  const { indexRows } = store.locations
  let reads = 0
  store.locations.indexRows = () => {
    reads++
    throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
  }
  try {
    for (let i = 0; i < 2; i++) {
      const res = await ask()
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('1')
      expect(res.headers.get('ratelimit-remaining')).not.toBeNull()
      expect(((await res.json()) as any).error).toEqual({
        code: 'UNAVAILABLE',
        message: expect.stringContaining('busy'),
        docs: 'http://localhost/docs#UNAVAILABLE',
      })
    }
    expect(reads).toBe(1) // the second query came within the second after it too
    now = BUSY_RETRY_MS - 1
    expect((await ask()).status).toBe(503) // still within it: not read again
    expect(reads).toBe(1)
  } finally {
    store.locations.indexRows = indexRows
  }
  expect(lines.filter((l) => l.level === 'error')).toEqual([])
  // After it: the rows read, the answer made.
  now = BUSY_RETRY_MS
  const after = await ask()
  expect(after.status).toBe(200)
  expect(((await after.json()) as any).data.pagination.total).toBe(1)
})

test("a locator's version is never ahead of its index: one another process wrote to after the sync gets a new version once that is applied", () => {
  const { store } = ctx
  const { locator } = createLocator(store, 'Version')
  setLocatorSettings(store, locator.id, { queryApi: 'on' })
  store.write(() => store.locations.insert(record(locator.id, 'First')))
  // A server started now: no change of this locator applied since, so its version is read when first asked.
  const registry = new IndexRegistry(store, () => {})
  const url = new URL(
    `http://localhost/public/v1/${locator.publicToken}/locations?lat=48.85&lng=2.35&radius=10&unit=km`,
  ).href
  const answer = () => new TextDecoder().decode(locationsBody(registry, store.locators.get(locator.id)!, url).body)
  registry.sync()
  const first = answer()
  // Another process commits between a request's sync and its version (the ETag's base).
  const other = openStore(store.db.filename)
  try {
    other.write(() => other.locations.insert(record(locator.id, 'Second')))
  } finally {
    other.close()
  }
  const version = registry.version(locator.id)
  expect(answer()).toBe(first) // the index has not applied it yet: this answer goes out under `version`
  registry.sync()
  expect(answer()).not.toBe(first)
  expect(registry.version(locator.id)).not.toBe(version)
})

test('an index built after another process wrote past the sync counts that write in its version: one version, one answer, in every process', () => {
  const { store } = ctx
  const { locator } = createLocator(store, 'Built late')
  setLocatorSettings(store, locator.id, { queryApi: 'on' })
  store.write(() => store.locations.insert(record(locator.id, 'First')))
  const url = new URL(
    `http://localhost/public/v1/${locator.publicToken}/locations?lat=48.85&lng=2.35&radius=10&unit=km`,
  ).href
  /** As a request asks: the entry, its version, then the answer. */
  const ask = (registry: IndexRegistry) => {
    registry.entry(locator.id)
    const version = registry.version(locator.id)
    return {
      version,
      body: new TextDecoder().decode(locationsBody(registry, store.locators.get(locator.id)!, url).body),
    }
  }
  const early = new IndexRegistry(store, () => {}) // a server that built its index before the write
  early.sync()
  const before = ask(early)
  const late = new IndexRegistry(store, () => {}) // one that builds it after: its sync ran, then the write came
  late.sync()
  const other = openStore(store.db.filename)
  try {
    other.write(() => other.locations.insert(record(locator.id, 'Second')))
  } finally {
    other.close()
  }
  const after = ask(late)
  expect(after.body).toContain('Second')
  expect(before.body).not.toContain('Second')
  expect(after.version).not.toBe(before.version)
  expect(ask(early)).toEqual(before) // not synced: as it was
})

test('a change log rewound under it (a backup restored into the file) is noticed: the index is built again from the rows, and no version given before is given again', () => {
  const { store, locator, registry, total } = setup('Rewound')
  store.write(() => store.locations.insert(record(locator.id, 'Kept')))
  registry.sync()
  expect(total()).toBe(1)
  const backupSeq = store.changes.lastSeq()
  store.write(() => store.locations.insert(record(locator.id, 'Gone one')))
  store.write(() => store.locations.insert(record(locator.id, 'Gone two')))
  registry.sync()
  expect(total()).toBe(3)
  const versionsGiven = [registry.version(locator.id)]

  // What restoring the backup taken at backupSeq does to the rows this test wrote since: gone, and
  // the log's sequence back where it was then.
  const raw = new Database(store.db.filename)
  raw.transaction(() => {
    raw.run("DELETE FROM locations WHERE name LIKE 'Gone%'")
    raw.run('DELETE FROM changes WHERE seq > ?', [backupSeq])
    raw.run("UPDATE sqlite_sequence SET seq = ? WHERE name = 'changes'", [backupSeq])
  })()
  raw.close()
  // Another process writes after the restore: its change takes a seq this registry applied already.
  const other = openStore(store.db.filename)
  try {
    other.write(() => other.locations.insert(record(locator.id, 'New')))
    expect(other.changes.lastSeq()).toBe(backupSeq + 1)
  } finally {
    other.close()
  }

  registry.sync()
  expect(total()).toBe(2)
  const version = registry.version(locator.id)
  expect(versionsGiven).not.toContain(version)
  // And a process started now, on the restored file, gives the same version for the same rows.
  expect(new IndexRegistry(store, () => {}).version(locator.id)).toBe(version)
  // And it goes on from there: a later write is applied as usual.
  store.write(() => store.locations.insert(record(locator.id, 'Later')))
  registry.sync()
  expect(total()).toBe(3)
})

test("the change log is pruned up to a point: the changes before it go, each locator's last one up to it stays, and versions are as before", () => {
  const { store, locator, registry, total } = setup('Pruned')
  const quiet = setup('Quiet')
  store.write(() => {
    for (let i = 0; i < 5; i++) store.locations.insert(record(locator.id, `Store ${i}`))
  })
  const end = store.changes.lastSeq()
  store.write(() => store.locations.insert(record(locator.id, 'After the cut')))
  registry.sync()
  expect(total()).toBe(6)
  const versions = [registry.version(locator.id), registry.version(quiet.locator.id)]

  // A slice at a time (2 changes looked at each), as the server prunes.
  let slices = 0
  for (let through = 0; through < end; slices++) through = store.write(() => store.changes.prune(end, 2))
  expect(slices).toBeGreaterThan(1)
  expect(store.changes.prunedThrough()).toBe(end)
  const left = store.db
    .query<{ seq: number; locator_id: string }, []>('SELECT seq, locator_id FROM changes ORDER BY seq')
    .all()
  // Quiet's last change (it was made before Pruned's), Pruned's last one up to the cut, and the one after it.
  expect(left.map((c) => c.locator_id)).toEqual([quiet.locator.id, locator.id, locator.id])
  expect(left.slice(1).map((c) => c.seq)).toEqual([end, end + 1])

  // Nothing applied here was missed: this registry goes on, and one started now gives the same versions.
  registry.sync()
  expect([registry.version(locator.id), registry.version(quiet.locator.id)]).toEqual(versions)
  expect([
    new IndexRegistry(store, () => {}).version(locator.id),
    new IndexRegistry(store, () => {}).version(quiet.locator.id),
  ]).toEqual(versions)
  // Pruning again up to the same point does nothing; a later prune drops the kept ones it supersedes.
  expect(store.write(() => store.changes.prune(end, 2))).toBe(end)
  expect(store.write(() => store.changes.prune(store.changes.lastSeq(), 100))).toBe(end + 1)
  expect(store.db.query('SELECT count(*) AS n FROM changes').get()).toEqual({ n: 2 })
})

test('a process that had not applied the changes a prune took builds its index again from the rows: it misses none of them', () => {
  const { store, locator, registry, total } = setup('Behind')
  const other = setup('Other')
  store.write(() => store.locations.insert(record(locator.id, 'Seen')))
  // The last change this registry applies is Other's: kept by the prune as Other's last one.
  store.write(() => store.locations.insert(record(other.locator.id, 'Elsewhere')))
  registry.sync()
  expect(total()).toBe(1)
  const versionBefore = registry.version(locator.id)
  const lines: unknown[][] = []
  const watched = new IndexRegistry(store, () => {}, { onRewound: (...args) => lines.push(args) })
  const watchedTotal = () =>
    locationsBody(
      watched,
      store.locators.get(locator.id)!,
      `http://localhost/public/v1/${locator.publicToken}/locations?lat=48.85&lng=2.35&radius=10&unit=km`,
    ).total
  expect(watchedTotal()).toBe(1)
  const applied = store.changes.lastSeq()

  // Another process writes, then prunes past it all, before these registries sync.
  const writer = openStore(store.db.filename)
  try {
    writer.write(() => {
      writer.locations.insert(record(locator.id, 'Missed one'))
      writer.locations.insert(record(locator.id, 'Missed two'))
    })
    const end = writer.changes.lastSeq()
    writer.write(() => writer.locations.insert(record(locator.id, 'After the cut')))
    writer.write(() => writer.changes.prune(end, 1000))
  } finally {
    writer.close()
  }
  expect(store.changes.at(applied)).not.toBeNull() // what they applied last is still there: only the prune point tells

  registry.sync()
  expect(total()).toBe(4)
  expect(registry.version(locator.id)).not.toBe(versionBefore)
  watched.sync()
  expect(watchedTotal()).toBe(4)
  expect(lines).toEqual([[applied, store.changes.lastSeq(), 'pruned']])
  // And both go on from there.
  store.write(() => store.locations.insert(record(locator.id, 'Later')))
  expect(total()).toBe(4) // not synced yet
  registry.sync()
  expect(total()).toBe(5)
  watched.sync()
  expect(watchedTotal()).toBe(5)
})

test('a locator another process deletes as its entry is made: asked again (503), no index kept for it', () => {
  const { store, locator, registry } = setup('Gone')
  createLocator(store, 'Kept') // the last locator may not be deleted
  store.write(() => store.locations.insert(record(locator.id, 'Only')))
  registry.sync()
  expect(registry.entry(locator.id).index.size).toBe(1)
  // Let go (idle), then deleted by another connection before this process has synced.
  registry.evictIdle(0, Number.POSITIVE_INFINITY)
  expect(registry.has(locator.id)).toBe(false)
  const other = openStore(store.db.filename)
  try {
    deleteLocator(other, locator.id, true)
  } finally {
    other.close()
  }
  expect(() => registry.entry(locator.id)).toThrow(IndexUnavailable)
  expect(registry.has(locator.id)).toBe(false)
})
