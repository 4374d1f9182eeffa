// A locator's own language for its pages (storeloc locator set --language): the finder page, store
// pages and the directory are in it when a link asks for none; ?lang= still wins; search engines'
// x-default is the page in it. Through the whole app, as a browser or crawler asks.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { OperatorError, setLocatorSettings } from '../../src/operator'
import { type Fixture, makeFixture, send } from '../public/fixture'
import { jsonLd } from './fixture'

let f: Fixture
beforeAll(async () => {
  f = await makeFixture()
})
afterAll(() => f.env.close())
afterEach(() => {
  setLocatorSettings(f.env.store, f.env.locatorId, { language: '' })
})

const get = (path: string, headers: Record<string, string> = {}) =>
  send(f.env.app, `http://localhost${path}`, { headers, redirect: 'manual' })
const setLanguage = (language: string) => setLocatorSettings(f.env.store, f.env.locatorId, { language })

const htmlLang = (html: string) => /<html lang="([^"]*)">/.exec(html)?.[1]
const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1]
const alternatesOf = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]*)">/g)].map((m) => [m[1], m[2]]),
  )
/** The footer's links to the page in other languages, by language. */
const languageLinksOf = (html: string) =>
  Object.fromEntries([...html.matchAll(/<a href="([^"]*)" hreflang="([^"]+)" lang="[^"]+">/g)].map((m) => [m[2], m[1]]))

describe('a locator with no language of its own', () => {
  test('its pages are in English without ?lang=, whatever language the browser asks for', async () => {
    const page = `http://localhost/l/${f.token}`
    const finder = await get(`/l/${f.token}`, { 'accept-language': 'de-DE,de;q=0.9' })
    expect(htmlLang(finder.text)).toBe('en')
    expect(canonicalOf(finder.text)).toBe(page)
    expect(alternatesOf(finder.text)).toMatchObject({ en: page, de: `${page}?lang=de`, 'x-default': page })
    expect(f.env.store.locators.get(f.env.locatorId)!.language).toBeNull()
  })
})

describe('a locator whose pages are in German', () => {
  test('the finder page is German without ?lang=, its bare URL canonical and the x-default', async () => {
    setLanguage('de')
    const page = `http://localhost/l/${f.token}`
    const { status, text } = await get(`/l/${f.token}`)
    expect(status).toBe(200)
    expect(htmlLang(text)).toBe('de')
    expect(text).toContain('Filialsuche</title>')
    expect(canonicalOf(text)).toBe(page)
    expect(alternatesOf(text)).toEqual({
      en: `${page}?lang=en`,
      de: page,
      fr: `${page}?lang=fr`,
      es: `${page}?lang=es`,
      it: `${page}?lang=it`,
      nl: `${page}?lang=nl`,
      'x-default': page,
    })
    // The widget takes the page's language from <html lang>; its directory link needs no ?lang=.
    expect(text).not.toContain('data-lang')
    expect(text).toContain(`<a href="/l/${f.token}/stores">Geschäfte nach Ort ansehen</a>`)
  })

  test('?lang= still wins: ?lang=en is the English page, its own canonical; a language not shipped is German', async () => {
    setLanguage('de')
    const page = `http://localhost/l/${f.token}`
    const english = (await get(`/l/${f.token}?lang=en`)).text
    expect(htmlLang(english)).toBe('en')
    expect(english).toContain('data-lang="en"')
    expect(canonicalOf(english)).toBe(`${page}?lang=en`)
    expect(english).toContain(`<a href="/l/${f.token}/stores?lang=en">Browse the stores by place</a>`)
    expect(htmlLang((await get(`/l/${f.token}?lang=fr`)).text)).toBe('fr')
    // ?lang=de names the page without it: one German page for search engines.
    expect(canonicalOf((await get(`/l/${f.token}?lang=de`)).text)).toBe(page)
    expect(htmlLang((await get(`/l/${f.token}?lang=pt`)).text)).toBe('de')
  })

  test("a store page is German, names its bare URL as the business's @id, and links English with ?lang=en", async () => {
    setLanguage('de')
    const canonical = canonicalOf((await get(`/l/${f.token}/${f.ids.velo}`)).text)!
    const path = new URL(canonical).pathname
    const german = (await get(path)).text
    expect(htmlLang(german)).toBe('de')
    expect(german).toContain('Zurück zu allen Geschäften')
    expect(canonicalOf(german)).toBe(canonical)
    expect(alternatesOf(german)).toMatchObject({ de: canonical, en: `${canonical}?lang=en`, 'x-default': canonical })
    expect(languageLinksOf(german)).toMatchObject({ en: `${canonical}?lang=en`, fr: `${canonical}?lang=fr` })
    expect(german).toContain(`href="http://localhost/l/${f.token}"`)
    const english = (await get(`${path}?lang=en`)).text
    expect(htmlLang(english)).toBe('en')
    expect(canonicalOf(english)).toBe(`${canonical}?lang=en`)
    expect(languageLinksOf(english)).toMatchObject({ de: canonical })
    // Its links stay in English: back to the finder and up the directory.
    expect(english).toContain(`href="http://localhost/l/${f.token}?lang=en"`)
    expect(english).toMatch(new RegExp(`href="http://localhost/l/${f.token}/stores\\?lang=en"`))
    for (const html of [german, english]) {
      const business = jsonLd(html).find((block) => block['@type'] !== 'BreadcrumbList')
      expect(business['@id']).toBe(canonical)
    }
  })

  test('the store directory is German, its links without ?lang=; in English, they keep ?lang=en', async () => {
    setLanguage('de')
    const top = `http://localhost/l/${f.token}/stores`
    const german = (await get(`/l/${f.token}/stores`)).text
    expect(htmlLang(german)).toBe('de')
    expect(german).toContain('Filialverzeichnis')
    expect(canonicalOf(german)).toBe(top)
    expect(alternatesOf(german)).toMatchObject({ en: `${top}?lang=en`, 'x-default': top })
    const english = (await get(`/l/${f.token}/stores?lang=en`)).text
    const links = [...english.matchAll(/<a href="([^"]*\/stores\/[^"]*)"/g)].map((m) => m[1]!)
    expect(links.length).toBeGreaterThan(0)
    for (const link of links) expect(link).toEndWith('?lang=en')
  })

  test('a store that is not there: the 404 page is German, linking the German finder', async () => {
    setLanguage('de')
    const res = await get(`/l/${f.token}/loc_0000000000000000`)
    expect(res.status).toBe(404)
    expect(htmlLang(res.text)).toBe('de')
    expect(res.text).toContain(`<a href="http://localhost/l/${f.token}">Alle Geschäfte ansehen</a>`)
  })

  test('setting it changes the ETag: a copy kept before is not taken for the German page', async () => {
    const etag = (await get(`/l/${f.token}`)).headers.get('etag')!
    setLanguage('de')
    const after = await get(`/l/${f.token}`, { 'if-none-match': etag })
    expect(after.status).toBe(200)
    expect(htmlLang(after.text)).toBe('de')
  })

  test("the sitemap lists the pages' bare URLs, as before: each now the German page", async () => {
    const before = (await get(`/l/${f.token}/sitemap.xml`)).text
    setLanguage('de')
    const after = (await get(`/l/${f.token}/sitemap.xml`)).text
    expect(after).toBe(before)
    expect(after).not.toContain('lang=')
  })

  test("'' gives the pages back to English; a code not shipped is refused and changes nothing", async () => {
    setLanguage('de')
    expect(() => setLanguage('pt')).toThrow(OperatorError)
    expect(() => setLanguage('pt')).toThrow('--language must be one of en, de, fr, es, it, nl')
    expect(htmlLang((await get(`/l/${f.token}`)).text)).toBe('de')
    setLanguage('')
    expect(htmlLang((await get(`/l/${f.token}`)).text)).toBe('en')
  })
})
