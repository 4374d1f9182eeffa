// A store page's directions for a point the geocoder found only at its town or postcode: each
// maps service is sent the address, named whole (its town, region and country), with the town's
// point as a hint where the service takes one; the page does not give search engines the town's
// centre as the store's point (JSON-LD geo), while Open Graph, which requires a place:location
// and says no precision, has the town's. A point sent or found at its street keeps its links.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { slugOf } from '../../src/core/slug'
import { setLocatorSettings } from '../../src/operator'
import { KNOWN_ADDRESSES, makeEnv, type TestEnv } from '../helpers'
import { send } from '../public/fixture'
import { jsonLd, metaTags } from './fixture'

const BERLIN = { lat: 52.52437, lng: 13.41053 }
const TOWN_ONLY = 'Oranienstraße 185, Berlin'
const POSTCODE_ONLY = 'Kastanienallee 7, 10435 Berlin'
const SPRINGFIELD = '12 Main Street, Springfield'
const SPRINGFIELD_IL = '3 Elm St, Springfield, IL'
const PUNE = 'SHOP 4 IN PHOENIX MALL, PUNE'
const OAK_ILLINOIS = '5 Oak St, Springfield, Illinois'
const MUNICH_BAYERN = 'Marienplatz 1, München, Bayern'
const MIDTOWN = 'Springfield, Midtown'
const RAFFLES = '1 Raffles Place, Singapore, Singapore'
const MONACO = 'Avenue de la Costa 1, Monaco'

let env: TestEnv
let token: string

const create = async (body: Record<string, unknown>): Promise<string> => {
  const res = await env.call('POST', '/admin/v1/locations', { body })
  if (res.status !== 201) throw new Error(`creating gave ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.location.id
}
const pageOf = async (id: string, name: string) => {
  const res = await send(env.app, `http://localhost/l/${token}/${id}/${encodeURIComponent(slugOf(name))}`)
  expect(res.status).toBe(200)
  return res.text
}
const directionLinks = (html: string) => [...html.matchAll(/<li><a href="([^"]*)">Directions with /g)].map((m) => m[1])

beforeAll(() => {
  env = makeEnv({
    addresses: {
      ...KNOWN_ADDRESSES,
      [TOWN_ONLY]: { ...BERLIN, precision: 'city', parts: { city: 'Berlin', country: 'DE' } },
      [POSTCODE_ONLY]: {
        lat: 52.5389,
        lng: 13.4124,
        precision: 'postcode',
        parts: { city: 'Berlin', postcode: '10435', country: 'DE' },
      },
      [SPRINGFIELD_IL]: {
        lat: 39.7817,
        lng: -89.6501,
        precision: 'city',
        parts: { city: 'Springfield', region: 'Illinois', country: 'US' },
      },
      [PUNE]: { lat: 18.5204, lng: 73.8567, precision: 'city', parts: { city: 'Pune', country: 'IN' } },
      // Regions as a spreadsheet's region column gives them: codes.
      [OAK_ILLINOIS]: {
        lat: 39.7817,
        lng: -89.6501,
        precision: 'city',
        parts: { city: 'Springfield', region: 'IL', country: 'US' },
      },
      [MIDTOWN]: {
        lat: 37.2153,
        lng: -93.2982,
        precision: 'city',
        parts: { city: 'Springfield', region: 'MO', country: 'US' },
      },
      // A city-state's region column as spreadsheets fill it: the country's code.
      [RAFFLES]: {
        lat: 1.2841,
        lng: 103.8514,
        precision: 'city',
        parts: { city: 'Singapore', region: 'SG', country: 'SG' },
      },
      [MONACO]: {
        lat: 43.7384,
        lng: 7.4246,
        precision: 'city',
        parts: { city: 'Monaco', region: 'MC', country: 'MC' },
      },
      [MUNICH_BAYERN]: {
        lat: 48.13743,
        lng: 11.57549,
        precision: 'city',
        parts: { city: 'München', region: 'BY', country: 'DE' },
      },
      [SPRINGFIELD]: {
        lat: 39.7817,
        lng: -89.6501,
        precision: 'city',
        parts: { city: 'Springfield', region: 'Illinois', country: 'US' },
      },
    },
  })
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  token = env.store.locators.get(env.locatorId)!.publicToken
})
afterAll(() => env.close())

test("a point placed at its town: directions go to the address; no JSON-LD geo, Open Graph's location the town's", async () => {
  const id = await create({ name: 'Kreuzberg Books', address: TOWN_ONLY })
  const html = await pageOf(id, 'Kreuzberg Books')
  const to = 'Oranienstra%C3%9Fe%20185%2C%20Berlin%2C%20Germany'
  expect(directionLinks(html)).toEqual([
    `https://www.google.com/maps/dir/?api=1&amp;destination=${to}`,
    `https://maps.apple.com/?daddr=${to}&amp;sll=52.52437%2C13.41053`,
    `https://www.openstreetmap.org/directions?to=${to}#map=12/52.52437/13.41053`,
  ])
  const [business] = jsonLd(html)
  expect(business.geo).toBeUndefined()
  expect(business.address).toMatchObject({ addressLocality: 'Berlin' })
  // Open Graph's business.business requires place:location, and has no word for "approximate":
  // the town's point is where the store is at a link preview's scale. It is in no text shown.
  const meta = metaTags(html)
  expect(meta['og:type']).toBe('business.business')
  expect([meta['place:location:latitude'], meta['place:location:longitude']]).toEqual(['52.52437', '13.41053'])
  // Elsewhere, only the links' hints have it.
  expect(html.replace(/ href="[^"]*"/g, '').match(/52\.52437/g)).toHaveLength(1)
})

test('a point placed at its postcode: the same', async () => {
  const id = await create({ name: 'Prenzlauer Books', address: POSTCODE_ONLY })
  expect(directionLinks(await pageOf(id, 'Prenzlauer Books'))).toContain(
    'https://maps.apple.com/?daddr=Kastanienallee%207%2C%2010435%20Berlin%2C%20Germany&amp;sll=52.5389%2C13.4124',
  )
})

test('a street and a town of a name many have: its region and country go with it, and the point as a hint', async () => {
  const id = await create({ name: 'Springfield Books', address: SPRINGFIELD })
  const html = await pageOf(id, 'Springfield Books')
  const to = '12%20Main%20Street%2C%20Springfield%2C%20Illinois%2C%20United%20States'
  expect(directionLinks(html)).toEqual([
    `https://www.google.com/maps/dir/?api=1&amp;destination=${to}`,
    `https://maps.apple.com/?daddr=${to}&amp;sll=39.7817%2C-89.6501`,
    `https://www.openstreetmap.org/directions?to=${to}#map=12/39.7817/-89.6501`,
  ])
  // The page shows the address as written.
  expect(html).toContain('<address>12 Main Street, Springfield</address>')
})

test('a region the address writes short, or an all-capitals "IN", is read as the text means it', async () => {
  const il = await create({ name: 'Elm Books', address: SPRINGFIELD_IL })
  expect(directionLinks(await pageOf(il, 'Elm Books'))[0]).toBe(
    'https://www.google.com/maps/dir/?api=1&amp;destination=3%20Elm%20St%2C%20Springfield%2C%20IL%2C%20United%20States',
  )
  const pune = await create({ name: 'Phoenix Books', address: PUNE })
  expect(directionLinks(await pageOf(pune, 'Phoenix Books'))[0]).toBe(
    'https://www.google.com/maps/dir/?api=1&amp;destination=SHOP%204%20IN%20PHOENIX%20MALL%2C%20PUNE%2C%20India',
  )
})

test('a region given as a code that the address names in full is not said again', async () => {
  const il = await create({ name: 'Oak Books', address: OAK_ILLINOIS })
  expect(directionLinks(await pageOf(il, 'Oak Books'))[0]).toBe(
    'https://www.google.com/maps/dir/?api=1&amp;destination=5%20Oak%20St%2C%20Springfield%2C%20Illinois%2C%20United%20States',
  )
  const by = await create({ name: 'Marien Books', address: MUNICH_BAYERN })
  expect(directionLinks(await pageOf(by, 'Marien Books'))[0]).toBe(
    'https://www.google.com/maps/dir/?api=1&amp;destination=Marienplatz%201%2C%20M%C3%BCnchen%2C%20Bayern%2C%20Germany',
  )
})

test('a region given as a code is said where a piece only holds its letters: "Midtown" names no Missouri', async () => {
  const id = await create({ name: 'Midtown Books', address: MIDTOWN })
  expect(directionLinks(await pageOf(id, 'Midtown Books'))[0]).toBe(
    'https://www.google.com/maps/dir/?api=1&amp;destination=Springfield%2C%20Midtown%2C%20MO%2C%20United%20States',
  )
})

test('a city-state whose region is its country\'s code: "Singapore, Singapore" gets no "SG" added', async () => {
  const sg = await create({ name: 'Raffles Books', address: RAFFLES })
  expect(directionLinks(await pageOf(sg, 'Raffles Books'))[0]).toBe(
    'https://www.google.com/maps/dir/?api=1&amp;destination=1%20Raffles%20Place%2C%20Singapore%2C%20Singapore',
  )
  const mc = await create({ name: 'Costa Books', address: MONACO })
  expect(directionLinks(await pageOf(mc, 'Costa Books'))[0]).toBe(
    'https://www.google.com/maps/dir/?api=1&amp;destination=Avenue%20de%20la%20Costa%201%2C%20Monaco',
  )
})

test('the same address with its coordinates sent: the links go to the point, which the page gives', async () => {
  const id = await create({ name: 'Mitte Books', address: TOWN_ONLY, coordinates: BERLIN })
  const html = await pageOf(id, 'Mitte Books')
  expect(directionLinks(html)).toEqual([
    'https://www.google.com/maps/dir/?api=1&amp;destination=52.52437%2C13.41053',
    'https://maps.apple.com/?daddr=52.52437%2C13.41053',
    'https://www.openstreetmap.org/directions?to=52.52437%2C13.41053',
  ])
  expect(jsonLd(html)[0].geo).toEqual({ '@type': 'GeoCoordinates', latitude: 52.52437, longitude: 13.41053 })
  expect(metaTags(html)['place:location:latitude']).toBe('52.52437')
})

test('an ETag of a page of an earlier PAGE_FORMAT (address links, their country, og location) gives it again', async () => {
  const id = await create({ name: 'Wedding Books', address: TOWN_ONLY })
  const url = `http://localhost/l/${token}/${id}/wedding-books`
  const res = await send(env.app, url)
  const [, version] = /^W\/"([0-9a-z.~]+)-/.exec(res.headers.get('etag')!)!
  // The ETag such a page had: the written version, the URL and the page's base and day (none: no hours).
  const before = `W/"${version}-${Bun.hash(url, Bun.hash('pages http://localhost ')).toString(36)}"`
  const again = await send(env.app, url, { headers: { 'if-none-match': before } })
  expect(again.status).toBe(200)
  expect(directionLinks(again.text)).toContain(
    'https://maps.apple.com/?daddr=Oranienstra%C3%9Fe%20185%2C%20Berlin%2C%20Germany&amp;sll=52.52437%2C13.41053',
  )
  // PAGE_FORMAT 1 (links to the address as written), 2 (no place:location), 3 to 34.
  for (const format of [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
    32, 33, 34,
  ]) {
    const made = `W/"${version}-${Bun.hash(url, Bun.hash(`pages 8.${format} http://localhost `)).toString(36)}"`
    expect((await send(env.app, url, { headers: { 'if-none-match': made } })).status).toBe(200)
  }
  const current = await send(env.app, url, { headers: { 'if-none-match': res.headers.get('etag')! } })
  expect(current.status).toBe(304)
})
