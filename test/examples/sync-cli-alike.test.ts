// One CSV list through examples/sync.ts and through the CLI import, into two locators of one
// service: the stores come out alike, though the sync's bulk JSON carries no address parts.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner } from '../helpers'
import { reported, syncServer } from './sync-server'

const ROOT = join(import.meta.dir, '..', '..')
const served = syncServer('embedded')

/** The list `text` synced into the sync's locator and imported by the CLI into `cliLocator`. */
function both(text: string, cliLocator: string): void {
  const file = join(served.dir, 'stores.csv')
  writeFileSync(file, text)
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), file], {
    cwd: ROOT,
    env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: served.key },
  })
  expect(p.exitCode).toBe(0)
  const { storeloc } = cliRunner(() => join(served.dir, 'sync.db'))
  expect(storeloc('locations', 'import', cliLocator, '--file', file).code).toBe(0)
}

/** A locator's export, without what differs between any two locators (ids, times). */
function exported(locator: string): unknown[] {
  return served
    .json('locations', 'export', locator)
    .map(({ id: _, created_at: _c, updated_at: _u, ...l }: Record<string, unknown>) => l)
}

test('a list with part columns and a geocoded point sent back with a new address gives the same stores', () => {
  const synced = served.json('locator', 'list')[0].id as string
  const imported = served.json('locator', 'create', '--name', 'CLI').locator.id as string
  both('external_id,name,address\nA1,Moved,"Marienplatz 1, 80331 München, Germany"\n', imported)
  const { coordinates } = exported(synced)[0] as { coordinates: { lat: number; lng: number } }
  const list =
    'external_id,name,street,house_number,city,postcode,country,lat,lng\n' +
    `A1,Moved,Jungfernstieg,1,Hamburg,20354,Germany,${coordinates.lat},${coordinates.lng}\n` +
    'G1,Geocoded,Jungfernstieg,1,Hamburg,20354,Germany,,\n'
  both(list, imported)
  expect(exported(imported)).toEqual(exported(synced))
  // The moved store is where its new address is, not at its old address's point.
  expect((exported(synced)[0] as { coordinates: { lat: number } }).coordinates.lat).toBeCloseTo(53.55, 1)
}, 60_000)

test('a .tsv list whose header cell holds commas is read by tabs, as the CLI import reads it', () => {
  const synced = served.json('locator', 'create', '--name', 'Tabs synced')
  const imported = served.json('locator', 'create', '--name', 'Tabs imported').locator.id as string
  const header =
    'Store Code\tName\tAddress\tLatitude\tLongitude\tDelivers to (Leeds, York, Hull, Bradford, Wakefield, Harrogate)'
  const list = `${header}\r\nG1\tCycle Hub\t12 Briggate, Leeds LS1 6HD, United Kingdom\t53.7972\t-1.5417\tYes\r\n`
  const file = join(served.dir, 'stores.tsv')
  writeFileSync(file, list)
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), file], {
    cwd: ROOT,
    env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: synced.key.secret_key },
  })
  expect(p.stderr.toString()).toBe('')
  expect(p.exitCode).toBe(0)
  const { storeloc } = cliRunner(() => join(served.dir, 'sync.db'))
  expect(storeloc('locations', 'import', imported, '--file', file).code).toBe(0)
  expect(exported(synced.locator.id)).toEqual(exported(imported))
  expect(exported(imported)).toMatchObject([{ external_id: 'G1', name: 'Cycle Hub' }])
}, 60_000)

test("the sync says how it placed the addresses it geocoded, as the CLI import's summary does", () => {
  // A locator of its own: the list is mirrored whole.
  const key = served.json('locator', 'create', '--name', 'Placed').key.secret_key as string
  const file = join(served.dir, 'placed.csv')
  writeFileSync(
    file,
    'external_id,name,street,city,postcode,country\nP1,One,Rue de Test 1,Paris,75001,FR\nP2,Two,Rue de Test 2,Paris,75001,FR\n',
  )
  const sync = (...flags: string[]) =>
    reported({
      stdout: Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), file, ...flags], {
        cwd: ROOT,
        env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: key },
      }).stdout.toString(),
    }).stdout
  const placed =
    'Geocoded 2 addresses: 2 postcode. No address was placed at its street: for points at the door, fill in the coordinate columns, or use an HTTP geocoder that knows streets (docs/geocoding.md).\n'
  expect(sync('--dry-run')).toEndWith(
    `${placed}Dry run, nothing written: 2 created, 0 updated, 0 unchanged, 0 deleted.\n`,
  )
  expect(sync()).toEndWith(`${placed}2 created, 0 updated, 0 unchanged, 0 deleted.\n`)
  // Nothing placed again: nothing to say.
  expect(sync()).toBe('0 created, 0 updated, 2 unchanged, 0 deleted.\n')
}, 60_000)
