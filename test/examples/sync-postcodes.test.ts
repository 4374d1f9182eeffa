// examples/sync.ts run every day on one list: a postcode given back its leading zero is said of
// the rows it writes, and of the rows left unchanged once, with their count.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { reported, syncServer } from './sync-server'

const ROOT = join(import.meta.dir, '..', '..')
const served = syncServer()

function sync(text: string) {
  const file = join(served.dir, 'stores.csv')
  writeFileSync(file, text)
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), file], {
    cwd: ROOT,
    env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: served.key },
  })
  return reported({ code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() })
}

test('a postcode given back its leading zero is said of rows written, and counted once for rows unchanged', () => {
  const list = (name: string) =>
    'Store Code,Name,Straße,PLZ,Ort,Land,lat,lng\n' +
    `Z1,${name},Markt 1,4109,Leipzig,DE,51.3397,12.3731\nZ2,Leipzig 2,Markt 2,4109,Leipzig,DE,51.3398,12.3732\n`
  const note = 'The postcode 4109 was read as 04109: Excel drops leading zeros; format the "PLZ" column as text.'
  const first = sync(list('Leipzig 1'))
  expect(first.stderr).toBe('')
  expect(first.stdout).toContain(`check line 2: ${note}`)
  expect(first.stdout).toContain(`check line 3: ${note}`)
  const again = sync(list('Leipzig Markt'))
  expect(again.stdout).toContain(
    '1 unchanged row (line 3) carries the same postcode warning as before: its postcode lost its leading zero in Excel and was read with it, as stored. Format the "PLZ" column as text to stop this warning.',
  )
  expect(again.stdout).toContain(`check line 2: ${note}`)
  expect(again.stdout).not.toContain(`check line 3`)
}, 30_000)

test('a store joined before postcodes took their form is left as stored, its pin where it was moved', async () => {
  const before = [
    { external_id: 'P1', name: 'London', address: '10 Downing Street, London sw1a2aa, GB', lat: 51.5034, lng: -0.1276 },
    {
      external_id: 'P2',
      name: 'Berlin',
      address: 'Unter den Linden 1, 10117 Berlin, Berlin, DE',
      lat: 52.517,
      lng: 13.3889,
    },
    // A Canadian postcode with a hyphen, which postcodeForm reads as K1A 0A2.
    {
      external_id: 'P3',
      name: 'Ottawa',
      address: '80 Wellington Street, Ottawa, ON k1a-0a2, CA',
      lat: 45.4236,
      lng: -75.7009,
    },
  ]
  const seeded = await fetch(`${served.url}/admin/v1/locations/bulk`, {
    method: 'POST',
    headers: { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      locations: before.map(({ lat, lng, ...b }) => ({ ...b, coordinates: { lat, lng } })),
    }),
  })
  expect(seeded.status).toBe(200)
  const list =
    'Store Code,Name,Street,City,Region,Postcode,Country\n' +
    'P1,London,10 Downing Street,London,,sw1a2aa,GB\n' +
    'P2,Berlin,Unter den Linden 1,Berlin,Berlin,10117,DE\n' +
    'P3,Ottawa,80 Wellington Street,Ottawa,ON,k1a-0a2,CA\n'
  const run = sync(list)
  expect(run.code).toBe(0)
  expect(run.stdout).toContain('0 created, 0 updated, 3 unchanged,')
  const stored = served
    .json('locations', 'export', served.json('locator', 'list')[0].id)
    .filter((l: any) => l.external_id.startsWith('P'))
  expect(stored.map((l: any) => [l.address, l.coordinates.lat, l.coordinates.lng])).toEqual(
    before.map((b) => [b.address, b.lat, b.lng]),
  )
  // The postcode written in its form in the list is the same postcode: the store stays as it is.
  const respelt = list.replace('sw1a2aa', 'SW1A 2AA').replace('k1a-0a2', 'K1A 0A2')
  expect(sync(respelt).stdout).toContain('0 created, 0 updated, 3 unchanged,')
}, 30_000)

test('a store renumbered, its address joined before postcodes took their form, keeps its address and pin', async () => {
  const before = { name: 'Berlin', address: 'Unter den Linden 1, 10117 Berlin, Berlin, DE', lat: 52.517, lng: 13.3889 }
  const seeded = await fetch(`${served.url}/admin/v1/locations/bulk`, {
    method: 'POST',
    headers: { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      locations: [
        {
          external_id: 'R1',
          name: before.name,
          address: before.address,
          coordinates: { lat: before.lat, lng: before.lng },
        },
      ],
    }),
  })
  expect(seeded.status).toBe(200)
  const locator = served.json('locator', 'list')[0].id
  const id = served.json('locations', 'export', locator).find((l: any) => l.external_id === 'R1').id
  const run = sync(
    `id,Store Code,Name,Street,City,Region,Postcode,Country\n${id},R9,Berlin,Unter den Linden 1,Berlin,Berlin,10117,DE\n`,
  )
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  const stored = served.json('locations', 'export', locator).find((l: any) => l.id === id)
  expect([stored.external_id, stored.address, stored.coordinates.lat, stored.coordinates.lng]).toEqual([
    'R9',
    before.address,
    before.lat,
    before.lng,
  ])
}, 30_000)

test('a Jersey row with a house number column is joined as a UK one, and a store joined before stays', async () => {
  // As joined before: the number after its street, the postcode as written before its town.
  const before = { external_id: 'J2', name: 'Jersey 2', address: 'King Street 2, je2 3ab St Helier, Jersey' }
  const seeded = await fetch(`${served.url}/admin/v1/locations/bulk`, {
    method: 'POST',
    headers: { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ locations: [{ ...before, coordinates: { lat: 49.1853, lng: -2.1066 } }] }),
  })
  expect(seeded.status).toBe(200)
  const list =
    'Store Code,Name,Street,House Number,City,Postcode,Country,lat,lng\n' +
    'J1,Jersey 1,King Street,1,St Helier,je2 3ab,Jersey,49.185,-2.108\n' +
    'J2,Jersey 2,King Street,2,St Helier,je2 3ab,Jersey,49.1853,-2.1066\n'
  const run = sync(list)
  expect([run.code, run.stderr]).toEqual([0, ''])
  const stored = served
    .json('locations', 'export', served.json('locator', 'list')[0].id)
    .filter((l: any) => l.external_id.startsWith('J'))
  expect(stored.map((l: any) => [l.external_id, l.address])).toEqual([
    ['J2', before.address],
    ['J1', '1 King Street, St Helier JE2 3AB, Jersey'],
  ])
  expect(run.stdout).toContain('1 created, 0 updated, 1 unchanged,')
}, 30_000)
