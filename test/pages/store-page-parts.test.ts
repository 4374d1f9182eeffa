// Store pages' and the sitemap's answers when the database is held by another process, and the
// JSON-LD helpers they are made with.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openingHoursSpecification } from '../../src/api/pages/json-ld'
import { socialUrl } from '../../src/core/social'
import { sitemapResponse } from '../../src/api/pages/sitemap'
import { storePageResponse } from '../../src/api/pages/store-page'
import { slugOf } from '../../src/core/slug'
import { databaseBusy } from '../../src/indexes/errors'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { IndexRegistry } from '../../src/indexes/registry'
import { FIXTURE_NOW } from '../public/fixture'
import { jsonLd, locs, makePagesFixture, metaTags, type PagesFixture, pagesApp } from './fixture'

let f: PagesFixture
beforeAll(async () => {
  f = await makePagesFixture()
})
afterAll(() => f.env.close())

describe('a database another process holds', () => {
  test('answers 503 with Retry-After, not 500; an unforeseen error is thrown on for the app to log', async () => {
    const busy = {
      ...f.deps,
      registry: {
        sync: () => {
          throw databaseBusy()
        },
      } as any,
    }
    for (const res of [
      await storePageResponse(busy, new Request('http://localhost/l/x/y'), f.token, f.ids.velo!, null),
      await sitemapResponse(busy, new Request('http://localhost/l/x/sitemap.xml'), f.token),
    ]) {
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('1')
      expect(res.headers.get('cache-control')).toBe('no-store')
    }
    // In the language the link asks for.
    const german = await storePageResponse(busy, new Request('http://localhost/l/x/y?lang=de'), f.token, 'y', null)
    const html = await german.text()
    expect(html).toStartWith('<!doctype html><html lang="de">')
    expect(html).toContain('<h1>Vorübergehend nicht verfügbar</h1>')
    const broken = {
      ...f.deps,
      registry: {
        sync: () => {
          throw new TypeError('bug')
        },
      } as any,
    }
    await expect(storePageResponse(broken, new Request('http://localhost/l/x/y'), f.token, 'y', null)).rejects.toThrow(
      'bug',
    )
  })
})

describe('a directory that cannot be read', () => {
  test('a store page stands without its trail, made from the index; the damage is noted', async () => {
    await f.create({ name: 'A write', address: 'x', coordinates: { lat: 48.85, lng: 2.35 } }) // the kept directory is old
    const damaged = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' })
    const noted: unknown[] = []
    const store = Object.create(f.deps.store, {
      snapshot: {
        value: () => {
          throw damaged
        },
      },
      noteDamage: { value: (e: unknown) => noted.push(e) },
    })
    const slug = slugOf((await f.publicLocation(f.ids.velo!)).name)
    const request = new Request(`http://localhost/l/${f.token}/${f.ids.velo}/${slug}`)
    const res = await storePageResponse({ ...f.deps, store }, request, f.token, f.ids.velo!, slug)
    const html = await res.text()
    expect(res.status).toBe(200)
    expect(html).toContain('<h1>')
    expect(html).not.toContain('slp-crumbs"')
    expect(html).not.toContain('BreadcrumbList')
    expect(noted).toEqual([damaged])
  })
})

describe("a store sent with coordinates: its address's own town and postcode", () => {
  test('in its JSON-LD, as the page shows them, though the point is in the reach of New York', async () => {
    const id = await f.create({
      name: 'Grove Street Bikes',
      address: '7 Grove Street, Jersey City, NJ 07302, USA',
      coordinates: { lat: 40.7178, lng: -74.0431 },
    })
    const location = await f.publicLocation(id)
    const res = await f.page(`/l/${f.token}/${id}/${slugOf(location.name)}`)
    expect(jsonLd(res.text)[0].address).toEqual({
      '@type': 'PostalAddress',
      streetAddress: '7 Grove Street',
      addressLocality: 'Jersey City',
      addressRegion: 'NJ',
      postalCode: '07302',
      addressCountry: 'US',
    })
  })
})

describe('a store whose address is its town alone, or its postcode and town', () => {
  test('has no street: not in its JSON-LD, its Open Graph tags or its title', async () => {
    for (const [name, address, postcode] of [
      ['Prenzlauer Kiosk', '10435 Berlin', { postalCode: '10435' }],
      ['Berlin Kiosk', 'Berlin', {}],
    ] as const) {
      const id = await f.create({ name, address, coordinates: { lat: 52.5389, lng: 13.4124 } })
      const res = await f.page(`/l/${f.token}/${id}/${slugOf(name)}`)
      expect(jsonLd(res.text)[0].address).toEqual({
        '@type': 'PostalAddress',
        addressLocality: 'Berlin',
        ...postcode,
        addressCountry: 'DE',
      })
      expect(metaTags(res.text)['business:contact_data:street_address']).toBeUndefined()
      expect(metaTags(res.text)['business:contact_data:locality']).toBe('Berlin')
    }
    // Two stores of one name in the town: each is told by its street, and one with none by none.
    const one = await f.create({ name: 'Kiosk', address: 'Berlin', coordinates: { lat: 52.52, lng: 13.41 } })
    await f.create({
      name: 'Kiosk',
      address: 'Kastanienallee 7, 10435 Berlin',
      coordinates: { lat: 52.5389, lng: 13.4124 },
    })
    const title = /<title>([^<]*)<\/title>/.exec((await f.page(`/l/${f.token}/${one}/kiosk`)).text)?.[1]
    expect(title).toBe('Kiosk, Berlin – Test locator')
  })
})

describe('the page in other languages', () => {
  test('store and directory pages link each language named in it, as their hreflang links name them', async () => {
    const slug = slugOf((await f.publicLocation(f.ids.velo!)).name)
    for (const path of [`/l/${f.token}/${f.ids.velo}/${slug}?lang=de`, `/l/${f.token}/stores?lang=de`]) {
      const html = (await f.page(path)).text
      const nav = /<nav class="slp-langs" aria-label="Sprachen"><ul>(.*?)<\/ul><\/nav>/.exec(html)?.[1] ?? ''
      const links = [...nav.matchAll(/<a href="([^"]+)" hreflang="(\w+)" lang="\w+">([^<]+)<\/a>/g)]
      expect(links.map((m) => [m[2], m[3]])).toEqual([
        ['en', 'English'],
        ['fr', 'Français'],
        ['es', 'Español'],
        ['it', 'Italiano'],
        ['nl', 'Nederlands'],
      ])
      expect(nav).toContain('<span aria-current="page">Deutsch</span>')
      for (const [, href, lang] of links)
        expect(html).toContain(`<link rel="alternate" hreflang="${lang}" href="${href}">`)
    }
  })
})

describe('a phone number written as its country dials it', () => {
  test('has its calling code in JSON-LD; the page shows it as written; a number that reads as none stays', async () => {
    const page = async (phone: string) => {
      const id = await f.create({
        name: `Phone ${phone}`,
        address: '186 Old Broad Street, London EC2M 1HQ',
        coordinates: { lat: 51.5151, lng: -0.0834 },
        contact: { phone },
      })
      return (await f.page(`/l/${f.token}/${id}/${slugOf((await f.publicLocation(id)).name)}`)).text
    }
    const london = await page('020 7946 0342')
    expect(jsonLd(london)[0].telephone).toBe('+44 20 7946 0342')
    expect(london).toContain('>020 7946 0342</a>')
    expect(jsonLd(await page('ask in store')).at(0).telephone).toBe('ask in store')
    // The "(0)" after a calling code is dialled only from inside the country: the link leaves it out.
    expect(await page('+43 (0)1 123450')).toContain('<a href="tel:+431123450">+43 (0)1 123450</a>')
    // Italy's and San Marino's 0 is dialled from abroad too, as JSON-LD writes it.
    const rome = await page('+39 (0)6 6982 1234')
    expect(rome).toContain('<a href="tel:+390669821234">+39 (0)6 6982 1234</a>')
    expect(jsonLd(rome)[0].telephone).toBe('+39 06 6982 1234')
    expect(await page('+378 (0)549 885431')).toContain('<a href="tel:+3780549885431">')
    // "#" would start the URL's fragment: the link escapes it.
    expect(await page('0800 123 456 #2')).toContain('<a href="tel:0800123456%232">0800 123 456 #2</a>')
  })

  test('is labelled as each language writes it: French puts a no-break space before the colon', async () => {
    const path = `/l/${f.token}/${f.ids.velo}/${slugOf((await f.publicLocation(f.ids.velo!)).name)}`
    const label = async (lang: string) =>
      /<li>([^<]*)<a href="tel:/.exec((await f.page(`${path}?lang=${lang}`)).text)?.[1]
    expect([await label('en'), await label('fr'), await label('de')]).toEqual([
      'Phone: ',
      'Téléphone\u00a0: ',
      'Telefon: ',
    ])
  })
})

describe('JSON-LD helpers', () => {
  test('openingHoursSpecification reads hours as the Query API does', () => {
    const specs = openingHoursSpecification({ monday: '9am-5pm', tuesday: '24:00-02:00', sunday: '0:00-24:00' })
    expect(specs.map((s) => `${String(s.dayOfWeek).slice(19)} ${s.opens}-${s.closes}`)).toEqual([
      'Monday 09:00-17:00',
      'Wednesday 00:00-02:00', // starts at Tuesday's 24:00: Wednesday's
      'Sunday 00:00-23:59',
    ])
  })

  test('socialUrl makes profile URLs from handles', () => {
    expect(socialUrl('facebook', '1234')).toBe('https://www.facebook.com/profile.php?id=1234')
    expect(socialUrl('facebook', 'zoesgarage')).toBe('https://www.facebook.com/zoesgarage')
    expect(socialUrl('twitter', 'a b')).toBe('https://x.com/a%20b')
    expect(socialUrl('instagram', '')).toBe('')
  })
})

describe('links made from what a store holds', () => {
  test('an email holding "?" links to that address alone: its mailto: link starts no cc= or body= header', async () => {
    const email = 'orders?cc=leak%40attacker.example&body=card#x@shop.example'
    const id = await f.create({
      name: 'Mail shop',
      address: 'x',
      coordinates: { lat: 48.85, lng: 2.35 },
      contact: { email },
    })
    const html = (await f.page(`/l/${f.token}/${id}`)).text
    const href = /<a href="(mailto:[^"]*)">/.exec(html)![1]!.replaceAll('&amp;', '&')
    const url = new URL(href)
    expect(url.search).toBe('')
    expect(url.hash).toBe('')
    expect(decodeURIComponent(url.pathname)).toBe(email)
  })
})

/** An app of the page routes on a registry of its own, counting the snapshots its pages read. */
function countingApp() {
  const counted = { reads: 0 }
  const store = Object.create(f.deps.store, {
    snapshot: { value: () => (counted.reads++, f.deps.store.snapshot()) },
  })
  const registry = new IndexRegistry(store, undefined, { now: () => FIXTURE_NOW, buildRetryMs: 0 })
  return { counted, app: pagesApp({ ...f.deps, store, registry }) }
}

describe('a sitemap asked again', () => {
  test('is made once until a write; each locator has its own', async () => {
    const { counted, app } = countingApp()
    const other = createLocator(f.env.store, 'Other shop')
    setLocatorSettings(f.env.store, other.locator.id, { queryApi: 'on' })
    const sitemap = async (token: string, query = '') => (await f.page(`/l/${token}/sitemap.xml${query}`, {}, app)).text
    const first = await sitemap(f.token)
    const made = counted.reads
    expect(made).toBeGreaterThan(0)
    expect(await sitemap(f.token)).toBe(first)
    expect(await sitemap(f.token, '?utm_source=x')).toBe(first)
    expect(counted.reads).toBe(made)
    const theirs = await sitemap(other.locator.publicToken)
    expect(locs(theirs).every((url) => url.startsWith(`http://localhost/l/${other.locator.publicToken}`))).toBe(true)
    expect(theirs).not.toContain(f.token)
    const id = await f.create({ name: 'Newly opened', address: 'x', coordinates: { lat: 48.85, lng: 2.35 } })
    const after = await sitemap(f.token)
    expect(counted.reads).toBeGreaterThan(made)
    expect(after).toContain(id)
    expect(first).not.toContain(id)
  })
})

describe('a sitemap asked on another Host', () => {
  test('is made from the one kept, with that Host in its URLs: a Host sent neither keys nor makes one', async () => {
    const { counted, app } = countingApp()
    const sitemap = async (host: string) => (await f.page(`http://${host}/l/${f.token}/sitemap.xml`, {}, app)).text
    const first = await sitemap('localhost')
    const made = counted.reads
    for (const host of ['a.evil.example', 'b.evil.example:8080', 'localhost']) {
      const text = await sitemap(host)
      expect(text).toBe(first.replaceAll('http://localhost/', `http://${host}/`))
      expect(locs(text).length).toBe(locs(first).length)
    }
    expect(counted.reads).toBe(made)
  })
})

describe('directories asked again', () => {
  test("twenty small locators' directories are all kept: each is made once", async () => {
    const { counted, app } = countingApp()
    const tokens = Array.from({ length: 20 }, (_, n) => {
      const made = createLocator(f.env.store, `Shop ${n}`)
      setLocatorSettings(f.env.store, made.locator.id, { queryApi: 'on' })
      return made.locator.publicToken
    })
    const directory = async (token: string) => (await f.page(`/l/${token}/stores`, {}, app)).status
    for (const token of tokens) expect(await directory(token)).toBe(200)
    const made = counted.reads
    expect(made).toBeGreaterThanOrEqual(tokens.length)
    for (const token of tokens) expect(await directory(token)).toBe(200)
    expect(counted.reads).toBe(made)
  })
})
