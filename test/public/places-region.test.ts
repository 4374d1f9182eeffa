// The visitor's country in GET /places and near=: the region of `lang` ("en-GB") lifts its
// country's places as a store near does, so the larger of two lifted namesakes comes first; but
// only a place of the same order of people as the biggest ranked alike.
import { describe, expect, test } from 'bun:test'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { env, get, places, token, usePlacesEnv } from './places-fixture'

usePlacesEnv()

/** A locator with stores in Denver and near Chicago; its public token. */
async function usLocator(): Promise<string> {
  const made = createLocator(env.store, 'Colorado and Illinois stores')
  setLocatorSettings(env.store, made.locator.id, { queryApi: 'on' })
  for (const [name, lat, lng] of [
    ['Denver', 39.74, -104.99],
    ['Schaumburg', 42.03, -88.08],
  ] as const) {
    const body = { name, address: 'Main Street', coordinates: { lat, lng } }
    expect((await env.call('POST', '/admin/v1/locations', { key: made.secret, body })).status).toBe(201)
  }
  return env.store.locators.get(made.locator.id)!.publicToken!
}

describe("the visitor's country", () => {
  test("lifts its places as a store near does: a British visitor's Brighton and Inverness are Britain's", async () => {
    const us = await usLocator()
    const first = async (q: string, lang: string) =>
      (await places(q, lang === '' ? '' : `&lang=${lang}`, us))[0]!.label as string
    // Near a store, without the visitor's country: the small American towns.
    expect(await first('Brighton', '')).toBe('Brighton, CO, United States')
    expect(await first('Inverness', '')).toBe('Inverness, IL, United States')
    expect(await first('Brighton', 'en-US')).toBe('Brighton, CO, United States')
    expect(await first('Brighton', 'en-GB')).toBe('Brighton, United Kingdom')
    expect(await first('Inverness', 'en_GB')).toBe('Inverness, United Kingdom')
    // Lifted alike, the larger still comes first: Denver is not lost to a British visitor.
    expect(await first('Denver', 'en-GB')).toBe('Denver, CO, United States')
    // The language is still the tag's: labels in German, the country's places first.
    expect(await first('Brighton', 'de-GB')).toBe('Brighton, Vereinigtes Königreich')
  })

  test("breaks near-ties only: an American's Paris is France's, far the bigger; Manchester is New Hampshire's", async () => {
    // No store of this locator (London, Köln) is near any of them.
    const first = async (q: string, lang: string) => (await places(q, `&lang=${lang}`))[0]!.label as string
    expect(await first('Paris', 'en-US')).toBe('Paris, France')
    expect(await first('Paris', 'fr-CA')).toBe('Paris, France')
    expect(await first('Manchester', 'en-US')).toBe('Manchester, NH, United States')
    expect(await first('Manchester', 'en-GB')).toBe('Manchester, United Kingdom')
    const res = await get(`${token}/locations?near=Paris&lang=en-US`)
    expect(res.body.meta.query.center.label).toBe('Paris, France')
  })

  test('near= takes the same place as its centre', async () => {
    const us = await usLocator()
    const centre = async (lang: string) => {
      const res = await get(`${us}/locations?near=Brighton&radius=1000&unit=km&lang=${lang}`)
      expect(res.status).toBe(200)
      return res.body.meta.query.center.label as string
    }
    expect(await centre('en-US')).toBe('Brighton, CO, United States')
    expect(await centre('en-GB')).toBe('Brighton, United Kingdom')
  })
})

describe("the visitor's country's postcodes the data lacks", () => {
  test('are not taken for another country\'s: "4020" is no Queensland code for a visitor in Austria, "1010" Vienna\'s', async () => {
    const codes = async (q: string, lang: string) =>
      (await places(q, `&lang=${lang}`)).filter((p) => p.precision === 'postcode').map((p) => p.country)
    expect(await codes('4020', 'en-US')).toContain('AU')
    expect(await codes('4020', 'en-AT')).toEqual([])
    // The data has Vienna's: they alone.
    expect(await codes('1010', 'en-US')).toEqual(expect.arrayContaining(['AT', 'AU']))
    expect(await codes('1010', 'en-AT')).toEqual(['AT'])
  })

  test("are not taken for a neighbour's of the page's language: \"1200\" on a Swiss German page is Geneva's, not Vienna's", async () => {
    const codes = async (q: string, lang: string) => (await places(q, `&lang=${lang}`)).map((p) => p.country)
    expect(await codes('1200', 'de-CH')).toEqual([])
    expect(await codes('1010', 'de-CH')).toEqual([])
    // Without a region, a German page's visitors may be Austrians: Vienna's.
    expect(await codes('1200', 'de')).toEqual(['AT'])
    expect(await codes('1200', 'de-DE')).toEqual(['AT'])
    const res = await get(`${token}/locations?near=1010&lang=de-CH`)
    expect(res.body.error.code).toBe('PLACE_NOT_FOUND')
  })
})
