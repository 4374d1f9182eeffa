// examples/sync.ts renumbering stores by id across more than one request: a row that takes a code
// another store of the list gives up is sent in that store's request, or a later one, so swaps
// and chains go, a chain longer than a request in parts.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { reported, syncServer } from './sync-server'

const ROOT = join(import.meta.dir, '..', '..')
const served = syncServer()

/** The sync with requests of 3 rows (or `chunk`): a list of 6 would be sent as rows 1-3 and 4-6. */
function sync(text: string, ...flags: string[]) {
  return syncBy('3', text, ...flags)
}

function syncBy(chunk: string, text: string, ...flags: string[]) {
  const file = join(served.dir, 'stores.csv')
  writeFileSync(file, text)
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), file, ...flags], {
    cwd: ROOT,
    env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: served.key, STORELOC_SYNC_CHUNK: chunk },
  })
  return reported({ code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() })
}

async function stores(): Promise<{ id: string; external_id: string; name: string }[]> {
  const res = await fetch(`${served.url}/admin/v1/locations/export?format=json`, {
    headers: { authorization: `Bearer ${served.key}` },
  })
  return ((await res.json()) as any).locations
}

const line = (id: string, code: string, name: string, i: number) =>
  `${id},${code},${name},"${i} Main St, Town",${40 + i / 10},${-3 - i / 10}\n`

test('a swap of two codes and a chain of renumberings go through, their rows in different parts of the list', async () => {
  const names = ['One', 'Two', 'Three', 'Four', 'Five', 'Six']
  const head = 'id,Store Code,Name,Address,Latitude,Longitude\n'
  const first = sync(head + names.map((n, i) => line('', `S${i + 1}`, n, i)).join(''))
  expect(first.code).toBe(0)
  const id = new Map((await stores()).map((s) => [s.name, s.id]))
  // One and Six swap codes; Two takes Three's, Three takes Four's, Four a new one.
  const codes = ['S6', 'S3', 'S4', 'S7', 'S5', 'S1']
  const list = head + names.map((n, i) => line(id.get(n)!, codes[i]!, n, i)).join('')
  const dry = sync(list, '--dry-run')
  expect(dry.stderr).toBe('checked: 2 of 6 rows\nchecked: 5 of 6 rows\nchecked: 6 of 6 rows\n')
  expect(dry.stdout).toEndWith('Dry run, nothing written: 0 created, 5 updated, 1 unchanged, 0 deleted.\n')
  const done = sync(list)
  expect(done.stderr).toBe(
    'checked: 2 of 6 rows\nchecked: 5 of 6 rows\nchecked: 6 of 6 rows\nsent: 2 of 6 rows (2 updated)\nsent: 5 of 6 rows (5 updated)\nsent: 6 of 6 rows (5 updated, 1 unchanged)\n',
  )
  expect(done.code).toBe(0)
  const after = new Map((await stores()).map((s) => [s.name, [s.id, s.external_id]]))
  expect(names.map((n) => after.get(n))).toEqual(names.map((n, i) => [id.get(n)!, codes[i]!]))
  expect(sync(list).stdout).toEndWith('0 created, 0 updated, 6 unchanged, 0 deleted.\n')
}, 30_000)

test('a store listed twice by its id, in rows far apart, is said with the rest, and nothing written', async () => {
  const before = await stores()
  const one = before.find((s) => s.name === 'One')!
  const list = `${before.map((s, i) => line(s.id, s.external_id, s.name, i)).join('')}${line(one.id, 'S9', 'One again', 9)}`
  const dry = sync(`id,Store Code,Name,Address,Latitude,Longitude\n${list}`, '--dry-run')
  expect(dry.code).toBe(1)
  const at = before.indexOf(one) + 2
  expect(dry.stderr.split('\n').filter((l) => !l.startsWith('checked:'))).toEqual([
    `  line 8 (external_id "S9"): the same location (${one.id}) as line ${at}; give each store once.`,
    'sync: 1 of 7 rows of the list cannot be written as sent, 1 refused by the sync (line 8); nothing was written.',
    '',
  ])
  expect(await stores()).toEqual(before)
}, 30_000)

test("a row takes the code of a store the list drops: deleted in that row's request, the dry run as the real run", async () => {
  const head = 'id,Store Code,Name,Address,Latitude,Longitude\n'
  const now = await stores()
  const id = new Map(now.map((s) => [s.name, s.id]))
  const at = (name: string) => ['One', 'Two', 'Three', 'Four', 'Five', 'Six'].indexOf(name)
  // Two closes; Five takes its code, S3, and gives up S5. Rows 1-3 and 4-5 are apart.
  const kept = now.filter((s) => s.name !== 'Two' && s.name !== 'Five')
  const list = `${head}${kept.map((s) => line(s.id, s.external_id, s.name, at(s.name))).join('')}${line(id.get('Five')!, 'S3', 'Five', at('Five'))}`
  const dry = sync(list, '--dry-run')
  expect([dry.code, dry.stderr]).toEqual([0, 'checked: 3 of 5 rows\nchecked: 5 of 5 rows\n'])
  const two = (verb: string) => `${verb} S3 (${id.get('Two')})\n`
  expect(dry.stdout).toContain(`would update S3 (${id.get('Five')}): external_id\n${two('would delete')}`)
  expect(dry.stdout).toEndWith('Dry run, nothing written: 0 created, 1 updated, 4 unchanged, 1 deleted.\n')
  const done = sync(list)
  expect([done.code, done.stderr]).toEqual([
    0,
    'checked: 3 of 5 rows\nchecked: 5 of 5 rows\nsent: 3 of 5 rows (3 unchanged)\nsent: 5 of 5 rows (1 updated, 4 unchanged)\n',
  ])
  expect(done.stdout).toBe(
    `updated S3 (${id.get('Five')}): external_id\n${two('deleted')}0 created, 1 updated, 4 unchanged, 1 deleted.\n`,
  )
  const after = new Map((await stores()).map((s) => [s.name, [s.id, s.external_id]]))
  expect([after.get('Two'), after.get('Five')]).toEqual([undefined, [id.get('Five')!, 'S3']])
}, 30_000)

test('a chain of renumberings longer than a request goes in parts, its end first; deletes go STORELOC_SYNC_CHUNK a request', async () => {
  const head = 'id,Store Code,Name,Address,Latitude,Longitude\n'
  const names = ['P', 'Q', 'R', 'T', 'U']
  const old = (await stores()).map((s, i) => line(s.id, s.external_id, s.name, i)).join('')
  expect(sync(head + old + names.map((n, i) => line('', `C${i}`, n, 10 + i)).join('')).code).toBe(0)
  const id = new Map((await stores()).map((s) => [s.name, s.id]))
  // P takes Q's code, Q R's, R T's, T a new one: four rows linked, a request holds 3. The rest go.
  const chain = ['C1', 'C2', 'C3', 'C9']
  const list = head + chain.map((code, i) => line(id.get(names[i]!)!, code, names[i]!, 10 + i)).join('')
  const dry = sync(list, '--dry-run')
  // Q, R and T first, then P, which takes the code Q gives up in the first request.
  expect([dry.code, dry.stderr]).toEqual([0, 'checked: 3 of 4 rows\nchecked: 4 of 4 rows\n'])
  expect(dry.stdout).toEndWith('Dry run, nothing written: 0 created, 4 updated, 0 unchanged, 6 deleted.\n')
  // Said in the order of the lines, not as sent.
  const updates = ['P', 'Q', 'R', 'T'].map(
    (n) => `would update ${chain[names.indexOf(n)]} (${id.get(n)}): external_id\n`,
  )
  expect(dry.stdout).toStartWith(updates.join(''))
  const done = sync(list)
  expect([done.code, done.stderr]).toEqual([
    0,
    'checked: 3 of 4 rows\nchecked: 4 of 4 rows\nsent: 3 of 4 rows (3 updated)\nsent: 4 of 4 rows (4 updated)\ndeleted: 3 of 6 stores\ndeleted: 6 of 6 stores\n',
  ])
  const after = (await stores()).map((s) => [s.name, s.external_id])
  expect(after).toEqual(chain.map((code, i) => [names[i]!, code]))
}, 30_000)

test('the problems of a chain sent in parts, its end first, are listed in the order of their lines', async () => {
  const head = 'id,Store Code,Name,Address,Latitude,Longitude\n'
  const before = await stores()
  const id = new Map(before.map((s) => [s.name, s.id]))
  // P takes Q's code, Q R's, R T's, T a new one: Q, R and T are sent first. P's and T's latitudes are wrong.
  const lat = (n: string) => (n === 'P' ? '95' : n === 'T' ? '-95' : '40')
  const codes = ['C2', 'C3', 'C9', 'C10']
  const list = ['P', 'Q', 'R', 'T'].map((n, i) => `${id.get(n)},${codes[i]},${n},"${i} Main St, Town",${lat(n)},-3\n`)
  const dry = sync(head + list.join(''), '--dry-run')
  expect(dry.code).toBe(1)
  expect(dry.stderr.split('\n').filter((l) => !l.startsWith('checked:'))).toEqual([
    '  line 2 (external_id "C2"): The "Latitude" column must be between -90 and 90; got 95, with -3 as the longitude: are latitude and longitude swapped?',
    '  line 5 (external_id "C10"): The "Latitude" column must be between -90 and 90; got -95, with -3 as the longitude: are latitude and longitude swapped?',
    'sync: 2 of 4 rows of the list cannot be written as sent, 2 refused by the service (lines 2, 5); nothing was written.',
    '',
  ])
  expect(await stores()).toEqual(before)
}, 30_000)

test("a store renumbered to another's code keeps the special hours its row gives, not the other's", async () => {
  const head = 'id,Store Code,Name,Address,Latitude,Longitude,Special Hours\n'
  const row = (id: string, code: string, name: string, i: number, special: string) =>
    `${line(id, code, name, i).trimEnd()},${special}\n`
  const kept = (await stores()).map((s, i) => row(s.id, s.external_id, s.name, i, '')).join('')
  const made = sync(
    head + kept + row('', 'H1', 'Eve', 30, '2026-12-24 closed') + row('', 'H2', 'Day', 31, '2026-12-31 10:00-14:00'),
  )
  expect(made.code).toBe(0)
  const id = new Map((await stores()).map((s) => [s.name, s.id]))
  // Eve takes Day's code, its cell without the 24th; Day takes a new one. The CLI's import clears the 24th.
  const list = `${head}${kept}${row(id.get('Eve')!, 'H2', 'Eve', 30, '2026-12-25 closed')}${row(id.get('Day')!, 'H3', 'Day', 31, '2026-12-31 10:00-14:00')}`
  const run = sync(list)
  expect(run.code).toBe(0)
  expect(run.stdout).toContain(
    `updated H2 (${id.get('Eve')}): external_id, special_hours.2026-12-25, special_hours.2026-12-24\n`,
  )
  const after = new Map((await stores()).map((s: any) => [s.name, s.special_hours]))
  expect([after.get('Eve'), after.get('Day')]).toEqual([{ '2026-12-25': 'closed' }, { '2026-12-31': '10:00-14:00' }])
}, 30_000)

test('a JSON list renumbers by ids as the route reads them: blanks around an id aside, a blank id none', async () => {
  const now = await stores()
  const at = (s: { id: string }, code: string, i: number) => ({
    id: ` ${s.id} `,
    external_id: code,
    name: (s as any).name,
    address: `${i} Main St, Town`,
    coordinates: { lat: 40 + i / 100, lng: -3 - i / 100 },
  })
  // Each store takes the next one's code, the last a new one, one row a request; two new stores with a blank id.
  const chain = now.map((s, i) => at(s, now[i + 1]?.external_id ?? 'J1', i))
  const fresh = ['J2', 'J3'].map((code, i) => ({ ...at({ id: '' }, code, 50 + i), id: '', name: code }))
  const file = join(served.dir, 'stores.json')
  writeFileSync(file, JSON.stringify([...chain, ...fresh]))
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), file], {
    cwd: ROOT,
    env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: served.key, STORELOC_SYNC_CHUNK: '1' },
  })
  expect([
    p.exitCode,
    p.stderr
      .toString()
      .split('\n')
      .filter((l) => !/^(checked|sent):/.test(l)),
  ]).toEqual([0, ['']])
  expect(p.stdout.toString()).toEndWith(`2 created, ${now.length} updated, 0 unchanged, 0 deleted.\n`)
  const after = new Map((await stores()).map((s) => [s.id, s.external_id]))
  expect(now.map((s) => after.get(s.id))).toEqual(chain.map((c) => c.external_id))
}, 30_000)

test('a chain of renumberings longer than any request goes in parts; a ring of them is refused before any write', async () => {
  const head = 'id,Store Code,Name,Address,Latitude,Longitude\n'
  const n = 1001
  const names = Array.from({ length: n }, (_, i) => `Link ${i}`)
  const old = (await stores()).map((s, i) => line(s.id, s.external_id, s.name, i)).join('')
  expect(syncBy('1000', head + old + names.map((name, i) => line('', `L${i}`, name, i / 100)).join('')).code).toBe(0)
  const id = new Map((await stores()).map((s) => [s.name, s.id]))
  // Each store takes the next one's code, the last a new one: 1,001 rows linked, in two requests.
  const chain = head + names.map((name, i) => line(id.get(name)!, `L${i + 1}`, name, i / 100)).join('')
  const run = syncBy('1000', chain)
  expect([run.code, run.stderr]).toEqual([
    0,
    'checked: 999 of 1001 rows\nchecked: 1001 of 1001 rows\nsent: 999 of 1001 rows (999 updated)\nsent: 1001 of 1001 rows (1001 updated)\n',
  ])
  expect(run.stdout).toEndWith('0 created, 1001 updated, 0 unchanged, 8 deleted.\n')
  const before = await stores()
  expect(before.map((s) => [s.name, s.external_id])).toEqual(names.map((name, i) => [name, `L${i + 1}`]))
  // Each takes the next one's code, the last the first one's: a ring no order writes code by code.
  const ring = head + names.map((name, i) => line(id.get(name)!, `L${((i + 1) % n) + 1}`, name, i / 100)).join('')
  const refused = syncBy('1000', ring, '--dry-run')
  expect([refused.code, refused.stdout]).toEqual([1, ''])
  expect(refused.stderr).toBe(
    "sync: 1001 rows take one another's store codes in a ring (line 2, line 3, line 4, line 5, line 6 and 996 more), and one request takes at most 1000 rows: a ring (a swap) goes through only within one request, as no order frees each code before it is taken. Renumber them in two syncs (first to codes no store holds, then to the new ones), or import the list with the CLI, `storeloc locations import LOCATOR_ID --file FILE --delete-missing`, which takes any number in one transaction. Nothing was written.\n",
  )
  expect(await stores()).toEqual(before)
}, 120_000)
