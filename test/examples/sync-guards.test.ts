// What examples/sync.ts guards against beside its rows' problems: a row's id that names no store
// of the locator is said with what happens instead.
import { expect, test } from 'bun:test'
import { runSync, syncServer } from './sync-server'

const served = syncServer()

const HEADER = 'Store Code,Name,Address,Latitude,Longitude\n'
const row = (code: string, i: number) => `${code},Store ${code},"${i} Main St, Town",${40 + i / 10},${-3 - i / 10}\n`

test("a row's id that names no store of the locator is said, with the store its code matches instead", async () => {
  // K1 in every list: one without the stores the locator has would delete every one.
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
