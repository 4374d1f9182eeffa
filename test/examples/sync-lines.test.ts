// examples/sync.ts on a CSV whose rows span several lines (a quoted line break in a cell): a row
// is named by the line it starts on, a request by its rows' lines, and each row is sent whole.
import { expect, test } from 'bun:test'
import { runSync, standIn, syncServer } from './sync-server'

const served = syncServer()

const HEADER = 'Store Code,Name,Address,Latitude,Longitude,Description\n'
const NOTE = 'Open late\nParking behind\nStep-free entrance'
/** Twelve rows of three lines each: row i starts on line 3i - 1, so the last one on line 35. */
const ROWS = Array.from(
  { length: 12 },
  (_, i) => `S${i + 1},Store ${i + 1},"${i + 1} Main St, Town",${40 + i / 10},${-3 - i / 10},"${NOTE}"\n`,
).join('')
const CHUNK = { STORELOC_SYNC_CHUNK: '11' }

test('rows refused after rows of several lines are named by the lines they start on', async () => {
  // Two rows of three lines more, on lines 38 and 41: a run of rows, as the refusal names them.
  const far = `S13,Store 13,"13 Main St",95,-4.3,"${NOTE}"\nS14,Store 14,"14 Main St",41.4,-999,"${NOTE}"\n`
  const dry = await runSync(served, served.url, HEADER + ROWS + far, ['--dry-run'], CHUNK)
  expect(dry.code).toBe(1)
  expect(dry.stderr.split('\n')).toEqual([
    'checked: 11 of 14 rows',
    'checked: 14 of 14 rows (2 refused by the service)',
    expect.stringMatching(/^ {2}line 38 \(external_id "S13"\): The "Latitude" column must be between -90 and 90/),
    expect.stringMatching(/^ {2}line 41 \(external_id "S14"\): The "Longitude" column must be between -180 and 180/),
    'sync: 2 of 14 rows of the list cannot be written as sent, 2 refused by the service (lines 38-41); nothing was written.',
    '',
  ])
}, 30_000)

test("a request is named by its rows' lines, rows next to each other joined, and each row written whole", async () => {
  // The stand-in fails the first write: its request holds the first 11 rows, starting on lines 2 to 32.
  const failing = standIn(served, (body, on) =>
    body?.includes('"dry_run":false')
      ? Response.json({ success: false, error: 'error', message: 'Internal server error.' }, { status: 500 })
      : on(),
  )
  try {
    const failed = await runSync(served, failing.url, HEADER + ROWS, [], CHUNK)
    expect(failed.code).toBe(3)
    expect(failed.stderr).toEndWith(
      'sync: part of the list may be written, the request under way (lines 2-32) too. Run the sync again: it writes only what is not in step yet.\n',
    )
  } finally {
    failing.stop()
  }
  const done = await runSync(served, served.url, HEADER + ROWS, [], CHUNK)
  expect([done.code, done.stderr]).toEqual([
    0,
    'checked: 11 of 12 rows\nchecked: 12 of 12 rows\nsent: 11 of 12 rows (11 created)\nsent: 12 of 12 rows (12 created)\n',
  ])
  const res = await fetch(`${served.url}/admin/v1/locations?limit=100`, {
    headers: { authorization: `Bearer ${served.key}` },
  })
  const { locations } = (await res.json()) as { locations: { external_id: string; description: string }[] }
  expect(locations.map((l) => [l.external_id, l.description])).toEqual(
    Array.from({ length: 12 }, (_, i) => [`S${i + 1}`, NOTE]),
  )
}, 60_000)
