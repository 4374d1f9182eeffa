// Store pages and the sitemap, through HTTP: what a published location's page shows (and hides),
// its JSON-LD and Open Graph, its canonical URL and redirects, its 404s, and the sitemap's URLs
// (store-page-parts.test.ts: when the database is held, and the JSON-LD helpers).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { slugOf } from '../../src/core/slug'
import { PAGE_STYLE } from '../../src/api/pages/page-style'
import { IndexRegistry } from '../../src/indexes/registry'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { FIXTURE_NOW } from '../public/fixture'
import { jsonLd, locs, makePagesFixture, metaTags, type PagesFixture, pagesApp, rangesAsText } from './fixture'

/**
 * Hours from one whole hour to another as the page writes them: each time as `locale` writes times
 * (the page's language with the store's country: "en-FR"), as the widget's cards do.
 */
const hours = (locale: string, from: number, to: number) => {
  const time = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' })
  return `${time.format(Date.UTC(1970, 0, 1, from))}–${time.format(Date.UTC(1970, 0, 1, to))}`
}

let f: PagesFixture
/** A location with split, all-day, past-midnight, unreadable and closed days. */
let hoursId: string
/** A location whose name and description try to inject markup. */
let evilId: string
const EVIL_NAME = '</script><script>alert(1)</script> <b>Bold</b> & "Co"'

beforeAll(async () => {
  f = await makePagesFixture()
  hoursId = await f.create({
    name: 'Split Hours Cycles',
    address: '3 Rue Oberkampf, 75011 Paris',
    coordinates: { lat: 48.8647, lng: 2.3736 },
    hours: {
      monday: '09:00-12:00, 13:00-18:00',
      tuesday: '24 hours',
      wednesday: 'sometimes',
      friday: '18:00-02:00',
      saturday: '10:00-16:00',
      sunday: 'closed',
    },
  })
  evilId = await f.create({
    name: EVIL_NAME,
    address: '<img src=x onerror=alert(2)>',
    coordinates: { lat: 48.85, lng: 2.35 },
    description: '</script><script>alert(3)</script>\n\n<i>second</i>',
  })
})
afterAll(() => f.env.close())

const pagePath = (id: string, slug?: string) => `/l/${f.token}/${id}${slug === undefined ? '' : `/${slug}`}`
const canonicalOf = (id: string, name: string) =>
  `http://localhost/l/${f.token}/${id}/${encodeURIComponent(slugOf(name))}`

describe('a published location', () => {
  test('serves its page: the name, the canonical link, Open Graph, hours, contact, links back', async () => {
    const id = f.ids.velo!
    const res = await f.page(pagePath(id, 'velo-cafe-bikes'))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('public, max-age=60')
    const html = rangesAsText(res.text)
    const canonical = canonicalOf(id, 'Vélo Café Bikes')
    expect(canonical).toEndWith('/velo-cafe-bikes')
    expect(html).toStartWith('<!doctype html>\n<html lang="en">')
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">')
    expect(html).toContain('<title>Vélo Café Bikes, Paris – Test locator</title>')
    expect(html).toContain('<meta name="description" content="Coffee, espresso and city bikes.">')
    expect(html).toContain(`<link rel="canonical" href="${canonical}">`)
    expect(html).toContain('<h1>Vélo Café Bikes</h1>')
    // Its style is in the page: no stylesheet to wait for before it shows.
    expect(html).not.toContain('<link rel="stylesheet"')
    expect(metaTags(html)).toMatchObject({
      'og:type': 'business.business',
      'og:site_name': 'Test locator',
      'og:title': 'Vélo Café Bikes, Paris',
      'og:description': 'Coffee, espresso and city bikes.',
      'og:url': canonical,
      'og:locale': 'en_GB', // English as France's English is written: Facebook knows no en_FR
      'og:image': 'https://img.example.com/velo.jpg',
      'place:location:latitude': '48.86',
      'place:location:longitude': '2.356',
      'twitter:card': 'summary',
    })
    expect(html).toContain('src="https://img.example.com/velo.jpg" alt="Photo of Vélo Café Bikes" width="960"')
    expect(html).toContain(`<tr><th scope="row">Monday</th><td>${hours('en-FR', 9, 18)}</td></tr>`)
    expect(html).toContain('<tr><th scope="row">Sunday</th><td>Closed</td></tr>')
    expect(html).toContain('<tr><th scope="row">Wednesday</th><td>Not given</td></tr>')
    expect(html).toContain('Phone: <a href="tel:+33123456789">+33 1 23 45 67 89</a>')
    expect(html).toContain('Email: <a href="mailto:hello@velo.example">hello@velo.example</a>')
    expect(html).toContain('Website: <a href="https://velo.example">velo.example</a>')
    expect(html).toContain('Instagram: <a href="https://www.instagram.com/velo_cafe/">@velo_cafe</a>')
    expect(html).toContain('<a href="https://www.google.com/maps/dir/?api=1&amp;destination=48.86%2C2.356">')
    expect(html).toContain('<a href="https://maps.apple.com/?daddr=48.86%2C2.356">Directions with Apple Maps</a>')
    expect(html).toContain('<a href="https://www.openstreetmap.org/directions?to=48.86%2C2.356">')
    expect(html).toContain(`<a href="http://localhost/l/${f.token}">Back to all stores</a>`)
    expect(html).toMatch(/<main[ >]/)
  })

  test("its link back carries the finder's search the widget's link gave (sl_ parameters), and nothing else", async () => {
    const search = 'sl_place=Paris%2C+France&sl_lat=48.86&sl_lng=2.35&sl_r=25&sl_store=loc_x'
    const path = pagePath(f.ids.velo!, 'velo-cafe-bikes')
    const back = async (query: string) =>
      /<nav class="slp-nav"[^>]*><a href="([^"]*)">/
        .exec((await f.page(`${path}?${query}`)).text)?.[1]
        ?.replaceAll('&amp;', '&')
    expect(await back(`lang=de&${search}&utm_source=x`)).toBe(`http://localhost/l/${f.token}?lang=de&${search}`)
    const { text } = await f.page(`${path}?lang=de&${search}`)
    expect(text).toContain(`<link rel="canonical" href="${canonicalOf(f.ids.velo!, 'Vélo Café Bikes')}?lang=de">`)
    // A value too long to be the widget's: no search at all, not a part of it.
    expect(await back(`${search}&sl_q=${'a'.repeat(501)}`)).toBe(`http://localhost/l/${f.token}`)
    // An old slug's redirect keeps it.
    const moved = await f.page(`${pagePath(f.ids.velo!, 'old-name')}?lang=de&${search}`)
    expect(moved.status).toBe(301)
    expect(moved.headers.get('location')).toBe(`${canonicalOf(f.ids.velo!, 'Vélo Café Bikes')}?lang=de&${search}`)
  })

  test('runs no script and is framed only by the sites of an allowlist, when there is one; never sniffed', async () => {
    const path = pagePath(f.ids.velo!, 'velo-cafe-bikes')
    const policy =
      "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https: http:; base-uri 'none'; form-action 'none'"
    expect((await f.page(path)).headers.get('content-security-policy')).toBe(policy)
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'shop.example.com,*.example.org' })
    try {
      const res = await f.page(path)
      // Either scheme, any port: as the allowlist matches a site.
      expect(res.headers.get('content-security-policy')).toBe(
        `${policy}; frame-ancestors 'self' https://shop.example.com:* http://shop.example.com:* https://*.example.org:* http://*.example.org:*`,
      )
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    } finally {
      setLocatorSettings(f.env.store, f.env.locatorId, { referrers: '' })
    }
    const missing = await f.page(pagePath('loc_0000000000000000', 'gone'))
    expect(missing.status).toBe(404)
    // Laid out as the store pages are, by their style in the page: all its policy lets in.
    expect(missing.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
    )
    expect(missing.text).toContain('<body class="slp-page"><main class="slp-main"><h1>Store not found</h1>')
    expect(missing.text).toContain(`<style>${PAGE_STYLE}</style>`)
  })

  test('shows tags by group, but for groups hidden in location details, and its custom fields', async () => {
    const { text: html } = await f.page(pagePath(f.ids.velo!, 'velo-cafe-bikes'))
    expect(html).toMatch(/<h2 id="slp-tags-\d+">Services<\/h2><ul class="slp-list"><li>Repair<\/li><\/ul>/)
    expect(html).toMatch(/<h2 id="slp-tags-\d+">Other<\/h2><ul class="slp-list"><li>Vintage<\/li><\/ul>/)
    expect(html).not.toContain('Brands') // hideInLocationDetails
    expect(html).not.toContain('Trek')
    expect(html).toContain('<span class="slp-badge" style="border-left-color:#1a7f37">Partner: gold</span>')
    expect(html).toContain('<dt>Booking</dt><dd><a href="https://book.example.com/velo">Book now</a></dd>')
    expect(html).toContain('<dt>Note</dt><dd>Ring twice</dd>')
  })

  test("its Open Graph address: the street, and the country's name in the page's language", async () => {
    const meta = async (query: string) => {
      const html = (await f.page(`${pagePath(f.ids.velo!, 'velo-cafe-bikes')}${query}`)).text
      return (property: string) => new RegExp(`<meta property="${property}" content="([^"]*)">`).exec(html)?.[1]
    }
    const en = await meta('')
    expect(en('business:contact_data:street_address')).toBe('12 Rue de Rivoli')
    expect(en('business:contact_data:country_name')).toBe('France')
    expect((await meta('?lang=de'))('business:contact_data:country_name')).toBe('Frankreich')
    // Cut before the first piece that is the town (but for numbers and a code): not at a street
    // named after it, nor at a later piece that holds the postcode.
    for (const [address, coordinates, street] of [
      ['Unit 3, London Road, London SE1 7PB', { lat: 51.4975, lng: -0.1 }, 'Unit 3, London Road'],
      ['1 Main St, Springfield, IL 62701, USA', { lat: 39.7817, lng: -89.6501 }, '1 Main St'],
      [
        '2 Rue du Marché-aux-Herbes, L-1728 Luxembourg, Luxembourg',
        { lat: 49.6116, lng: 6.1319 },
        '2 Rue du Marché-aux-Herbes',
      ],
      ['Bahnhofstrasse 1, 8001 Zürich', { lat: 47.3717, lng: 8.5387 }, 'Bahnhofstrasse 1'],
      // CLDR writes Rwanda's and Indonesia's English as international English (en_001), too.
      ['KN 4 Ave 12, Kigali, Rwanda', { lat: -1.9441, lng: 30.0619 }, 'KN 4 Ave 12'],
      ['Jl. M.H. Thamrin 1, Jakarta 10310, Indonesia', { lat: -6.1944, lng: 106.8229 }, 'Jl. M.H. Thamrin 1'],
    ] as const) {
      const { id } = (await f.env.call('POST', '/admin/v1/locations', { body: { name: 'Shop', address, coordinates } }))
        .body.location
      const html = (await f.page(`/l/${f.token}/${id}`)).text
      expect(html).toContain(`<meta property="business:contact_data:street_address" content="${street}">`)
      // Its locale: English as the store's country writes it, of the two Facebook knows (en_CH,
      // en_LU are none): British outside the US and the places CLDR gives American English.
      const locale = address.includes('Springfield') ? 'en_US' : 'en_GB'
      expect(metaTags(html)['og:locale']).toBe(locale)
      expect(metaTags((await f.page(`/l/${f.token}/${id}?lang=fr`)).text)['og:locale']).toBe('fr_FR')
      await f.env.call('POST', `/admin/v1/locations/${id}/delete`)
    }
  })

  test('carries schema.org LocalBusiness JSON-LD made from the public location', async () => {
    const id = f.ids.velo!
    const [ld, crumbs, ...more] = jsonLd((await f.page(pagePath(id, 'velo-cafe-bikes'))).text)
    expect(crumbs['@type']).toBe('BreadcrumbList') // store-directory.test.ts
    expect(more).toEqual([])
    const pub = await f.publicLocation(id)
    const canonical = canonicalOf(id, 'Vélo Café Bikes')
    // The street: the formatted address before the piece that names its town.
    expect(pub.address.formatted).toBe('12 Rue de Rivoli, 75004 Paris')
    const address: Record<string, string> = { '@type': 'PostalAddress', streetAddress: '12 Rue de Rivoli' }
    if (pub.address.city) address.addressLocality = pub.address.city
    if (pub.address.region) address.addressRegion = pub.address.region
    if (pub.address.postcode) address.postalCode = pub.address.postcode
    if (pub.address.country) address.addressCountry = pub.address.country
    expect(address.addressCountry).toBe('FR')
    const day = (d: string, opens: string, closes: string) => ({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: `https://schema.org/${d}`,
      opens,
      closes,
    })
    expect(ld).toEqual({
      '@context': 'https://schema.org',
      '@type': 'LocalBusiness',
      '@id': canonical,
      url: canonical,
      name: 'Vélo Café Bikes',
      description: 'Coffee, espresso and city bikes.',
      image: 'https://img.example.com/velo.jpg',
      telephone: '+33 1 23 45 67 89',
      email: 'hello@velo.example',
      address,
      geo: { '@type': 'GeoCoordinates', latitude: 48.86, longitude: 2.356 },
      openingHoursSpecification: [
        day('Monday', '09:00', '18:00'),
        day('Tuesday', '09:00', '18:00'),
        day('Saturday', '10:00', '16:00'),
      ],
      sameAs: [
        'https://velo.example',
        'https://www.instagram.com/velo_cafe/',
        'https://www.facebook.com/velocafe',
        'https://x.com/velocafe',
      ],
    })
  })

  test('writes one opening hours specification per interval; closed and unreadable days have none', async () => {
    const [ld] = jsonLd((await f.page(pagePath(hoursId))).text)
    const spec = (d: string, opens: string, closes: string) => ({ dayOfWeek: `https://schema.org/${d}`, opens, closes })
    expect(ld.openingHoursSpecification.map(({ '@type': _, ...s }: any) => s)).toEqual([
      spec('Monday', '09:00', '12:00'),
      spec('Monday', '13:00', '18:00'),
      spec('Tuesday', '00:00', '23:59'), // 24 hours
      spec('Friday', '18:00', '02:00'), // past midnight: closes before it opens
      spec('Saturday', '10:00', '16:00'),
    ])
    expect(ld.sameAs).toBeUndefined()
    expect(ld.description).toBeUndefined()
    expect(ld.image).toBeUndefined()
  })

  test('lists the special hours of its next 60 days, in the page and its JSON-LD; the ETag turns with the date', async () => {
    // FIXTURE_NOW is Monday 2026-06-15, 10:00 in Paris.
    const id = await f.create({
      name: 'Holiday Hours Bikes',
      address: '5 Rue de Lappe, 75011 Paris',
      coordinates: { lat: 48.853, lng: 2.372 },
      hours: { monday: '09:00-18:00' },
      special_hours: {
        '2026-06-14': 'closed', // yesterday: gone
        '2026-07-14': 'closed',
        '2026-06-15': '10:00-14:00',
        '2026-06-20': '10:00-12:00, 22:00-02:00',
        '2026-06-21': 'by appointment', // not read: shown, not in JSON-LD
        '2026-08-14': 'closed', // 60 days ahead: past the list
      },
    })
    const html = rangesAsText((await f.page(pagePath(id))).text)
    const rows = [...html.matchAll(/<tr><th scope="row"><time datetime="([\d-]+)">([^<]+)<\/time><\/th><td>([^<]*)</g)]
    expect(rows.map((m) => [m[1], m[2], m[3]])).toEqual([
      // A store in France: its dates and times as English in France writes them.
      ['2026-06-15', 'Monday, 15 June 2026', hours('en-FR', 10, 14)],
      ['2026-06-20', 'Saturday, 20 June 2026', `${hours('en-FR', 10, 12)}, ${hours('en-FR', 22, 2)}`],
      ['2026-06-21', 'Sunday, 21 June 2026', 'by appointment'],
      ['2026-07-14', 'Tuesday, 14 July 2026', 'Closed'],
    ])
    const [ld] = jsonLd(html)
    const on = (date: string, opens: string, closes: string) => ({
      '@type': 'OpeningHoursSpecification',
      validFrom: date,
      validThrough: date,
      opens,
      closes,
    })
    // Where Google reads dated hours: beside the week's, each valid on its date alone.
    expect(ld.openingHoursSpecification).toEqual([
      { '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Monday', opens: '09:00', closes: '18:00' },
      on('2026-06-15', '10:00', '14:00'),
      on('2026-06-20', '10:00', '12:00'),
      on('2026-06-20', '22:00', '02:00'), // past midnight: closes before it opens
      on('2026-07-14', '00:00', '00:00'), // closed all day
    ])
    expect(ld.specialOpeningHoursSpecification).toBeUndefined()
    // Without special hours ahead, neither the section nor a dated entry.
    const velo = (await f.page(pagePath(f.ids.velo!))).text
    expect(velo).not.toContain('Special opening hours')
    expect(jsonLd(velo)[0].openingHoursSpecification.filter((s: any) => 'validFrom' in s)).toEqual([])

    // On another day the list starts there, and a page kept from the day before is not current.
    // (The ETag also turns when a store of the locator opens or closes: answers show open_now.)
    let clock = FIXTURE_NOW
    const registry = new IndexRegistry(f.env.store, undefined, { now: () => clock, buildRetryMs: 0 })
    const later = pagesApp({ ...f.deps, registry })
    const first = await f.page(pagePath(id), {}, later)
    const etag = first.headers.get('etag')!
    clock = FIXTURE_NOW + 60_000 // a minute on, no store opens or closes: the same page
    expect((await f.page(pagePath(id), { 'if-none-match': etag }, later)).status).toBe(304)
    clock = FIXTURE_NOW + 16 * 3600_000 // Tuesday 02:00 in Paris
    const next = await f.page(pagePath(id), { 'if-none-match': etag }, later)
    expect(next.status).toBe(200)
    expect(next.text).not.toContain('datetime="2026-06-15"')
    expect(next.text).toContain('<time datetime="2026-06-20">')
  })

  test('a name or description with markup cannot inject: escaped in HTML, \\u003c in JSON-LD', async () => {
    const res = await f.page(pagePath(evilId))
    expect(res.status).toBe(200)
    const html = res.text
    expect(html).not.toContain('<script>alert')
    expect(html).not.toContain('<b>')
    expect(html).not.toContain('<i>')
    expect(html).not.toContain('<img src=x')
    expect(html.match(/<script/g)).toHaveLength(2) // the JSON-LD blocks only
    expect(html).toContain(
      '<h1>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;Bold&lt;/b&gt; &amp; &quot;Co&quot;</h1>',
    )
    expect(html).toContain('<p>&lt;i&gt;second&lt;/i&gt;</p>')
    const [ld, crumbs] = jsonLd(html)
    expect(ld.name).toBe(EVIL_NAME)
    expect(crumbs.itemListElement.at(-1).name).toBe(EVIL_NAME)
    expect(ld.address.streetAddress).toBe('<img src=x onerror=alert(2)>')
  })
})

describe('slugs and the canonical URL', () => {
  test('slugOf folds accents, drops apostrophes, joins words with hyphens, cuts long names', () => {
    expect(slugOf('Vélo Café Bikes')).toBe('velo-cafe-bikes')
    expect(slugOf("Zoë's Garage")).toBe('zoes-garage')
    expect(slugOf('  Ångström -- Outlet!! ')).toBe('angstrom-outlet')
    expect(slugOf('Москва Store')).toBe('москва-store')
    expect(slugOf('!!!')).toBe('location')
    const long = slugOf('The Very Long Name Of A Store That Goes On And On Past Any Reasonable Length')
    expect(long).toBe('the-very-long-name-of-a-store-that-goes-on-and-on-past-any')
    expect(long.length).toBeLessThanOrEqual(60)
    expect(slugOf('x'.repeat(100))).toBe('x'.repeat(60))
  })

  test('a wrong slug answers 301 to the canonical URL; none serves the page; the right one too', async () => {
    const id = f.ids.zoe!
    const canonical = canonicalOf(id, "Zoë's Garage")
    for (const slug of ['old-name', 'ZOES-GARAGE', '%E2%82' /* not UTF-8 */]) {
      const res = await f.page(pagePath(id, slug))
      expect({ slug, status: res.status, location: res.headers.get('location') }).toEqual({
        slug,
        status: 301,
        location: canonical,
      })
    }
    for (const path of [pagePath(id), pagePath(id, 'zoes-garage')]) {
      const res = await f.page(path)
      expect({ path, status: res.status }).toEqual({ path, status: 200 })
      expect(res.text).toContain(`<link rel="canonical" href="${canonical}">`)
    }
  })

  test('in the language ?lang= names: its texts, weekdays and dates, its own canonical URL, the others as alternates', async () => {
    const id = await f.create({
      name: 'Fahrrad Haus',
      address: 'Torstraße 1, 10119 Berlin',
      coordinates: { lat: 52.529, lng: 13.401 },
      hours: { monday: '09:00-18:00', sunday: 'closed', saturday: 'Ruhetag', friday: 'Temporarily closed' },
      special_hours: { '2026-06-20': 'geschlossen' },
      contact: { phone: '+49 30 1234567' },
      tags: ['vintage'],
    })
    const canonical = canonicalOf(id, 'Fahrrad Haus')
    const res = await f.page(`${pagePath(id, 'fahrrad-haus')}?lang=DE`)
    expect(res.status).toBe(200)
    const html = rangesAsText(res.text)
    expect(html).toStartWith('<!doctype html>\n<html lang="de">')
    expect(html).toContain(`<link rel="canonical" href="${canonical}?lang=de">`)
    for (const lang of ['de', 'fr', 'es', 'it', 'nl'])
      expect(html).toContain(`<link rel="alternate" hreflang="${lang}" href="${canonical}?lang=${lang}">`)
    expect(html).toContain(`<link rel="alternate" hreflang="en" href="${canonical}">`)
    expect(html).toContain(`<link rel="alternate" hreflang="x-default" href="${canonical}">`)
    expect(html).toContain(`<a href="http://localhost/l/${f.token}?lang=de">Zurück zu allen Geschäften</a>`)
    expect(html).toContain('<h2 id="slp-address">Adresse</h2>')
    // A tag of no group: under the default group, named in the page's language.
    expect(html).toMatch(/<h2 id="slp-tags-\d+">Sonstiges<\/h2><ul class="slp-list"><li>Vintage<\/li><\/ul>/)
    expect(html).toContain('>Route mit Google Maps</a>')
    expect(html).toContain('<h2 id="slp-hours">Öffnungszeiten</h2>')
    expect(html).toContain('<th scope="col">Tag</th><th scope="col">Zeiten</th>')
    expect(html).toContain(`<tr><th scope="row">Montag</th><td>${hours('de', 9, 18)}</td></tr>`)
    expect(html).toContain('<tr><th scope="row">Dienstag</th><td>Keine Angabe</td></tr>')
    // A day closed, however it was written, is said in the page's language.
    expect(html).toContain('<tr><th scope="row">Sonntag</th><td>Geschlossen</td></tr>')
    expect(html).toContain('<tr><th scope="row">Samstag</th><td>Geschlossen</td></tr>')
    // "Temporarily" says more than the page's word for closed: kept as written.
    expect(html).toContain('<tr><th scope="row">Freitag</th><td>Temporarily closed</td></tr>')
    expect(html).toContain('<time datetime="2026-06-20">Samstag, 20. Juni 2026</time></th><td>Geschlossen</td>')
    expect(html).toContain('Telefon: <a href="tel:+49301234567">')
    // A wrong slug keeps the language; a language not shipped is the English page.
    const moved = await f.page(`${pagePath(id, 'old')}?lang=de`)
    expect([moved.status, moved.headers.get('location')]).toEqual([301, `${canonical}?lang=de`])
    const other = rangesAsText((await f.page(`${pagePath(id)}?lang=pt`)).text)
    expect(other).toStartWith('<!doctype html>\n<html lang="en">')
    expect(other).toContain(`<link rel="canonical" href="${canonical}">`)
    expect(other).toContain(`<tr><th scope="row">Monday</th><td>${hours('en-DE', 9, 18)}</td></tr>`)
    expect(other).toContain('<tr><th scope="row">Saturday</th><td>Closed</td></tr>')
  })

  test('a slug beyond ASCII is percent-encoded in the canonical URL and served when sent so', async () => {
    const id = await f.create({
      name: 'Москва Store',
      address: 'Tverskaya 1, Moscow',
      coordinates: { lat: 55.76, lng: 37.61 },
    })
    const canonical = `http://localhost/l/${f.token}/${id}/${encodeURIComponent('москва-store')}`
    expect((await f.page(pagePath(id, 'x'))).headers.get('location')).toBe(canonical)
    expect((await f.page(canonical)).status).toBe(200)
  })

  test('PUBLIC_BASE_URL makes the links', async () => {
    const app = pagesApp({ ...f.deps, publicBaseUrl: 'https://stores.example.com/find' })
    const res = await f.page(pagePath(f.ids.zoe!), {}, app)
    expect(res.text).toContain(
      `<link rel="canonical" href="https://stores.example.com/find/l/${f.token}/${f.ids.zoe}/zoes-garage">`,
    )
    expect(res.text).toContain(`<a href="https://stores.example.com/find/l/${f.token}">Back to all stores</a>`)
  })

  test('an ETag: the same page again is 304; a write to the locator changes it', async () => {
    const path = pagePath(f.ids.zoe!, 'zoes-garage')
    const etag = (await f.page(path)).headers.get('etag')!
    expect(etag).toBeTruthy()
    const again = await f.page(path, { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    await f.create({ name: 'Another One', address: '1 Rue X, Paris', coordinates: { lat: 48.8, lng: 2.3 } })
    expect((await f.page(path, { 'if-none-match': etag })).status).toBe(200)
  })
})

describe('404', () => {
  /** A 404 page in HTML that says what was not found. */
  const expectNotFound = (res: { status: number; headers: Headers; text: string }, what: RegExp, lang = 'en') => {
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.text).toContain(`<html lang="${lang}">`)
    expect(res.text).toMatch(what)
  }

  test('for a draft, a deleted location, an unknown or undecodable id', async () => {
    expectNotFound(await f.page(pagePath(f.ids.hidden!)), /<h1>Store not found<\/h1>/)
    expectNotFound(await f.page(pagePath(f.ids.workshop!, 'secret-workshop')), /<h1>Store not found<\/h1>/)
    const gone = await f.create({ name: 'Gone Soon', address: '1 Rue Y, Paris', coordinates: { lat: 48.8, lng: 2.3 } })
    expect((await f.page(pagePath(gone))).status).toBe(200)
    expect((await f.env.call('POST', `/admin/v1/locations/${gone}/delete`)).status).toBe(200)
    expectNotFound(await f.page(pagePath(gone)), /does not exist or is not published/)
    expectNotFound(await f.page(pagePath('loc_doesnotexist00')), /<h1>Store not found<\/h1>/)
    expectNotFound(await f.page(pagePath('%zz', 'x')), /<h1>Store not found<\/h1>/)
    // The finder is linked from a known locator's 404.
    expect((await f.page(pagePath('loc_doesnotexist00'))).text).toContain(`<a href="http://localhost/l/${f.token}">`)
  })

  test('in the language a link asks for, the finder linked in it too', async () => {
    const res = await f.page(`${pagePath('loc_doesnotexist00')}?lang=de`)
    expectNotFound(res, /<h1>Geschäft nicht gefunden<\/h1>/, 'de')
    expect(res.text).toContain(`<a href="http://localhost/l/${f.token}?lang=de">Alle Geschäfte ansehen</a>`)
    expectNotFound(await f.page(`/l/pk_unknown/${f.ids.velo}?lang=fr`), /<h1>Recherche de magasins introuvable/, 'fr')
    expectNotFound(await f.page(`${pagePath('loc_doesnotexist00')}?lang=xx`), /<h1>Store not found<\/h1>/)
  })

  test('for an unknown or undecodable token, an inactive locator, and the Query API off', async () => {
    const locatorNotFound = /<h1>Store locator not found<\/h1>/
    expectNotFound(await f.page(`/l/pk_unknown/${f.ids.velo}`), locatorNotFound)
    expectNotFound(await f.page(`/l/%zz/${f.ids.velo}/x`), locatorNotFound)
    const { locator, secret } = createLocator(f.env.store, 'Switched')
    const other = await f.env.call('POST', '/admin/v1/locations', {
      key: secret,
      body: { name: 'Other Store', address: '1 Rue Z, Paris', coordinates: { lat: 48.8, lng: 2.3 } },
    })
    const path = `/l/${locator.publicToken}/${other.body.location.id}`
    expectNotFound(await f.page(path), locatorNotFound) // the Query API is off by default
    expect((await f.page(`/l/${locator.publicToken}/sitemap.xml`)).status).toBe(404)
    setLocatorSettings(f.env.store, locator.id, { queryApi: 'on' })
    expect((await f.page(path)).status).toBe(200)
    setLocatorSettings(f.env.store, locator.id, { active: 'off' })
    expectNotFound(await f.page(path), locatorNotFound)
    const sitemap = await f.page(`/l/${locator.publicToken}/sitemap.xml`)
    expect(sitemap.status).toBe(404)
    expect(sitemap.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  })
})

describe('the sitemap', () => {
  const sitemapUrl = () => `/l/${f.token}/sitemap.xml`
  /**
   * The finder page, the store directory's pages (its top, each country's, each town's) and every
   * published location's canonical page, as the fixture's rows say.
   */
  const expected = () => {
    const published = f.env.store.locations.page(f.env.locatorId, 'published', 1000, 0)
    expect(published.some((r) => r.id === f.ids.hidden)).toBe(false)
    const dir = `http://localhost/l/${f.token}/stores`
    const places = new Set<string>()
    for (const { addressParts: a } of published) {
      places.add(`${dir}/${a.country!.toLowerCase()}`)
      places.add(`${dir}/${a.country!.toLowerCase()}/${encodeURIComponent(slugOf(a.city!))}`)
    }
    return [`http://localhost/l/${f.token}`, dir, ...places, ...published.map((r) => canonicalOf(r.id, r.name))]
  }

  test('its ETag holds while stores open and close: only writes change it', async () => {
    let clock = FIXTURE_NOW
    const registry = new IndexRegistry(f.env.store, undefined, { now: () => clock, buildRetryMs: 0 })
    const app = pagesApp({ ...f.deps, registry })
    registry.entry(f.env.locatorId) // its index loaded, as a public query loads it
    const etag = (await f.page(sitemapUrl(), {}, app)).headers.get('etag')!
    const before = registry.version(f.env.locatorId)
    clock += 6 * 3_600_000
    expect(registry.version(f.env.locatorId)).not.toBe(before) // the Query API's answers changed
    expect((await f.page(sitemapUrl(), { 'if-none-match': etag }, app)).status).toBe(304)
  })

  test('lists the finder page and exactly the published locations, with lastmod', async () => {
    const res = await f.page(sitemapUrl())
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8')
    expect(res.text).toStartWith(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
    )
    expect(res.text).toEndWith('</urlset>\n')
    expect(locs(res.text).sort()).toEqual(expected().sort())
    for (const key of ['hidden', 'workshop', 'unpub']) expect(res.text).not.toContain(f.ids[key]!)
    const velo = f.env.store.locations.get(f.env.locatorId, f.ids.velo!)!
    expect(res.text).toContain(
      `<url><loc>${canonicalOf(velo.id, velo.name)}</loc><lastmod>${velo.updatedAt}</lastmod></url>`,
    )
    // Every URL listed serves its page.
    for (const url of locs(res.text).slice(1)) expect((await f.page(url)).status).toBe(200)
  })

  test('XML-escapes the URLs', async () => {
    const res = await f.page(sitemapUrl())
    expect(res.text).toContain(`<loc>${canonicalOf(evilId, EVIL_NAME)}</loc>`) // its slug is plain: no escape needed
    const app = pagesApp({ ...f.deps, publicBaseUrl: 'https://stores.example.com/a&b' })
    const escaped = await f.page(sitemapUrl(), {}, app)
    expect(escaped.text).toContain(`<loc>https://stores.example.com/a&amp;b/l/${f.token}</loc>`)
    expect(escaped.text).not.toContain('a&b')
  })

  test('past its page size: an index of pages, which together list every URL once', async () => {
    const all = expected()
    const app = pagesApp(f.deps, 10)
    const index = await f.page(sitemapUrl(), {}, app)
    expect(index.status).toBe(200)
    expect(index.text).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    const pages = Math.ceil(all.length / 10)
    const pageUrls = Array.from({ length: pages }, (_, i) => `http://localhost/l/${f.token}/sitemap.xml?page=${i + 1}`)
    expect(locs(index.text)).toEqual(pageUrls)
    expect(index.text).toContain('sitemap.xml?page=1</loc>')
    const listed: string[] = []
    for (const url of pageUrls) {
      const page = await f.page(url, {}, app)
      expect(page.text).toContain('<urlset ')
      expect(locs(page.text).length).toBeLessThanOrEqual(10)
      listed.push(...locs(page.text))
    }
    expect(listed.sort()).toEqual([...all].sort())
    for (const bad of [`${pages + 1}`, '0', '-1', 'abc', '1.5'])
      expect((await f.page(`${sitemapUrl()}?page=${bad}`, {}, app)).status).toBe(404)
  })
})
