// POST /admin/v1/locations/bulk with text/csv files as other locators export them
// (test/fixtures/csv, 20 stores each): read as the CLI reads them, columns no field takes listed.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { openEmbeddedGeocoder } from '../../src/geocode/embedded'
import { cachedGeocoder } from '../../src/geocode/geocoder'
import { createApp } from '../../src/server/app'
import { BULK, env, useBulkEnv } from './bulk-fixture'

useBulkEnv()

/** Each file, the columns no field takes, and whether it has store codes to match its rows by. */
const FILES: [name: string, unread: string[], keyed: boolean][] = [
  ['yext-entities.csv', ['Entity Type', 'Categories', 'Featured Message > Description'], true],
  ['storepoint.csv', ['Extra'], false],
  ['shopify-locations.csv', ['Province Code', 'Fulfills Online Orders', 'Legacy', 'Created At', 'Updated At'], true],
  ['brandify.csv', ['fax', 'icon'], true],
  ['storerocket.csv', ['hours_id'], false],
  ['wpsl-csv-manager.csv', ['excerpt', 'fax'], true],
  [
    'google-business-profile.csv',
    [
      'Primary category',
      'Additional categories',
      'Opening date',
      'Logo photo',
      'Cover photo',
      'Other photos',
      'AdWords location extensions phone',
    ],
    true,
  ],
]

/** The note of a column each file has that a user moving from its tool looks for. */
const NOTED: Record<string, string> = {
  'yext-entities.csv': 'The column "Featured Message > Description" is Yext\'s featured message',
  'google-business-profile.csv': 'The column "Additional phones" gives the phone, its first number, only where',
}

describe('bulk upsert of CSV exports of other locators', () => {
  for (const [name, unread, keyed] of FILES) {
    test(`${name}: 20 stores created, the unread columns listed, a second run changes nothing`, async () => {
      // Shopify's locations have no coordinates: the embedded geocoder places them.
      const embedded = openEmbeddedGeocoder()
      const app = createApp({
        store: env.store,
        geocoder: cachedGeocoder(embedded, env.store.geocodeCache),
        config: { maxBodyBytes: 256 * 1024, logRequests: false },
        log: () => {},
      })
      const text = readFileSync(join(import.meta.dir, '../fixtures/csv', name), 'utf8')
      const send = async (query = '') => {
        const res = await app.handle(
          new Request(`http://localhost${BULK}${query}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${env.key}`, 'content-type': 'text/csv' },
            body: text,
          }),
        )
        return { status: res.status, body: (await res.json()) as Record<string, unknown> }
      }
      const dry = await send('?dry_run=true')
      expect([dry.status, dry.body.created, dry.body.unknown_columns]).toEqual([200, 20, unread])
      // A column moving users look for is said of the file, with why it is not read.
      const said = NOTED[name]
      if (said !== undefined) expect(dry.body.notes).toContainEqual(expect.stringContaining(said))
      expect((await send()).body).toMatchObject({ created: 20, unknown_columns: unread })
      if (!keyed) return
      expect((await send()).body).toMatchObject({ created: 0, updated: 0, unchanged: 20 })
    })
  }
})

describe('bulk upsert of template spellings meaning something else', () => {
  const post = async (text: string) => {
    const app = createApp({
      store: env.store,
      geocoder: cachedGeocoder(openEmbeddedGeocoder(), env.store.geocodeCache),
      config: { maxBodyBytes: 256 * 1024, logRequests: false },
      log: () => {},
    })
    const res = await app.handle(
      new Request(`http://localhost${BULK}?dry_run=true`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}`, 'content-type': 'text/csv' },
        body: text,
      }),
    )
    return { status: res.status, body: (await res.json()) as Record<string, any> }
  }

  test('a Schedule of no hours and a store_image of file names are listed, not read', async () => {
    const text =
      'external_id,name,address,lat,lng,Schedule,store_image\n' +
      'N1,North,1 Briggate,53.8,-1.54,Weekly,north.jpg\nN2,South,2 Briggate,53.7,-1.5,Open daily,south.png\n'
    const { status, body } = await post(text)
    expect([status, body.created, body.unknown_columns]).toEqual([200, 2, ['Schedule', 'store_image']])
  })

  test('a Schedule of a week and of no hours beside day columns: the days are read, it is listed', async () => {
    const text =
      'external_id,name,address,lat,lng,Schedule,Monday Open,Monday Close\n' +
      'N1,North,1 Briggate,53.8,-1.54,Closed,09:00,17:00\nN2,South,2 Briggate,53.7,-1.5,Weekly,10:00,18:00\n'
    const { status, body } = await post(text)
    expect([status, body.created, body.unknown_columns]).toEqual([200, 2, ['Schedule']])
  })

  test("Yext's Emails of two addresses: one is kept, and which to write", async () => {
    const text =
      'external_id,name,address,lat,lng,Emails\nN1,North,1 Briggate,53.8,-1.54,"a@cyclehub.example; b@cyclehub.example"\n'
    const { status, body } = await post(text)
    expect([status, JSON.stringify(body)]).toEqual([
      422,
      expect.stringContaining('holds 2 email addresses; a location keeps one. Write the one customers should write to'),
    ])
  })
})
