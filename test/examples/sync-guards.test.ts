// What examples/sync.ts guards against beside its rows' problems. Another write reaching the
// locator meanwhile (a second sync, someone editing): the stores the list lacks are deleted only
// when no other write came since the sync read them, else it stops, naming what changed and when.
// A row's id that names no store of the locator, and a JSON file's keys beside "locations", are
// said with what happens instead; so is what reading a CSV file noted of it as a whole.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runSync, standIn, syncServer } from './sync-server'

const served = syncServer()

const HEADER = 'Store Code,Name,Address,Latitude,Longitude\n'
const row = (code: string, i: number) => `${code},Store ${code},"${i} Main St, Town",${40 + i / 10},${-3 - i / 10}\n`
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${served.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' },
  })
const codes = async () =>
  (((await (await api('/admin/v1/locations')).json()) as any).locations as { external_id: string }[])
    .map((l) => l.external_id)
    .sort()

test('a store made by another write while the sync writes stops its deletes, naming the store and when', async () => {
  expect((await runSync(served, served.url, HEADER + row('K1', 1) + row('K2', 2))).code).toBe(0)
  // As a second sync of another list would: it makes X9 while this one writes K1's change.
  let made = ''
  const proxy = standIn(served, async (body, on) => {
    if (made === '' && body?.includes('"dry_run":false')) {
      const res = await api('/admin/v1/locations', {
        method: 'POST',
        body: JSON.stringify({
          external_id: 'X9',
          name: 'Other',
          address: '9 Main St',
          coordinates: { lat: 41, lng: -4 },
        }),
      })
      made = ((await res.json()) as any).location.id
    }
    return on(body)
  })
  try {
    const list = HEADER + row('K1', 1).replace('Store K1', 'Renamed K1')
    const run = await runSync(served, proxy.url, list)
    expect(run.code).toBe(3)
    expect(run.stderr).toMatch(
      /^sync: Another write changed the locator while this sync ran, from \d{4}-\d\d-\d\dT[\d:.]+Z: /,
    )
    expect(run.stderr).toContain(`: "X9" (${made}) made at `)
    expect(run.stderr).toContain('The 1 store the list lacks is not deleted; the rest of the list is written.')
    expect(await codes()).toEqual(['K1', 'K2', 'X9'])
  } finally {
    proxy.stop()
  }
  // Run again with no other write: the list is mirrored, the other's store too deleted.
  const again = await runSync(served, served.url, HEADER + row('K1', 1).replace('Store K1', 'Renamed K1'))
  expect([again.code, again.stdout.split('\n').at(-2)]).toEqual([0, '0 created, 0 updated, 1 unchanged, 2 deleted.'])
  expect(await codes()).toEqual(['K1'])
}, 60_000)

test("a row's id that names no store of the locator is said, with the store its code matches instead", async () => {
  // The first test's store kept: a list without it would delete every store.
  const kept = row('K1', 1).replace('Store K1', 'Renamed K1')
  expect((await runSync(served, served.url, HEADER + kept + row('M1', 3))).code).toBe(0)
  const list = `id,${HEADER},${kept}loc_0000000000000001,${row('M1', 3)}loc_0000000000000002,${row('M2', 4)}`
  const dry = await runSync(served, served.url, list, ['--dry-run'])
  expect(dry.code).toBe(0)
  expect(dry.stdout.split('\n').filter((l) => l.startsWith('check '))).toEqual([
    'check line 3: its id loc_0000000000000001 names no store of this locator: it is matched by its store code "M1" instead. Check that the id column is this locator\'s export\'s.',
    'check line 4: its id loc_0000000000000002 names no store of this locator: no store has its store code "M2" either, so it is made anew. Check that the id column is this locator\'s export\'s.',
  ])
}, 60_000)

test("a JSON file's top-level point is said not read: each store has its own coordinates", async () => {
  const kept = {
    external_id: 'K1',
    name: 'Renamed K1',
    address: '1 Main St, Town',
    coordinates: { lat: 40.1, lng: -3.1 },
  }
  const file = join(served.dir, 'stores.json')
  writeFileSync(file, JSON.stringify({ lat: 51.5, lng: -0.1, locations: [kept] }))
  const p = Bun.spawnSync(
    [process.execPath, join(import.meta.dir, '..', '..', 'examples/sync.ts'), file, '--dry-run'],
    {
      env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: served.key },
    },
  )
  expect(
    p.stdout
      .toString()
      .split('\n')
      .filter((l) => l.startsWith('check ')),
  ).toEqual([
    `check ${file}: its top-level "lat", "lng" are not read, only "locations" is; each store's point is its own "coordinates": {"lat": ..., "lng": ...}.`,
  ])
}, 60_000)

test('a store the sync wrote that another write changes after it stops its deletes, naming the store', async () => {
  const list = HEADER + row('K1', 1) + row('M1', 3)
  expect((await runSync(served, served.url, list)).code).toBe(0)
  // As a second sync writing K1 right after this one: both lists have it, each its own name.
  let theirs = ''
  const proxy = standIn(served, async (body, on) => {
    const answer = await on(body)
    if (theirs === '' && body?.includes('"dry_run":false')) {
      const k1 = ((await (await api('/admin/v1/locations')).json()) as any).locations.find(
        (l: any) => l.external_id === 'K1',
      )
      theirs = k1.id
      await api(`/admin/v1/locations/${theirs}`, { method: 'POST', body: JSON.stringify({ name: 'Theirs K1' }) })
    }
    return answer
  })
  try {
    const run = await runSync(served, proxy.url, HEADER + row('K1', 1).replace('Store K1', 'Mine K1'))
    expect(run.code).toBe(3)
    expect(run.stderr).toContain(`: "K1" (${theirs}) changed at `)
    // The whole list is written, as it says: no "part of the list may be written" after it.
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^sync: Another write .* Run the sync again once the other write is done\.$/),
    ])
    expect(await codes()).toEqual(['K1', 'M1'])
  } finally {
    proxy.stop()
  }
}, 60_000)

test('a store another write changes between the last look and its delete is kept by the service, and said', async () => {
  const list = HEADER + row('K1', 1) + row('G1', 2) + row('G2', 3)
  expect((await runSync(served, served.url, list)).code).toBe(0)
  // Another writer edits G1 after the sync's last read of the locator, as the request deleting it is on its way.
  let edited = ''
  const proxy = standIn(served, async (body, on) => {
    if (edited === '' && body?.includes('"if_updated_at"')) {
      const g1 = ((await (await api('/admin/v1/locations')).json()) as any).locations.find(
        (l: any) => l.external_id === 'G1',
      )
      edited = g1.id
      await Bun.sleep(3)
      await api(`/admin/v1/locations/${edited}`, { method: 'POST', body: JSON.stringify({ name: 'Edited by hand' }) })
    }
    return on(body)
  })
  try {
    const run = await runSync(served, proxy.url, HEADER + row('K1', 1))
    expect(run.code).toBe(3)
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `sync: Another write changed "G1" (${edited}) (name) after this sync last read the locator, as it deleted the stores its list lacks: the service kept it, and deleted none of that request. Another sync of this locator, or someone editing it: run one sync a locator at a time, as each deletes what its own list lacks. 0 of the 2 stores the list lacks are deleted, the rest not; the rest of the list is written. Run the sync again once the other write is done.`,
    ])
    // The edit stands: G1 is not deleted, nor G2 of the same request (all or nothing).
    expect(await codes()).toEqual(['G1', 'G2', 'K1'])
    const g1 = (await (await api(`/admin/v1/locations/${edited}`)).json()) as any
    expect(g1.location.name).toBe('Edited by hand')
  } finally {
    proxy.stop()
  }
}, 60_000)

test('deleting a request at a time, the stores deleted before the refused request are said', async () => {
  const list = HEADER + row('K1', 1) + row('G1', 2) + row('G2', 3)
  expect((await runSync(served, served.url, list)).code).toBe(0)
  const stored = ((await (await api('/admin/v1/locations')).json()) as any).locations
  const [g1, g2] = ['G1', 'G2'].map((code) => stored.find((l: any) => l.external_id === code).id as string)
  let edited = false
  const proxy = standIn(served, async (body, on) => {
    if (!edited && body?.includes(`"id":"${g2}","delete":true,"if_updated_at"`)) {
      edited = true
      await Bun.sleep(3)
      await api(`/admin/v1/locations/${g2}`, { method: 'POST', body: JSON.stringify({ name: 'Edited by hand' }) })
    }
    return on(body)
  })
  try {
    const run = await runSync(served, proxy.url, HEADER + row('K1', 1), [], { STORELOC_SYNC_CHUNK: '1' })
    expect(run.code).toBe(3)
    expect(run.stdout).toBe(`deleted G1 (${g1})\n`)
    expect(run.stderr).toContain(
      `sync: Another write changed "G2" (${g2}) (name) after this sync last read the locator, as it deleted the stores its list lacks: the service kept it, and deleted none of that request.`,
    )
    expect(run.stderr).toContain(
      ' 1 of the 2 stores the list lacks is deleted, the rest not; the rest of the list is written.',
    )
    expect(await codes()).toEqual(['G2', 'K1'])
  } finally {
    proxy.stop()
  }
}, 60_000)

test("a dropped store whose code a row takes, changed by another write before the row's request, is kept", async () => {
  expect((await runSync(served, served.url, HEADER + row('K1', 1) + row('D1', 1) + row('D2', 2))).code).toBe(0)
  const stored = ((await (await api('/admin/v1/locations')).json()) as any).locations
  const [d1, d2] = ['D1', 'D2'].map((code) => stored.find((l: any) => l.external_id === code).id as string)
  // D2 takes D1's code by its id: D1 is deleted in D2's request, unless another write changed it.
  let edited = false
  const proxy = standIn(served, async (body, on) => {
    if (!edited && body?.includes('"dry_run":false') && body.includes(`"id":"${d1}","delete":true,"if_updated_at"`)) {
      edited = true
      await Bun.sleep(3)
      await api(`/admin/v1/locations/${d1}`, { method: 'POST', body: JSON.stringify({ name: 'Edited by hand' }) })
    }
    return on(body)
  })
  try {
    const list = `id,${HEADER},${row('K1', 1)}${d2},${row('D1', 2)}`
    const run = await runSync(served, proxy.url, list)
    expect(run.code).toBe(3)
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `sync: Another write changed "D1" (${d1}) (name) after this sync read the locator, as the request of lines 2-3 was to delete it: the service kept it, and wrote none of that request. Another sync of this locator, or someone editing it: run one sync a locator at a time, as each deletes what its own list lacks. The requests before it are written, that one and the rest of the list not, nor are the stores the list lacks deleted. Run the sync again once the other write is done: it writes only what is not in step yet.`,
    ])
    // The request was refused whole: D1 keeps its edit and its code, D2 its own.
    const after = ((await (await api('/admin/v1/locations')).json()) as any).locations
    expect(after.map((l: any) => [l.id, l.external_id, l.name]).filter((l: string[]) => l[1] !== 'K1')).toEqual([
      [d1, 'D1', 'Edited by hand'],
      [d2, 'D2', 'Store D2'],
    ])
  } finally {
    proxy.stop()
  }
}, 60_000)

test('what reading a CSV file noted of it as a whole is said, as the CLI import says it', async () => {
  const file = join(served.dir, 'countries.csv')
  const rows = [
    'C1,Loop,1 Main St,Chicago,60601,US,41.88,-87.62',
    'C2,Pike,2 Pike St,Seattle,98101,US,47.61,-122.33',
    'C3,Louvre,1 Rue de Rivoli,Paris,75001,Frankreich,48.86,2.34',
  ]
  writeFileSync(file, `Store Code,Name,Street,City,Zip,Country,Latitude,Longitude\n${rows.join('\n')}\n`)
  const p = Bun.spawnSync(
    [process.execPath, join(import.meta.dir, '..', '..', 'examples/sync.ts'), file, '--dry-run'],
    { env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: served.key } },
  )
  expect(
    p.stdout
      .toString()
      .split('\n')
      .filter((l) => l.startsWith('check ')),
  ).toEqual([
    `check ${file}: The file gives 2 rows a country code and 1 a country name (line 4: "Frankreich"), so the addresses write the codes as names in German ("US" as "Vereinigte Staaten"). To keep the codes, write that row's country as a code ("FR").`,
  ])
}, 60_000)
