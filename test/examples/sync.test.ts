// examples/sync.ts end to end: a real server, a locator made with the CLI, and the script run as a
// subprocess against it, creating, updating, deleting and leaving alone what is in step.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner, type Running, serverUrl, startServer, tempDir } from '../helpers'

const ROOT = join(import.meta.dir, '..', '..')
let dir: string
let server: Running
let url: string
let key: string
const { json } = cliRunner(() => join(dir, 'sync.db'))

beforeAll(async () => {
  dir = tempDir()
  const made = json('locator', 'create', '--name', 'Sync')
  key = made.key.secret_key
  server = startServer(join(dir, 'sync.db'), { GEOCODER: 'none' })
  url = await serverUrl(server)
})
afterAll(() => {
  server.proc.kill()
  rmSync(dir, { recursive: true, force: true })
})

function sync(csv: string, ...flags: string[]) {
  const file = join(dir, 'stores.csv')
  writeFileSync(file, csv)
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), file, ...flags], {
    cwd: ROOT,
    env: { ...process.env, STORELOC_URL: url, STORELOC_KEY: key },
  })
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() }
}

async function stores(): Promise<{ external_id: string; name: string }[]> {
  const res = await fetch(`${url}/admin/v1/locations?limit=500`, { headers: { authorization: `Bearer ${key}` } })
  return ((await res.json()) as any).locations
}

const HEADER = 'Store Code,Name,Address,Latitude,Longitude\n'
const row = (code: string, name: string, i: number) =>
  `${code},${name},"${i} Main St, Town",${40 + i / 10},${-3 - i / 10}\n`

describe('examples/sync.ts', () => {
  test('mirrors a CSV into the locator: creates, updates, deletes, then finds it in step', async () => {
    const first = sync(HEADER + row('S1', 'One', 1) + row('S2', 'Two', 2) + row('S3', 'Three', 3))
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/^created S1 \(loc_[0-9a-z]{16}\)\ncreated S2 \(loc_/)
    expect(first.stdout).toEndWith('3 created, 0 updated, 0 unchanged, 0 deleted.\n')
    expect((await stores()).map((s) => s.external_id)).toEqual(['S1', 'S2', 'S3'])

    const changed = HEADER + row('S1', 'One', 1) + row('S2', 'Two (moved)', 22) + row('S4', 'Four', 4)
    const before = await stores()
    const dry = sync(changed, '--dry-run')
    expect(dry.code).toBe(0)
    expect(dry.stdout.split('\n')).toEqual([
      expect.stringMatching(/^would update S2 \(loc_/),
      'would create S4',
      expect.stringMatching(/^would delete S3 \(loc_/),
      'Dry run, nothing written: 1 created, 1 updated, 1 unchanged, 1 deleted.',
      '',
    ])
    expect(await stores()).toEqual(before)

    const real = sync(changed)
    expect(real.code).toBe(0)
    expect(real.stdout).toEndWith('1 created, 1 updated, 1 unchanged, 1 deleted.\n')
    const after = await stores()
    expect(after.map((s) => [s.external_id, s.name])).toEqual([
      ['S1', 'One'],
      ['S2', 'Two (moved)'],
      ['S4', 'Four'],
    ])
    expect(sync(changed).stdout).toBe('0 created, 0 updated, 3 unchanged, 0 deleted.\n')
  }, 30_000)

  test('a special hours column is mirrored whole: a date the list drops is cleared', async () => {
    const head = 'Store Code,Name,Address,Latitude,Longitude,Holiday Hours\n'
    const list = (special: string) => `${head}${row('S1', 'One', 1).trimEnd()},"${special}"\n`
    expect(sync(list('2026-12-24 09:00-14:00; 2026-12-25 closed')).code).toBe(0)
    const special = async () => (await stores()).find((s) => s.external_id === 'S1') as any
    expect((await special()).special_hours).toEqual({ '2026-12-24': '09:00-14:00', '2026-12-25': 'closed' })
    const dry = sync(list('2026-12-25 closed'), '--dry-run')
    expect(dry.stdout).toMatch(/^would update S1 \(loc_/)
    expect((await special()).special_hours).toEqual({ '2026-12-24': '09:00-14:00', '2026-12-25': 'closed' })
    expect(sync(list('2026-12-25 closed')).stdout).toMatch(/^updated S1 /)
    expect((await special()).special_hours).toEqual({ '2026-12-25': 'closed' })
    expect(sync(list('2026-12-25 closed')).stdout).toEndWith('0 updated, 1 unchanged, 0 deleted.\n')
  }, 30_000)

  test('a list with problems writes nothing and names the rows by their lines', async () => {
    const before = await stores()
    const bad = sync(`${HEADER}${row('S1', 'One', 1)}S9,,"9 Main St",1,2\n${row('S5', 'Five', 5)},No code,x,1,2\n`)
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('line 5')
    expect(bad.stderr).toContain('have none')
    const unnamed = sync(`${HEADER}${row('S1', 'One', 1)}S9,,"9 Main St",1,2\n`)
    expect(unnamed.code).toBe(1)
    expect(unnamed.stderr).toContain('line 3 (external_id "S9"): The name field is required.')
    expect(await stores()).toEqual(before)
  }, 30_000)

  test('an empty list, or one with a store twice, writes nothing: no mirror deletes every store', async () => {
    const before = await stores()
    expect(before.length).toBeGreaterThan(0)
    const empty = sync(HEADER)
    expect(empty.code).toBe(1)
    expect(empty.stderr).toContain(
      `would delete every one of the locator's ${before.length} stores with an external_id`,
    )
    const twice = sync(`${HEADER}${row('S1', 'One', 1)}${row('S1', 'One again', 2)}`)
    expect(twice.code).toBe(1)
    expect(twice.stderr).toContain('line 3 has the external_id "S1" of line 2')
    expect(await stores()).toEqual(before)
  }, 30_000)
})
