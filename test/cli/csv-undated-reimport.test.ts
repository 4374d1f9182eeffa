// storeloc locations import of holiday dates without a year ("Dec 25 closed") by the clock a run
// reads: the same file imported again in the week after the day reads as it did, and later the
// days past are next year's.
import { beforeEach, expect, test } from 'bun:test'
import { join } from 'node:path'
import { dbPath, file, json, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Undated').locator.id
})

/** The import's counts of one store whose special hours cell is `cell`, run with its clock at `at` (ms since 1970). */
function importAt(
  at: number,
  cell = 'Dec 25 closed; Dec 26 10-4',
): { created: number; updated: number; unchanged: number } {
  const root = join(import.meta.dir, '..', '..')
  const csv = `external_id,name,address,lat,lng,Holiday Hours\nS1,A,1520 4th Ave Seattle,47.6114,-122.3371,"${cell}"\n`
  const argv = ['locations', 'import', locatorId, '--file', file('holidays.csv', csv), '--json']
  const run = Bun.spawnSync(
    [process.execPath, '--preload', join(import.meta.dir, 'clock-ahead.ts'), join(root, 'src/cli/main.ts'), ...argv],
    {
      cwd: root,
      env: { ...process.env, DATABASE_PATH: dbPath, GEOCODER: 'none', CLOCK_AHEAD_MS: String(at - Date.now()) },
    },
  )
  expect([run.exitCode, run.stderr.toString()]).toEqual([0, ''])
  const { created, updated, unchanged } = JSON.parse(run.stdout.toString())
  return { created, updated, unchanged }
}

const stored = () => json('locations', 'export', locatorId)[0].special_hours

/** The next December `day` of a year after this one (UTC), at noon: a day ahead of the machine's clock. */
const december = (day: number) => Date.UTC(new Date().getUTCFullYear() + 1, 11, day, 12)

test("the file imported again the day after is unchanged; a week later a day past is next year's", () => {
  const y = new Date(december(20)).getUTCFullYear()
  expect(importAt(december(20)).created).toBe(1)
  expect(stored()).toEqual({ [`${y}-12-25`]: 'closed', [`${y}-12-26`]: '10-4' })
  expect(importAt(december(27))).toEqual({ created: 0, updated: 0, unchanged: 1 })
  expect(stored()).toEqual({ [`${y}-12-25`]: 'closed', [`${y}-12-26`]: '10-4' })
  // January 2: December 26 is 7 days past, still this season's; December 25, 8 days past, is next year's.
  expect(importAt(december(33))).toEqual({ created: 0, updated: 1, unchanged: 0 })
  expect(stored()).toEqual({ [`${y + 1}-12-25`]: 'closed', [`${y}-12-26`]: '10-4' })
})

test('the file imported first the day after Christmas reads Christmas as the one just past', () => {
  const y = new Date(december(26)).getUTCFullYear()
  expect(importAt(december(26)).created).toBe(1)
  expect(stored()).toEqual({ [`${y}-12-25`]: 'closed', [`${y}-12-26`]: '10-4' })
})

/** Each day from `from` to `to` (YYYY-MM-DD) with the hours `text`. */
function days(from: string, to: string, text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (let t = Date.parse(from); t <= Date.parse(to); t += 86_400_000)
    out[new Date(t).toISOString().slice(0, 10)] = text
  return out
}

test('a run of days keeps its year while its last day is at most a week past', () => {
  const y = new Date(december(5)).getUTCFullYear()
  expect(importAt(december(5), 'Dec 1-31 closed').created).toBe(1)
  expect(importAt(december(10), 'Dec 1-31 closed')).toEqual({ created: 0, updated: 0, unchanged: 1 })
  expect(stored()).toEqual(days(`${y}-12-01`, `${y}-12-31`, 'closed'))
  // January 5: the run from December 20 to January 10 is the one under way.
  expect(importAt(december(36), 'Dec 20 - Jan 10 closed').updated).toBe(1)
  expect(stored()).toEqual(days(`${y}-12-20`, `${y + 1}-01-10`, 'closed'))
})

test("a date named alone within a run is the run's day, in the run's year", () => {
  const y = new Date(december(28)).getUTCFullYear()
  // January 2: December 26, the run's last day, is 7 days past; December 24 alone, 9 days past, would be next year's.
  for (const at of [december(28), december(33)]) {
    importAt(at, 'Dec 20-26 closed; Dec 24 9-12')
    expect(stored()).toEqual({ ...days(`${y}-12-20`, `${y}-12-26`, 'closed'), [`${y}-12-24`]: '9-12' })
  }
})
