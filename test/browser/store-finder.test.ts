// The finder page (/l/{token}) in a real browser, around the widget it holds: its own header and
// footer on a phone. The app answers through request interception: no port is opened.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { setLocatorSettings } from '../../src/operator'
import { type Fixture, makeFixture } from '../public/fixture'
import { answeredBy, chromiumPath, launch, newPage, screenshot } from './browser'

/** The origin the pages are asked at; every request to it is answered by the fixture's app. */
const ORIGIN = 'http://stores.test'

let f: Fixture
let browser: Browser

describe.skipIf(chromiumPath === null)('the finder page in Chromium', () => {
  beforeAll(async () => {
    ;[f, browser] = await Promise.all([makeFixture(), launch()])
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    f?.env.close()
  })

  test('on a phone, a name of one long word wraps: the page never scrolls sideways', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, {
      name: 'Fahrradhandelsgesellschaft Kurfürstendammeinkaufszentrum',
    })
    const page = await newPage(browser, { viewport: { width: 320, height: 700 } })
    try {
      await answeredBy(page, ORIGIN, f.env.app)
      await page.goto(`${ORIGIN}/l/${f.token}?lang=de`)
      await page.getByRole('search').waitFor()
      await screenshot(page, 'finder-page-phone')
      const [scroll, client] = await page.locator('html').evaluate((e) => [e.scrollWidth, e.clientWidth])
      expect(scroll).toBe(client)
    } finally {
      await page.close()
    }
  })
})
