// The geocode refresh (Google's 30 days) moves a store's point, and its updated_at, on its own. One
// landing while examples/sync.ts runs is no other writer: the store the list drops is deleted all
// the same. A real server re-geocodes a store at its start, its Google a stand-in held until the
// sync is at the step each test names.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner, type Running, serverUrl, startServer, tempDir } from '../helpers'
import { runSync, runSyncAsIs, standIn, type SyncServer } from './sync-server'

const HEADER = 'Store Code,Name,Address,Latitude,Longitude\n'
// In California, where Google's stand-in places them again: a refresh keeps their time zone.
const row = (code: string, i: number) => `${code},Store ${i},"${i} Main St, Town",${37 + i / 10},${-122 - i / 10}\n`
const FOUND = JSON.parse(readFileSync(join(import.meta.dir, '..', 'geocode/fixtures/google-found.json'), 'utf8'))

/**
 * Google's stand-in: each answer a point of its own (`pointOf` the count of answers), held while
 * `held` is (the server waits for it as long as GEOCODER_TIMEOUT_MS); `waiting`: the asks held now.
 * The refresh asks only once its towns are loaded: on a loaded machine, maybe after a sync's step.
 */
let held: Promise<void> = Promise.resolve()
let asked = 0
let waiting = 0
const inCalifornia = (n: number) => ({ lat: 37 + n / 100, lng: -122 })
let pointOf = inCalifornia
const google = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch() {
    if (process.env.LATE && asked === 0) await Bun.sleep(6000)
    waiting++
    await held
    waiting--
    asked++
    const answer = structuredClone(FOUND)
    answer.results[0].geometry.location = pointOf(asked)
    return Response.json(answer)
  },
})

const served: SyncServer = { dir: '', url: '', key: '', json: cliRunner(() => join(served.dir, 'sync.db')).json }
let server: Running | undefined

beforeAll(() => {
  served.dir = tempDir()
  served.key = served.json('locator', 'create', '--name', 'Sync').key.secret_key
})
afterAll(() => {
  server?.proc.kill()
  google.stop(true)
  rmSync(served.dir, { recursive: true, force: true })
})

/**
 * The server started again on `S1`-`S3` (and `due`, `also`), those of `due` geocoded by Google 30 days
 * ago, so the refresh it runs at its start asks Google for them again; returns the release of
 * Google's answer.
 */
async function restartedWithS3Due(due = ['S3'], also: string[] = []): Promise<() => void> {
  server?.proc.kill()
  await server?.proc.exited
  server = startServer(join(served.dir, 'sync.db'), { GEOCODER: 'none' })
  served.url = await serverUrl(server)
  const codes = [...new Set(['S1', 'S2', 'S3', ...due, ...also])]
  expect((await runSync(served, served.url, HEADER + codes.map((c, i) => row(c, i + 1)).join(''))).code).toBe(0)
  server.proc.kill()
  await server.proc.exited
  const db = new Database(join(served.dir, 'sync.db'))
  db.run(
    `UPDATE locations SET geocode_source = 'google', geocode_precision = 'rooftop', geocoded_at = ? WHERE external_id IN (${due.map(() => '?').join(', ')})`,
    [new Date(Date.now() - 30 * 86_400_000).toISOString(), ...due],
  )
  // Its point asked of Google itself, not of the answer an earlier test's refresh left in the cache.
  db.run('DELETE FROM geocode_cache')
  db.close()
  let release = () => {}
  held = new Promise((r) => (release = r))
  server = startServer(join(served.dir, 'sync.db'), {
    GEOCODER: 'google',
    GEOCODER_URL: google.url.origin,
    GEOCODER_API_KEY: 'test',
    // An ask held past the 3 s default times out: Google taken as down, the fallback's point then.
    GEOCODER_TIMEOUT_MS: '60000',
  })
  served.url = await serverUrl(server)
  return release
}

/**
 * The sync of S1 and S2 through a stand-in that lets the refresh write once `when` is true of a
 * request, then runs `after` before passing the request on.
 */
async function syncWithRefreshAt(when: (body: string) => boolean, after = async () => {}) {
  const release = await restartedWithS3Due()
  let refreshed = false
  const proxy = standIn(served, async (body, on) => {
    if (!refreshed && body !== undefined && when(body)) {
      refreshed = true
      release()
      await server!.waitFor(/"geocodes refreshed"/)
      await after()
    }
    return on()
  })
  try {
    return await runSyncAsIs(served, proxy.url, HEADER + row('S1', 1) + row('S2', 2))
  } finally {
    proxy.stop()
  }
}

/**
 * The sync of `list` (or the one it gives once S1-S3 are stored) through a stand-in that, once
 * `when` is true of a request, runs `during` (a change by hand), then lets the refresh write.
 */
async function syncWithBoth(
  list: string | (() => Promise<string>),
  when: (body: string) => boolean,
  during: () => Promise<void>,
  also: string[] = [],
) {
  const release = await restartedWithS3Due(['S3'], also)
  const text = typeof list === 'string' ? list : await list()
  let done = false
  const proxy = standIn(served, async (body, on) => {
    if (!done && body !== undefined && when(body)) {
      done = true
      await during()
      release()
      await server!.waitFor(/"geocodes refreshed"/)
    }
    return on()
  })
  try {
    return await runSyncAsIs(served, proxy.url, text)
  } finally {
    proxy.stop()
  }
}

/** Resolves once `done` is true, asked every 20 ms; fails naming `what` after `ms`. */
async function waitUntil(what: string, done: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`waited ${ms / 1000} s for ${what}`)
    await Bun.sleep(20)
  }
}

/** The locator's store of code `code`, as the Management API gives it. */
async function storeOf(code: string): Promise<{ id: string; timezone: string }> {
  const headers = { authorization: `Bearer ${served.key}` }
  const answer = await fetch(`${served.url}/admin/v1/locations?external_id=${code}`, { headers })
  return ((await answer.json()) as { locations: { id: string; timezone: string }[] }).locations[0]!
}

/** The external ids of the locator's stores, sorted. */
async function codes(): Promise<string[]> {
  const headers = { authorization: `Bearer ${served.key}` }
  const answer = await fetch(`${served.url}/admin/v1/locations/export`, { headers })
  const { locations } = (await answer.json()) as { locations: { external_id: string }[] }
  return locations.map((l) => l.external_id).sort()
}

describe('examples/sync.ts and the geocode refresh', () => {
  test('a refresh landing after the list is read, before the deletes are checked, deletes the dropped store', async () => {
    const run = await syncWithRefreshAt((body) => body.includes('"dry_run":true'))
    expect(run.stderr).not.toContain('Another write')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('S3')
    expect(await codes()).toEqual(['S1', 'S2'])
  }, 60_000)

  test('a refresh landing just before the deletes are sent (412) deletes the dropped store', async () => {
    const run = await syncWithRefreshAt((body) => body.includes('"delete":true') && !body.includes('"dry_run":true'))
    expect(run.stderr).not.toContain('Another write')
    expect(run.code).toBe(0)
    expect(await codes()).toEqual(['S1', 'S2'])
  }, 60_000)

  test('a refresh moving the dropped store into another time zone deletes it, at the dry runs or the deletes', async () => {
    // Phoenix: America/Phoenix, not the list's America/Los_Angeles, so the zone shown moves too.
    pointOf = (n) => ({ lat: 33.45 + n / 100, lng: -112.07 })
    try {
      for (const step of [
        (body: string) => body.includes('"dry_run":true'),
        (body: string) => body.includes('"delete":true') && !body.includes('"dry_run":true'),
      ]) {
        const zones: string[] = []
        const run = await syncWithRefreshAt(step, async () => {
          zones.push((await storeOf('S3')).timezone)
        })
        expect(zones).toEqual(['America/Phoenix'])
        expect(run.stderr).not.toContain('Another write')
        expect(run.code).toBe(0)
        expect(await codes()).toEqual(['S1', 'S2'])
      }
    } finally {
      pointOf = inCalifornia
    }
  }, 90_000)

  test("another writer's change is still refused: a name, said; a point sent by hand, kept at the delete", async () => {
    const list = HEADER + row('S1', 1) + row('S2', 2)
    const headers = { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' }
    /** The sync of `list` through a stand-in that sends `change` of S3 once `when` is true of a request. */
    const syncChanging = async (when: (body: string) => boolean, change: object) => {
      await restartedWithS3Due()
      let sent = false
      const proxy = standIn(served, async (body, on) => {
        if (!sent && body !== undefined && when(body)) {
          sent = true
          const [s3] = (
            (await (await fetch(`${served.url}/admin/v1/locations?external_id=S3`, { headers })).json()) as {
              locations: { id: string }[]
            }
          ).locations
          const body = JSON.stringify(change)
          expect(
            (await fetch(`${served.url}/admin/v1/locations/${s3!.id}`, { method: 'POST', headers, body })).status,
          ).toBe(200)
        }
        return on()
      })
      try {
        return await runSyncAsIs(served, proxy.url, list)
      } finally {
        proxy.stop()
      }
    }
    const renamed = await syncChanging((body) => body.includes('"dry_run":true'), { name: 'Renamed' })
    expect(renamed.code).toBe(3)
    expect(renamed.stderr).toMatch(
      /Another write changed the locator while this sync ran, .*: "S3" \(loc_\w+\) changed at \S+ \(name\)\./,
    )
    expect(await codes()).toEqual(['S1', 'S2', 'S3'])
    const moved = await syncChanging((body) => body.includes('"delete":true') && !body.includes('"dry_run":true'), {
      coordinates: { lat: 41, lng: -4 },
    })
    expect(moved.code).toBe(3)
    expect(moved.stderr).toMatch(/Another write changed "S3" \(loc_\w+\) \(coordinates, /)
    expect(await codes()).toEqual(['S1', 'S2', 'S3'])
  }, 60_000)

  test('a refresh landing before the dry runs of a row taking the code of a store it drops deletes that store', async () => {
    let s2 = ''
    // S2 renumbered to S3 by its id: S3, which the list drops, is deleted in that row's request.
    const renumbered = async () => {
      s2 = (await storeOf('S2')).id
      return `Id,${HEADER},${row('S1', 1)}${s2},${row('S3', 2)}`
    }
    const run = await syncWithBoth(
      renumbered,
      (body) => body.includes('"dry_run":true'),
      async () => {},
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(await codes()).toEqual(['S1', 'S3'])
    expect((await storeOf('S3')).id).toBe(s2)
  }, 60_000)

  test('a pin moved by hand, placed again by its address while the sync runs, is kept', async () => {
    const release = await restartedWithS3Due()
    const headers = { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' }
    const s3 = await storeOf('S3')
    const post = (change: object) =>
      fetch(`${served.url}/admin/v1/locations/${s3.id}`, { method: 'POST', headers, body: JSON.stringify(change) })
    // Moved by hand (in the time zone Google gives) before the sync reads it; the refresh held at
    // its start then leaves it alone.
    expect((await post({ coordinates: { lat: 37.5, lng: -122.1 } })).status).toBe(200)
    let sent = false
    const proxy = standIn(served, async (body, on) => {
      if (!sent && body?.includes('"dry_run":true')) {
        sent = true
        release()
        await server!.waitFor(/"geocodes refreshed"/)
        // Its address sent again: Google places it, as the refresh would.
        expect((await post({ address: '3 Main St, Town' })).status).toBe(200)
      }
      return on()
    })
    try {
      const run = await runSyncAsIs(served, proxy.url, HEADER + row('S1', 1) + row('S2', 2))
      expect(run.stderr).toMatch(/"S3" \(loc_\w+\) changed at \S+ \(coordinates, geocoding\)/)
      expect(run.code).toBe(3)
    } finally {
      proxy.stop()
    }
    expect(await codes()).toEqual(['S1', 'S2', 'S3'])
  }, 60_000)

  test('a time zone set by hand is kept though the refresh moves the same store', async () => {
    const headers = { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' }
    const run = await syncWithBoth(
      HEADER + row('S1', 1) + row('S2', 2),
      (body) => body.includes('"dry_run":true'),
      async () => {
        const body = JSON.stringify({ timezone: 'Europe/Lisbon' })
        const { id } = await storeOf('S3')
        expect((await fetch(`${served.url}/admin/v1/locations/${id}`, { method: 'POST', headers, body })).status).toBe(
          200,
        )
      },
    )
    expect(run.stderr).toMatch(/"S3" \(loc_\w+\) changed at \S+ \((coordinates, )?timezone\)/)
    expect(run.code).toBe(3)
    expect(await codes()).toEqual(['S1', 'S2', 'S3'])
    expect((await storeOf('S3')).timezone).toBe('Europe/Lisbon')
  }, 60_000)

  test('a refresh moving the dropped stores one at a time as their deletes are sent again deletes them all', async () => {
    const due = ['S3', 'S4', 'S5', 'S6', 'S7']
    let release = await restartedWithS3Due(due)
    const headers = { authorization: `Bearer ${served.key}` }
    /** How many stores have Google's point (its stand-in's longitude), not the list's. */
    const placedByGoogle = async () => {
      const answer = await fetch(`${served.url}/admin/v1/locations/export`, { headers })
      const { locations } = (await answer.json()) as { locations: { coordinates: { lng: number } }[] }
      return locations.filter((l) => l.coordinates.lng === -122).length
    }
    let moved = 0
    // Each try of the deletes lets the refresh move one more of them first: each try meets a 412.
    const proxy = standIn(served, async (body, on) => {
      if (body?.includes('"delete":true') && !body.includes('"dry_run":true') && moved < due.length) {
        // The refresh's next ask held before it is let go: a release before the ask would free none.
        await waitUntil(`the refresh to ask Google for store ${moved + 1} of ${due.length}`, () => waiting > 0)
        const go = release
        held = new Promise((r) => (release = r))
        go()
        moved++
        await waitUntil(`the refresh to move ${moved} of the stores`, async () => (await placedByGoogle()) >= moved)
      }
      return on()
    })
    try {
      const run = await runSyncAsIs(served, proxy.url, HEADER + row('S1', 1) + row('S2', 2))
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
    } finally {
      proxy.stop()
    }
    expect(moved).toBe(due.length)
    expect(await codes()).toEqual(['S1', 'S2'])
  }, 60_000)

  test('Ctrl-C while the sync reads again a store a 412 named stops it, blaming no other write', async () => {
    const release = await restartedWithS3Due()
    let sync: ReturnType<typeof Bun.spawn> | undefined
    let refreshed = false
    const proxy = standIn(served, async (body, on, request) => {
      if (!refreshed && body?.includes('"delete":true') && !body.includes('"dry_run":true')) {
        refreshed = true
        release()
        await server!.waitFor(/"geocodes refreshed"/)
      }
      // The store the 412 named, read again: stopped then, its answer held.
      if (refreshed && request.method === 'GET' && /\/locations\/loc_/.test(request.url)) {
        sync!.kill('SIGINT')
        await Bun.sleep(2000)
      }
      return on()
    })
    const file = join(served.dir, 'stores.csv')
    writeFileSync(file, HEADER + row('S1', 1) + row('S2', 2))
    sync = Bun.spawn([process.execPath, join(import.meta.dir, '..', '..', 'examples/sync.ts'), file], {
      cwd: join(import.meta.dir, '..', '..'),
      env: { ...process.env, STORELOC_URL: proxy.url, STORELOC_KEY: served.key },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    try {
      const [code, stderr] = await Promise.all([sync.exited, new Response(sync.stderr as ReadableStream).text()])
      expect(stderr).toStartWith('sync: stopped (Ctrl-C): 2 of 2 rows sent')
      expect(code).toBe(130)
    } finally {
      proxy.stop()
    }
    expect(await codes()).toEqual(['S1', 'S2', 'S3'])
  }, 60_000)

  test('a 412 naming a store another write changed and one the refresh moved names only the first', async () => {
    const release = await restartedWithS3Due(['S3'], ['S4'])
    const headers = { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' }
    let sent = false
    const proxy = standIn(served, async (body, on) => {
      if (!sent && body?.includes('"delete":true') && !body.includes('"dry_run":true')) {
        sent = true
        release()
        await server!.waitFor(/"geocodes refreshed"/)
        const { id } = await storeOf('S4')
        const rename = JSON.stringify({ name: 'Renamed' })
        expect(
          (await fetch(`${served.url}/admin/v1/locations/${id}`, { method: 'POST', headers, body: rename })).status,
        ).toBe(200)
      }
      return on()
    })
    try {
      const run = await runSyncAsIs(served, proxy.url, HEADER + row('S1', 1) + row('S2', 2))
      expect(run.stderr).toMatch(/^sync: Another write changed "S4" \(loc_\w+\) \(name\) after this sync/)
      expect(run.code).toBe(3)
    } finally {
      proxy.stop()
    }
    expect(await codes()).toEqual(['S1', 'S2', 'S3', 'S4'])
  }, 60_000)
})

describe('examples/sync.ts, a dry run meeting a 412', () => {
  test('names only the store another write changed, not one the refresh moved, and exits 3', async () => {
    const headers = { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' }
    // S1 and S2 renumbered to S4 and S3 by their ids: both dropped stores are deleted in one request.
    const renumbered = async () => {
      const [s1, s2] = [(await storeOf('S1')).id, (await storeOf('S2')).id]
      return `Id,${HEADER}${s1},${row('S4', 1)}${s2},${row('S3', 2)}`
    }
    const run = await syncWithBoth(
      renumbered,
      (body) => body.includes('"dry_run":true'),
      async () => {
        const rename = JSON.stringify({ name: 'Renamed' })
        const { id } = await storeOf('S4')
        expect(
          (await fetch(`${served.url}/admin/v1/locations/${id}`, { method: 'POST', headers, body: rename })).status,
        ).toBe(200)
      },
      ['S4'],
    )
    expect(run.stderr).toMatch(/^sync: Another write changed "S4" \(loc_\w+\) \(name\) after this sync/)
    expect(run.stderr).not.toContain('"S3"')
    expect(run.stderr).not.toContain('since it was read')
    expect(run.code).toBe(3)
    expect(await codes()).toEqual(['S1', 'S2', 'S3', 'S4'])
  }, 60_000)
})
