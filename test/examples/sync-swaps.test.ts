// examples/sync.ts renumbering stores by id across more than one request: a row that takes a code
// another store of the list gives up is sent in that store's request, so swaps and chains go.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { syncServer } from './sync-server'

const ROOT = join(import.meta.dir, '..', '..')
const served = syncServer()

/** The sync with requests of 3 rows: a list of 6 would be sent as rows 1-3 and 4-6. */
function sync(text: string, ...flags: string[]) {
  const file = join(served.dir, 'stores.csv')
  writeFileSync(file, text)
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), file, ...flags], {
    cwd: ROOT,
    env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: served.key, STORELOC_SYNC_CHUNK: '3' },
  })
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() }
}

async function stores(): Promise<{ id: string; external_id: string; name: string }[]> {
  const res = await fetch(`${served.url}/admin/v1/locations?limit=500`, {
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
    'checked: 2 of 6 rows\nchecked: 5 of 6 rows\nchecked: 6 of 6 rows\nwritten: 2 of 6 rows\nwritten: 5 of 6 rows\nwritten: 6 of 6 rows\n',
  )
  expect(done.code).toBe(0)
  const after = new Map((await stores()).map((s) => [s.name, [s.id, s.external_id]]))
  expect(names.map((n) => after.get(n))).toEqual(names.map((n, i) => [id.get(n)!, codes[i]!]))
  expect(sync(list).stdout).toEndWith('0 created, 0 updated, 6 unchanged, 0 deleted.\n')
}, 30_000)

test('a store listed twice by its id, in rows far apart, stops the sync before any write', async () => {
  const before = await stores()
  const one = before.find((s) => s.name === 'One')!
  const list = `${before.map((s, i) => line(s.id, s.external_id, s.name, i)).join('')}${line(one.id, 'S9', 'One again', 9)}`
  const dry = sync(`id,Store Code,Name,Address,Latitude,Longitude\n${list}`, '--dry-run')
  expect(dry.code).toBe(1)
  const at = before.indexOf(one) + 2
  expect(dry.stderr).toBe(`sync: Each store is listed once; line 8 has the id "${one.id}" of line ${at}.\n`)
  expect(await stores()).toEqual(before)
}, 30_000)
