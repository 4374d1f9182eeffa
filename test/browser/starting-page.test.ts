// A store page opened while the service starts (a first start prepares the geocoder's data for up
// to a minute), in a real browser: it says the finder is starting, in the link's language, and
// reloads itself into the store page once the service serves. The app answers through request
// interception: no port is opened.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { startingResponder } from '../../src/server/starting-answers'
import { type Fixture, makeFixture } from '../public/fixture'
import { answeredBy, chromiumPath, launch, newPage } from './browser'

const ORIGIN = 'http://stores.test'

let f: Fixture
let browser: Browser

describe.skipIf(chromiumPath === null)('a page opened while the service starts, in Chromium', () => {
  beforeAll(async () => {
    ;[f, browser] = await Promise.all([makeFixture(), launch()])
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    f?.env.close()
  })

  test('says so in its language, then reloads itself into the store page once the service serves', async () => {
    const store = `${ORIGIN}/l/${f.token}/${f.ids.velo!}`
    const starting = startingResponder(false, () => {})
    let started = false
    const page = await newPage(browser)
    try {
      await answeredBy(page, ORIGIN, { handle: (r) => (started ? f.env.app.handle(r) : starting(r)) })
      const opened = await page.goto(`${store}?lang=de`)
      expect(opened!.status()).toBe(503)
      await page.getByRole('heading', { name: 'Wird gestartet' }).waitFor()
      expect(await page.locator('main p').textContent()).toBe(
        'Diese Filialsuche wird gerade gestartet. Die Seite lädt gleich neu.',
      )
      started = true
      // No action of the test's: the page's own refresh asks again, and the store page comes.
      const reloaded = await page.waitForResponse((r) => r.url().startsWith(store) && r.status() === 200, {
        timeout: 20_000,
      })
      expect(reloaded.url()).toContain('lang=de')
      await page.getByRole('heading', { name: 'Öffnungszeiten' }).waitFor()
    } finally {
      await page.close()
    }
  }, 60_000)
})
