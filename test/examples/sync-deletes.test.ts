// examples/sync.ts deleting what left the list while another client deletes some of it: a store
// already gone when the sync's delete items reach the service is not said or counted as deleted.
// A request of deletes alone is named by its stores, and moves the progress no further; so is a
// dropped store's delete in a problem the service finds with it.
import { expect, test } from 'bun:test'
import { runSync, standIn, syncServer } from './sync-server'

const served = syncServer()

const HEADER = 'Store Code,Name,Address,Latitude,Longitude\n'
const row = (code: string, i: number) => `${code},Store ${code},"${i} Main St, Town",${40 + i / 10},${-3 - i / 10}\n`
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${served.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' },
  })
const sync = (base: string, text: string, flags: string[] = [], env: Record<string, string> = {}) =>
  runSync(served, base, text, flags, env)

/** The list `text` synced: the id of each of its stores, by its code. */
async function synced(text: string): Promise<(code: string) => string> {
  expect((await sync(served.url, text)).code).toBe(0)
  const { locations } = (await (await api('/admin/v1/locations')).json()) as {
    locations: { id: string; external_id: string }[]
  }
  return (code) => locations.find((l) => l.external_id === code)!.id
}

const serverError = () =>
  Response.json({ success: false, error: 'error', message: 'Internal server error.' }, { status: 500 })

test('a store deleted by another client before the sync deletes it is said already gone, not deleted', async () => {
  const id = await synced(HEADER + row('S1', 1) + row('S2', 2) + row('S3', 3))
  // Before the first request carrying delete items, deletes S3 itself.
  let raced = false
  const proxy = standIn(served, async (body, on) => {
    if (!raced && body?.includes('"delete":true')) {
      raced = true
      expect((await api(`/admin/v1/locations/${id('S3')}/delete`, { method: 'POST' })).status).toBe(200)
    }
    return on()
  })
  try {
    const run = await sync(proxy.url, HEADER + row('S1', 1))
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout.split('\n')).toEqual([
      `deleted S2 (${id('S2')})`,
      `already gone S3 (${id('S3')})`,
      '0 created, 0 updated, 1 unchanged, 1 deleted.',
      '',
    ])
  } finally {
    proxy.stop()
  }
  expect(raced).toBe(true)
}, 30_000)

test('a request of deletes alone is named by its stores, and its progress is not said again', async () => {
  const id = await synced(HEADER + row('S1', 1) + row('D1', 2) + row('D2', 3))
  // D1's store takes D2, whose store the list drops: a request of a row each, the delete of D2's
  // store alone between N1's and D1's.
  const list = `id,${HEADER},${row('N1', 4)}${id('D1')},${row('D2', 2)},${row('S1', 1)}`
  const chunk = { STORELOC_SYNC_CHUNK: '1' }
  const progress = (verb: string) => `${verb}: 1 of 3 rows\n${verb}: 2 of 3 rows\n${verb}: 3 of 3 rows\n`
  const checked = await sync(served.url, list, ['--dry-run'], chunk)
  expect([checked.code, checked.stderr]).toEqual([0, progress('checked')])
  // A stand-in answers the write of that delete with `failure`, and passes the rest on.
  let failure = serverError
  const through = standIn(served, (body, on) =>
    body?.includes('"dry_run":false') && body.includes('"delete":true') ? failure() : on(),
  )
  const deleting = `deleting "D2" (${id('D2')})`
  try {
    const failed = await sync(through.url, list, [], chunk)
    expect(failed.code).toBe(3)
    expect(failed.stderr).toEndWith(
      `sync: part of the list may be written, the request under way (${deleting}) too. Run the sync again: it writes only what is not in step yet.\n`,
    )
    failure = () =>
      Response.json({ success: false, error: 'conflict', message: 'Refused by the stand-in.' }, { status: 409 })
    const refused = await sync(through.url, list, [], chunk)
    expect(refused.code).toBe(3)
    expect(refused.stderr).toContain(`sync: The request ${deleting} was refused: Refused by the stand-in.\n`)
  } finally {
    through.stop()
  }
  const done = await sync(served.url, list, [], chunk)
  const sent =
    'sent: 1 of 3 rows (1 unchanged)\nsent: 2 of 3 rows (1 updated, 1 unchanged)\nsent: 3 of 3 rows (1 updated, 2 unchanged)\n'
  expect([done.code, done.stderr]).toEqual([0, progress('checked') + sent])
  expect(done.stdout).toContain(`deleted D2 (${id('D2')})\n`)
}, 60_000)

test("a problem with a dropped store's delete names it as a request of deletes is named", async () => {
  const id = await synced(HEADER + row('S1', 1) + row('E1', 5) + row('E2', 6))
  // E1's store takes E2, whose store the list drops: its delete goes in E1's request.
  const list = `id,${HEADER},${row('S1', 1)}${id('E1')},${row('E2', 5)}`
  // A stand-in refuses the delete item in the dry run, as the service words an item's problem.
  const keeping = standIn(served, (body, on) => {
    const items = body === undefined ? [] : ((JSON.parse(body) as any).locations ?? [])
    const at = items.findIndex((i: any) => i.delete === true)
    if (at < 0) return on()
    const problem = `locations[${at}]: The stand-in keeps this store.`
    const message = `1 of ${items.length} locations cannot be written as sent; nothing was written.`
    const details = { [`locations[${at}]`]: [problem] }
    return Response.json({ success: false, error: 'validation_error', message, details }, { status: 422 })
  })
  try {
    const dry = await sync(keeping.url, list, ['--dry-run'])
    expect([dry.code, dry.stdout]).toEqual([1, ''])
    expect(dry.stderr.split('\n')).toEqual([
      `  deleting "E2" (${id('E2')}): The stand-in keeps this store.`,
      'sync: The list cannot be written as sent; nothing was written.',
      '',
    ])
  } finally {
    keeping.stop()
  }
  expect((await sync(served.url, list, ['--dry-run'])).code).toBe(0)
}, 60_000)

test('the deletes sent last, refused or failing, are named by their stores', async () => {
  const id = await synced(HEADER + row('S1', 1) + row('G1', 7) + row('G2', 8))
  const deleting = `deleting "G1" (${id('G1')}), "G2" (${id('G2')})`
  // A stand-in answers the write of the deletes with `failure`, and passes the rest on.
  let failure = () =>
    Response.json(
      {
        success: false,
        error: 'validation_error',
        message: '1 of 2 locations cannot be written as sent; nothing was written.',
        details: { 'locations[1]': ['locations[1]: The stand-in keeps this store.'] },
      },
      { status: 422 },
    )
  const through = standIn(served, (body, on) =>
    body?.includes('"delete":true') && !body.includes('"dry_run":true') ? failure() : on(),
  )
  const again = 'Run the sync again: it writes only what is not in step yet.'
  try {
    const refused = await sync(through.url, HEADER + row('S1', 1))
    expect(refused.code).toBe(3)
    expect(refused.stderr.split('\n')).toEqual([
      `  deleting "G2" (${id('G2')}): The stand-in keeps this store.`,
      `sync: The request ${deleting} was refused: 1 of 2 locations cannot be written as sent; nothing was written.`,
      `sync: the requests before it are written: 1 of 1 rows sent (1 unchanged), the 2 stores the list lacks not deleted yet. ${again}`,
      '',
    ])
    failure = serverError
    const failed = await sync(through.url, HEADER + row('S1', 1))
    expect(failed.code).toBe(3)
    expect(failed.stderr).toEndWith(
      `sync: part of the list may be written, the request under way (${deleting}) too. ${again}\n`,
    )
  } finally {
    through.stop()
  }
  expect((await sync(served.url, HEADER + row('S1', 1))).code).toBe(0)
}, 60_000)

test("the deletes' progress counts a store found gone apart from those deleted", async () => {
  // A locator of its own: the list below deletes every other store of it.
  const key = served.json('locator', 'create', '--name', 'Gone').key.secret_key as string
  const env = { STORELOC_KEY: key, STORELOC_SYNC_CHUNK: '1' }
  const list = HEADER + row('D1', 1) + row('D2', 2) + row('D3', 3) + row('D4', 4)
  expect((await sync(served.url, list, [], env)).code).toBe(0)
  const headers = { authorization: `Bearer ${key}` }
  const { locations } = (await (await fetch(`${served.url}/admin/v1/locations`, { headers })).json()) as {
    locations: { id: string; external_id: string }[]
  }
  const d3 = locations.find((l) => l.external_id === 'D3')!.id
  // Another client deletes D3 as the first delete (D2's) reaches the service.
  let raced = false
  const proxy = standIn(served, async (body, on) => {
    if (!raced && body?.includes('"delete":true')) {
      raced = true
      const gone = await fetch(`${served.url}/admin/v1/locations/${d3}/delete`, { method: 'POST', headers })
      expect(gone.status).toBe(200)
    }
    return on()
  })
  try {
    const run = await sync(proxy.url, HEADER + row('D1', 1), [], env)
    expect([run.code, run.stderr]).toEqual([
      0,
      'deleted: 1 of 3 stores\ndeleted: 1 of 3 stores, 1 already gone\ndeleted: 2 of 3 stores, 1 already gone\n',
    ])
    expect(run.stdout).toContain(`\nalready gone D3 (${d3})\n`)
    expect(run.stdout).toEndWith('\n0 created, 0 updated, 1 unchanged, 2 deleted.\n')
  } finally {
    proxy.stop()
  }
}, 30_000)

test('a last line read as no store that names a store the list drops refuses the sync: the store stays', async () => {
  const id = await synced(HEADER + row('S1', 1) + row('S2', 2) + row('2', 3))
  // Store 2's code written without its trailing commas: one cell, the count of the rows above.
  for (const flags of [['--dry-run'], []]) {
    const r = await sync(served.url, `${HEADER}${row('S1', 1)}${row('S2', 2)}2\n`, flags)
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([
      1,
      'sync: The list would delete a location that line 4 names, though it was read as no store; nothing was written.',
    ])
    expect(r.stderr).toContain('  Refused: line 4 ("2") was read as no store')
  }
  expect((await api(`/admin/v1/locations/${id('2')}`)).status).toBe(200)
})
