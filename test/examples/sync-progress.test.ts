// examples/sync.ts's progress lines and stop message, as a person mirroring a list reads them: each
// says how far the list got and what the rows sent so far did, so rows left unchanged are not
// said to be written.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runWithSlowStderr } from '../slow-stderr'
import { reported, runSync, standIn, syncServer } from './sync-server'

const served = syncServer()

const HEADER = 'Store Code,Name,Address,Latitude,Longitude\n'
const row = (n: number, name = `Store ${n}`) => `S${n},${name},"${n} Main St, Town",${40 + n / 10},${-3 - n / 10}\n`
const ONE_A_REQUEST = { STORELOC_SYNC_CHUNK: '1' }

test('a request at a time, the progress says what the rows sent did: created, updated, unchanged', async () => {
  const first = await runSync(served, served.url, HEADER + row(1) + row(2), [], ONE_A_REQUEST)
  expect([first.code, first.stderr]).toEqual([
    0,
    'checked: 1 of 2 rows\nchecked: 2 of 2 rows\nsent: 1 of 2 rows (1 created)\nsent: 2 of 2 rows (2 created)\n',
  ])
  const again = await runSync(served, served.url, HEADER + row(1) + row(2), [], ONE_A_REQUEST)
  expect([again.code, again.stderr]).toEqual([
    0,
    'checked: 1 of 2 rows\nchecked: 2 of 2 rows\nsent: 1 of 2 rows (1 unchanged)\nsent: 2 of 2 rows (2 unchanged)\n',
  ])
  expect(again.stdout).toBe('0 created, 0 updated, 2 unchanged, 0 deleted.\n')
  const changed = await runSync(served, served.url, HEADER + row(1) + row(2, 'Renamed') + row(3), [], ONE_A_REQUEST)
  expect(changed.stderr).toEndWith(
    'sent: 1 of 3 rows (1 unchanged)\nsent: 2 of 3 rows (1 updated, 1 unchanged)\nsent: 3 of 3 rows (1 created, 1 updated, 1 unchanged)\n',
  )
}, 60_000)

test('a run that fails while writing lists what its answered requests changed: the next run finds them unchanged', async () => {
  // The stand-in fails the third write; the rows before it are written.
  let writes = 0
  const failing = standIn(served, (body, on) =>
    body?.includes('"dry_run":false') && ++writes === 3
      ? Response.json({ success: false, error: 'error', message: 'Internal server error.' }, { status: 500 })
      : on(),
  )
  const list = HEADER + row(1, 'One') + row(4) + row(2, 'Renamed') + row(3)
  try {
    const failed = await runSync(served, failing.url, list, [], ONE_A_REQUEST)
    expect(failed.code).toBe(3)
    expect(failed.stderr).toContain('sent: 2 of 4 rows (1 created, 1 updated)\n')
    expect(failed.stdout).toMatch(/^updated S1 \(loc_\w+\): name\ncreated S4 \(loc_\w+\)\n$/)
  } finally {
    failing.stop()
  }
  const again = await runSync(served, served.url, list, [], ONE_A_REQUEST)
  expect([again.code, again.stdout]).toEqual([0, '0 created, 0 updated, 4 unchanged, 0 deleted.\n'])
}, 60_000)

test('on a terminal the progress lines are plain, as the CLI import draws its own: not in the red of an error', async () => {
  // A locator of its own: the list is mirrored whole.
  const key = served.json('locator', 'create', '--name', 'Terminal').key.secret_key as string
  const file = join(served.dir, 'terminal.csv')
  writeFileSync(file, HEADER + row(7) + row(8))
  let seen = ''
  const decoder = new TextDecoder()
  const p = Bun.spawn([process.execPath, join(import.meta.dir, '..', '..', 'examples/sync.ts'), file], {
    cwd: join(import.meta.dir, '..', '..'),
    env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: key, ...ONE_A_REQUEST },
    terminal: { cols: 200, rows: 20, data: (_t, data) => (seen += decoder.decode(data, { stream: true })) },
  })
  expect(await p.exited).toBe(0)
  // A terminal ends its lines with CR LF; each progress line starts one, with no colour before it.
  const lines = seen.split('\r\n')
  expect(lines.filter((l) => /(checked|sent): \d/.test(l))).toEqual([
    'checked: 1 of 2 rows',
    'checked: 2 of 2 rows',
    'sent: 1 of 2 rows (1 created)',
    'sent: 2 of 2 rows (2 created)',
  ])
}, 60_000)

test('a supervisor reading a non-blocking stderr late holds the progress back, in order, and the sync ends its work', async () => {
  const key = served.json('locator', 'create', '--name', 'Supervised').key.secret_key as string
  const file = join(served.dir, 'supervised.csv')
  writeFileSync(file, HEADER + row(1) + row(2) + row(3))
  const run = (gone: boolean) =>
    runWithSlowStderr([process.execPath, join(import.meta.dir, '..', '..', 'examples/sync.ts'), file], {
      cwd: join(import.meta.dir, '..', '..'),
      env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: key, ...ONE_A_REQUEST },
      gone,
    })
  const late = reported(await run(false))
  expect(late.code).toBe(0)
  expect(late.stdout).toMatch(
    /^created S1 .*\ncreated S2 .*\ncreated S3 .*\n3 created, 0 updated, 0 unchanged, 0 deleted\.\n$/,
  )
  expect(late.stderr).toBe(
    'checked: 1 of 3 rows\nchecked: 2 of 3 rows\nchecked: 3 of 3 rows\nsent: 1 of 3 rows (1 created)\nsent: 2 of 3 rows (2 created)\nsent: 3 of 3 rows (3 created)\n',
  )
  // A reader gone: the progress is lost, as console.error's lines are, and the sync still ends.
  const unread = reported(await run(true))
  expect([unread.code, unread.stdout]).toEqual([0, '0 created, 0 updated, 3 unchanged, 0 deleted.\n'])
}, 60_000)
