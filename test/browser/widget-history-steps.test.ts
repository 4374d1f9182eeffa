// The finder's own history steps (history.forward() or back() from a popstate) meeting the
// visitor's next step, in a real browser against the demo: Chromium then ends every request under
// way, and the finder asks again the ones it still wants. Wherever the steps land, that entry's
// stores show, with no failure.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { aTurnLater, chromiumPath, networkSettled, newPage, watchRequests } from './browser'
import { pick, searchFinder, searchIn, typedWaiting } from './finder-page'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

/** The entry the steps landed on: its search's stores (or the prompt before any), no failure, no error. */
async function landedWhole(page: Page, finder: string, errors: string[]) {
  await networkSettled(page)
  await aTurnLater(page)
  const status = await page.locator(`${finder} .sl-status`).textContent()
  const place = new URL(page.url()).searchParams.get('sl_place')
  if (place === null) expect(status).toMatch(/^Type a town or postcode/)
  else expect(status).toContain(`of ${place}`)
  expect(await page.locator(`${finder} > .sl-error`).textContent()).toBe('')
  expect(errors).toEqual([])
}

describe.skipIf(chromiumPath === null)("the finder's steps meeting the visitor's, in Chromium", () => {
  test('side by side, Forward to the list goes on to the map; Back at once: the stores, no failure', async () => {
    const page = await newPage(demo.browser, PHONE)
    watchRequests(page)
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    try {
      await searchFinder(page, demo.server)
      await page.getByRole('button', { name: 'Show map' }).tap()
      await page.locator('.sl-results').waitFor({ state: 'hidden' })
      await page.setViewportSize({ width: 844, height: 390 })
      await page.locator('.sl-results').waitFor({ state: 'visible' })
      await page.goBack()
      await page.locator('.sl-status').filter({ hasText: 'Type a town or postcode' }).waitFor()
      await networkSettled(page)
      // Forward restores London's search; the finder goes on to the map's entry with
      // history.forward(), and the visitor's Back comes before that step is over.
      await page.evaluate(`{
        addEventListener('popstate', () => history.back(), { once: true })
        history.forward()
      }`)
      await page.waitForFunction('!document.querySelector(".sl-status").textContent.startsWith("Type")')
      await landedWhole(page, '.sl-root', errors)
    } finally {
      await page.close()
    }
  })

  test('without the Navigation API, opened by Back from another page, Back twice while a postcode waits: the stores', async () => {
    const host = hostPage(
      `<div id="f" data-storeloc="${demo.server.token}"></div><script src="${demo.server.url}/widget.js"></script>`,
    )
    const page = await newPage(demo.browser, { viewport: { width: 1100, height: 800 } })
    watchRequests(page)
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.addInitScript('delete window.navigation')
    try {
      await page.goto(host.url)
      await searchIn(page, '#f', 'Paris')
      await searchIn(page, '#f', 'Leeds')
      await pick(page, 'Berl', 'Berlin, Germany')
      await page.goto(`${demo.server.url}/`)
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of Berlin, Germany' }).waitFor()
      await networkSettled(page)
      // The other page's entry is after Berlin's: Back from the search waiting goes Forward again
      // with history.forward(), which the second Back meets.
      const release = await typedWaiting(page, '75001')
      await page.evaluate('history.back(); history.back()')
      await page.waitForURL((u) => !u.searchParams.get('sl_place')?.startsWith('Berlin'))
      release()
      await landedWhole(page, '#f', errors)
    } finally {
      host.stop()
      await page.close()
    }
  })

  test("after Back, a proxy's 429 (its HTML page) is an answer: asked once, the rate limit said", async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    watchRequests(page)
    let asked = 0
    try {
      const box = await searchFinder(page, demo.server, 'London')
      await box.fill('Paris')
      await box.press('Enter')
      await page.locator('.sl-status').filter({ hasText: 'of Paris' }).waitFor()
      await networkSettled(page)
      // As nginx's limit_req answers (docs/operations.md).
      await page.route('**/locations?**', (route) => {
        asked++
        return route.fulfill({ status: 429, contentType: 'text/html', body: '<html><h1>429</h1></html>' })
      })
      await page.goBack()
      await page.getByRole('alert').filter({ hasText: 'Too many searches just now.' }).waitFor()
      await networkSettled(page)
      expect(asked).toBe(1)
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('Back with the service out of reach: the search asked again once, then its failure said', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    watchRequests(page)
    let asked = 0
    try {
      const box = await searchFinder(page, demo.server, 'London')
      await box.fill('Paris')
      await box.press('Enter')
      await page.locator('.sl-status').filter({ hasText: 'of Paris' }).waitFor()
      await networkSettled(page)
      await page.route('**/locations?**', (route) => (asked++, route.abort('failed')))
      await page.goBack()
      await page.getByRole('alert').filter({ hasText: 'could not be loaded' }).waitFor()
      await networkSettled(page)
      // Twice within the second after the step, once on a machine slower than that.
      expect(asked).toBeGreaterThan(0)
      expect(asked).toBeLessThanOrEqual(2)
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test("two finders: past a second after one's step, neither's unanswered request is asked again", async () => {
    const host = hostPage(
      ['f', 'g'].map((id) => `<div id="${id}" data-storeloc="${demo.server.token}"></div>`).join('') +
        `<script src="${demo.server.url}/widget.js"></script>`,
    )
    const page = await newPage(demo.browser, { viewport: { width: 1100, height: 800 } })
    watchRequests(page)
    try {
      await page.goto(host.url)
      await searchIn(page, '#f', 'Paris')
      await searchIn(page, '#f', 'Leeds')
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of Paris' }).waitFor()
      await networkSettled(page)
      // Past the second after a step in which a request failed unanswered is asked again.
      await page.waitForTimeout(1000)
      // The service out of reach since: each search's stores fail with no answer.
      const asked: string[] = []
      await page.route('**/locations?**', (route) => (asked.push(route.request().url()), route.abort('failed')))
      for (const [finder, place] of [
        ['#g', 'Berlin'],
        ['#f', 'Leeds'],
      ]) {
        await page.locator(`${finder} .sl-place input`).fill(place!)
        await page.locator(`${finder} .sl-place input`).press('Enter')
        await page.locator(`${finder} > .sl-error`).filter({ hasText: 'could not be loaded' }).waitFor()
        await networkSettled(page)
      }
      expect(asked.map((url) => new URL(url).searchParams.get('near'))).toEqual(['Berlin', 'Leeds'])
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      host.stop()
      await page.close()
    }
  })
})
