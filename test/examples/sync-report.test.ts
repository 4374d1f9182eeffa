// examples/sync.ts telling a person what it found: every problem of the list in one run, in the
// CSV's column names; the stores without a code it leaves; a new row taking a code another row
// gives up is one request's, as the bulk route reads it; a cell not read said as the CLI says it;
// warnings as of the list before any write, dry run or not.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { reported, syncServer } from './sync-server'

const ROOT = join(import.meta.dir, '..', '..')
const served = syncServer()

/** The sync with requests of 2 rows. */
function sync(text: string, ...flags: string[]) {
  const file = join(served.dir, 'stores.csv')
  writeFileSync(file, text)
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), file, ...flags], {
    cwd: ROOT,
    env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: served.key, STORELOC_SYNC_CHUNK: '2' },
  })
  return reported({ code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() })
}

async function stores(): Promise<{ id: string; external_id: string | null; name: string }[]> {
  const res = await fetch(`${served.url}/admin/v1/locations/export?format=json`, {
    headers: { authorization: `Bearer ${served.key}` },
  })
  return ((await res.json()) as any).locations
}

const HEAD = 'id,Store Code,Name,Address,Breite,Länge\n'
const line = (id: string, code: string, name: string, i: number, lat = `${40 + i / 10}`) =>
  `${id},${code},${name},"${i} Main St, Town",${lat},${-3 - i / 10}\n`

test('stores without a code are left, and the summary says how many, dry run or not', async () => {
  expect(sync(HEAD + line('', 'S1', 'One', 1) + line('', 'S2', 'Two', 2)).code).toBe(0)
  const res = await fetch(`${served.url}/admin/v1/locations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'No code', address: '9 Main St, Town', coordinates: { lat: 40.9, lng: -3.9 } }),
  })
  expect(res.status).toBe(201)
  const list = HEAD + line('', 'S1', 'One', 1) + line('', 'S2', 'Two', 2)
  const left = '; 1 store without an external_id left as it is.\n'
  expect(sync(list, '--dry-run').stdout).toBe(
    `Dry run, nothing written: 0 created, 0 updated, 2 unchanged, 0 deleted${left}`,
  )
  expect(sync(list).stdout).toBe(`0 created, 0 updated, 2 unchanged, 0 deleted${left}`)
}, 30_000)

test("every problem of the list in one run, in its lines' order and its columns' names, though a store is listed twice", async () => {
  const before = await stores()
  const list =
    HEAD +
    line('', 'S1', 'One', 1, '95') +
    line('', 'S2', 'Two', 2) +
    line('', 'S2', 'Two', 2) +
    line('', 'S3', 'Three', 3) +
    line('', 'S1\u200b', 'Other', 4) +
    line('', 'S4', 'Four', 5, '-95')
  const dry = sync(list, '--dry-run')
  expect([dry.code, dry.stdout]).toEqual([1, ''])
  expect(dry.stderr.split('\n').filter((l) => !l.startsWith('checked:'))).toEqual([
    '  line 2 (external_id "S1"): The "Breite" column must be between -90 and 90; got 95, with -3.1 as the longitude: are latitude and longitude swapped?',
    '  line 4 (external_id "S2"): repeats line 3; give each store once.',
    '  line 6 (external_id "S1\u200b"): the same store code as line 2; give each external_id once.',
    '  line 7 (external_id "S4"): The "Breite" column must be between -90 and 90; got -95, with -3.5 as the longitude: are latitude and longitude swapped?',
    'sync: 4 of 6 rows of the list cannot be written as sent, 2 refused by the sync (lines 4, 6) and 2 by the service (lines 2, 7); nothing was written.',
    '',
  ])
  expect(await stores()).toEqual(before)
}, 30_000)

test("a new row taking the code another row's store gives up is that store's, as in one request: refused", async () => {
  const before = await stores()
  const two = before.find((s) => s.name === 'Two')!
  // Two moves to S5 by its id; a new row, far from it in the list, takes S2: the route matches it to Two.
  const list = HEAD + line('', 'S2', 'Newcomer', 6) + line('', 'S1', 'One', 1) + line(two.id, 'S5', 'Two', 2)
  const dry = sync(list, '--dry-run')
  expect([dry.code, dry.stdout]).toEqual([1, ''])
  // Said as the code that moved where, and what to do.
  expect(dry.stderr).toContain(
    `line 4 (external_id "S5"): line 2 has no id, so its store code "S2" matches it to location ${two.id} ("Two"), which this item moves to "S5". Items without an id are matched by the codes held before the request: to create a new store with "S2", send line 2 in a later request (or import) than this item; if it is that store, give the store once.\n`,
  )
  expect(sync(list).code).toBe(1)
  expect(await stores()).toEqual(before)
}, 30_000)

test("a cell the sync cannot read is said alone, as the CLI says it: not the geocoder's advice to fill in the columns", async () => {
  const before = await stores()
  // GEOCODER=none: a row sent without its point would be refused as one to place, "fill in the columns".
  const list = `${HEAD}${line('', 'S1', 'One', 1, 'north')}${line('', 'S2', 'Two', 2)}${line('', 'S7', '', 7)}`
  const dry = sync(list, '--dry-run')
  expect([dry.code, dry.stdout]).toEqual([1, ''])
  expect(dry.stderr.split('\n').filter((l) => !l.startsWith('checked:'))).toEqual([
    `  line 2 (external_id "S1"): The "Breite" column must be a number; got "north". Write a decimal number such as 48.8566 or -3.7074 (48°51'24"N, 48.8566 N and 48.8566° are read too).`,
    '  line 4 (external_id "S7"): The "Name" column is required.',
    'sync: 2 of 3 rows of the list cannot be written as sent, 1 refused by the sync (line 2) and 1 by the service (line 4); nothing was written.',
    '',
  ])
  // A row whose cells are out of their columns is not checked field by field, as the CLI leaves it.
  const shifted = `${HEAD},S1,One,"1 Main St, Town",40.1\n${line('', 'S2', 'Two', 2)}`
  const rows = sync(shifted, '--dry-run')
  expect(rows.stderr.split('\n').filter((l) => !l.startsWith('checked:'))).toEqual([
    '  line 2 (external_id "S1"): This row has 5 cells but the header has 6 columns. Add the missing cells (an empty cell is just the separator), or look for a line break in a cell that is not in double quotes.',
    'sync: 1 of 2 rows of the list cannot be written as sent, 1 refused by the sync (line 2); nothing was written.',
    '',
  ])
  expect(await stores()).toEqual(before)
}, 30_000)

test('a warning of lost leading zeros is said alike by a dry run and a real run, as of the list before any write', async () => {
  expect(sync(HEAD + line('', 'S1', 'One', 1) + line('', 'S2', 'Two', 2) + line('', '0012', 'Zeros', 3)).code).toBe(0)
  const zeros = (await stores()).find((s) => s.name === 'Zeros')!
  const checks = (run: { stdout: string }) => run.stdout.split('\n').filter((l) => l.startsWith('check '))
  // Zeros gives up 0012 in the first request; a new store takes 12 in the second.
  const list = HEAD + line(zeros.id, 'Z1', 'Zeros', 3) + line('', 'S1', 'One', 1) + line('', 'S2', 'Two', 2)
  const twelve = list + line('', '12', 'Twelve', 4)
  const warned = [
    `check line 5: Location ${zeros.id} has the external_id "0012": if this row is that store, its code lost its leading zeros (Excel reads 0012 as 12), and the row makes a second one. Format the column as text and give the code as "0012".`,
  ]
  expect(checks(sync(twelve, '--dry-run'))).toEqual(warned)
  const done = sync(twelve)
  expect([done.code, checks(done)]).toEqual([0, warned])
  // A new store takes 0099 in the first request, another 99 in the second: no stored code lost zeros.
  const both = HEAD + line('', '0099', 'Nines', 5) + line('', 'S1', 'One', 1) + line('', '99', 'Ninety-nine', 6)
  expect(checks(sync(both, '--dry-run'))).toEqual([])
  const made = sync(both)
  expect([made.code, checks(made)]).toEqual([0, []])
}, 60_000)

test('a run that fails while writing says the warnings of the rows it may have written: the next run finds them unchanged', async () => {
  // A locator of its own, and a stand-in for the service that refuses the third write.
  const made = served.json('locator', 'create', '--name', 'Failing')
  const key = made.key.secret_key as string
  let writes = 0
  const standIn = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const body = request.method === 'POST' ? await request.text() : undefined
      if (body?.includes('"dry_run":false') && ++writes >= 3)
        return Response.json({ success: false, error: 'error', message: 'Internal server error.' }, { status: 500 })
      const { pathname, search } = new URL(request.url)
      return fetch(`${served.url}${pathname}${search}`, { method: request.method, headers: request.headers, body })
    },
  })
  /** The sync of `text` through `url`, a request a row; not spawnSync: the stand-in answers from this process. */
  const run = async (url: string, text: string) => {
    const file = join(served.dir, 'failing.csv')
    writeFileSync(file, text)
    const p = Bun.spawn([process.execPath, join(ROOT, 'examples/sync.ts'), file], {
      cwd: ROOT,
      env: { ...process.env, STORELOC_URL: url, STORELOC_KEY: key, STORELOC_SYNC_CHUNK: '1' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [stdout, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()])
    return reported({ code: await p.exited, stdout, stderr })
  }
  try {
    expect((await run(served.url, HEAD + line('', '0012', 'Zeros', 3))).code).toBe(0)
    const zeros = served.json('locations', 'export', made.locator.id)[0]
    // Zeros gives up 0012, a new store takes 12 (written), then the stand-in fails the third row's write.
    const list = HEAD + line(zeros.id, 'Z1', 'Zeros', 3) + line('', '12', 'Twelve', 4) + line('', 'S1', 'One', 1)
    const failed = await run(`http://127.0.0.1:${standIn.port}`, list)
    expect(failed.code).toBe(3)
    // What the two rows written changed, then their warnings.
    const twelve = served
      .json('locations', 'export', made.locator.id)
      .find((l: { external_id: string }) => l.external_id === '12')
    expect(failed.stdout).toBe(
      `updated Z1 (${zeros.id}): external_id\ncreated 12 (${twelve.id})\ncheck line 3: Location ${zeros.id} has the external_id "0012": if this row is that store, its code lost its leading zeros (Excel reads 0012 as 12), and the row makes a second one. Format the column as text and give the code as "0012".\n`,
    )
    // Run again, Twelve is unchanged: nothing warns of it any more.
    const again = await run(served.url, list)
    expect(again.code).toBe(0)
    expect(again.stdout.split('\n').slice(1)).toEqual(['1 created, 0 updated, 2 unchanged, 0 deleted.', ''])
  } finally {
    standIn.stop(true)
  }
}, 60_000)
