// A store page in a real browser as a visitor meets it: laid out before its photo arrives. The app
// answers through request interception, the photo's host too: no port is opened.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { type Fixture, makeFixture } from '../public/fixture'
import { answeredBy, chromiumPath, launch, newPage } from './browser'

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
        const styled = page.waitForResponse((r) => r.url().endsWith('/widget.css'))
        await page.goto(`${ORIGIN}/l/${f.token}/${f.ids.velo}`, { waitUntil: 'domcontentloaded' })
        await styled
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
})
