// A store page in a real browser as a visitor meets it: laid out before its photo arrives, and
// within a phone's width. The app answers through request interception, the photo's host too: no
// port is opened.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { type Fixture, makeFixture } from '../public/fixture'
import { answeredBy, chromiumPath, launch, newPage, screenshot } from './browser'

/** The origin the pages are asked at; every request to it is answered by the fixture's app. */
const ORIGIN = 'http://stores.test'
/** The fixture's photo of the Vélo Café store. */
const PHOTO = 'https://img.example.com/velo.jpg'

let f: Fixture
let browser: Browser

/**
 * A page whose requests to ORIGIN the app answers, and the photo's with a wide picture once
 * `photo` is called; anything else is refused.
 */
async function openPage(width: number): Promise<{ page: Page; photo: () => void }> {
  const page = await newPage(browser, { viewport: { width, height: 700 } })
  let photo = () => {}
  const sent = new Promise<void>((resolve) => {
    photo = resolve
  })
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="200"><rect width="900" height="200"/></svg>'
  await answeredBy(page, ORIGIN, f.env.app, async (url) => {
    if (url !== PHOTO) return undefined
    await sent
    return { type: 'image/svg+xml', body: svg }
  })
  return { page, photo }
}

describe.skipIf(chromiumPath === null)('a store page in Chromium', () => {
  beforeAll(async () => {
    ;[f, browser] = await Promise.all([makeFixture(), launch()])
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    f?.env.close()
  })

  test.each([800, 320])(
    'at %p px wide, the photo has its room before it arrives: nothing under it moves',
    async (width) => {
      const { page, photo } = await openPage(width)
      try {
        // Its style is in the page: laid out as soon as it is parsed.
        await page.goto(`${ORIGIN}/l/${f.token}/${f.ids.velo}`, { waitUntil: 'domcontentloaded' })
        const address = page.getByRole('heading', { name: 'Address' })
        const before = (await address.boundingBox())!.y
        const img = page.getByRole('img', { name: /Vélo Café/ })
        expect((await img.boundingBox())!.height).toBeGreaterThan(50)
        photo()
        await img.evaluate(
          (el) => (el as unknown as { decode: () => Promise<void> }).decode(), // resolves once it has loaded
        )
        expect((await address.boundingBox())!.y).toBe(before)
        // Within the screen at 320 px too.
        expect((await img.boundingBox())!.width).toBeLessThanOrEqual(width)
      } finally {
        await page.close()
      }
    },
  )

  test('on a phone, long words wrap and no time range breaks: the page never scrolls sideways', async () => {
    const created = await f.env.call('POST', '/admin/v1/locations', {
      body: {
        name: 'Fahrradhandelsgesellschaftsfiliale Kurfürstendammeinkaufszentrum',
        address: '350 Fifth Avenue, New York, NY 10118',
        coordinates: { lat: 40.7484, lng: -73.9857 },
        description: 'See https://bikes.example/stores/newyork/fahrradhandelsgesellschaftsfiliale/informationen',
        contact: {
          email: 'fahrradhandelsgesellschaftsfiliale@kurfuerstendammeinkaufszentrum.example',
          website: 'https://kurfuerstendammeinkaufszentrum.example/fahrradhandelsgesellschaftsfiliale',
        },
        hours: { monday: '10:00-20:00', tuesday: '10:00-14:00, 15:00-20:00' },
        special_hours: { '2026-07-01': '10:00-14:00', '2026-07-02': '09:30-13:30, 14:30-18:45' },
      },
    })
    expect(created.status).toBe(201)
    const { page } = await openPage(320)
    try {
      // Spanish writes a US store's times on a 12-hour clock: "10:00 a.m.–2:00 p.m.", longer than 24-hour ones.
      await page.goto(`${ORIGIN}/l/${f.token}/${created.body.location.id}?lang=es`)
      await screenshot(page, 'store-page-phone')
      const [scroll, client] = await page.locator('html').evaluate((e) => [e.scrollWidth, e.clientWidth])
      expect(scroll).toBe(client)
      // Each time range on one line: a cell's text has as many lines as ranges, at most; a day's
      // name or a date breaks only between words.
      const lines = (selector: string) =>
        page.locator(selector).evaluateAll((tds) =>
          tds.map((td) => {
            const doc = td.ownerDocument as unknown as {
              createRange: () => {
                selectNodeContents: (n: unknown) => void
                getClientRects: () => ArrayLike<{ top: number }>
              }
            }
            const range = doc.createRange()
            range.selectNodeContents(td)
            const tops = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)))
            return { text: td.textContent, lines: tops.size }
          }),
        )
      const cells = await lines('.slp-hours td')
      const ranges = (text: string | null) => (text ?? '').split(', ').length
      expect(cells.filter((c) => c.lines > ranges(c.text))).toEqual([])
      const days = await lines('.slp-hours tbody th')
      expect(days.filter((c) => c.lines > (c.text ?? '').split(' ').length)).toEqual([])
      expect(cells.map((c) => c.text)).toContainEqual(expect.stringMatching(/^10:00\sa\.m\.–2:00\sp\.m\.$/))
    } finally {
      await page.close()
    }
  })

  test.each([
    [320, 24],
    [800, 32],
  ])("at %p px wide, the store's name is a heading of %p px, its lines set close", async (width, size) => {
    const { page } = await openPage(width)
    try {
      await page.goto(`${ORIGIN}/l/${f.token}/${f.ids.velo}`, { waitUntil: 'domcontentloaded' })
      const [fontSize, lineHeight] = await page.getByRole('heading', { level: 1 }).evaluate((h) => {
        type Style = { fontSize: string; lineHeight: string }
        const style = (globalThis as unknown as { getComputedStyle: (e: unknown) => Style }).getComputedStyle(h)
        return [style.fontSize, style.lineHeight].map(Number.parseFloat)
      })
      expect(fontSize).toBeCloseTo(size, 0)
      expect(lineHeight! / fontSize!).toBeLessThanOrEqual(1.25)
    } finally {
      await page.close()
    }
  })
})
