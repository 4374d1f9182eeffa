// The finder while the service takes a request and leaves it unanswered (no 503, just slow), in a
// real browser against a real server with the demo data: a search's first page, its filters, the
// place suggestions and the map's clusters have the status line say so after SAY_WAITING_MS, as
// "Show more stores" does, read out once, and say nothing of trying again, since nothing is asked
// again till the visitor does, till a 503 comes for it; the nearest stores beyond the radius,
// given up at the end of a search's wait, are said not loaded, and gone with that search; their two
// requests (the words searched) are one wait, said once.
import { describe, expect, test } from 'bun:test'
import type { Page, Route } from 'playwright-core'
import { chromiumPath, starting } from './browser'
import { countMoves } from './map-moves'
import { useDemoBrowser } from './server'
import { beyond, heard, readOut, searchFor, withFinderPage, withUnitlessPage } from './waiting-finder'

const demo = useDemoBrowser()

const STALLED = 'Still waiting for the store finder…'
const BUSY = 'The store finder is busy just now. Trying again…'
const PROMPT = 'Type a town or postcode, or use your location, to find the nearest stores.'

/** A request the page is left waiting on: never answered, till the page gives it up. */
const never = () => new Promise<void>(() => {})

/**
 * The first of the page's requests that `url` matches left unanswered till `refuse()` answers it as
 * the service starting (503, Retry-After: 1); the rest answered by the service.
 */
async function heldThenRefused(page: Page, url: Parameters<Page['route']>[0]) {
  let take: (route: Route) => void = () => {}
  const first = new Promise<Route>((done) => (take = done))
  let asked = 0
  await page.route(url, (route) => (asked++ === 0 ? take(route) : route.continue()))
  return { refuse: async () => starting(await first) }
}

/** The finder's status line once it says `text`. */
const saying = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).waitFor()

describe.skipIf(chromiumPath === null)('the finder while the service leaves a request unanswered, in Chromium', () => {
  test("a search's first page unanswered: still waiting said, read out once; searched again, its stores", async () => {
    await withFinderPage(demo, async (page, open) => {
      let asked = 0
      await page.route(
        (url) => url.pathname.endsWith('/locations') && url.searchParams.get('near') === 'London',
        (route) => (asked++ === 0 ? never() : route.continue()),
      )
      await open()
      await page.locator('.sl-filter-slot').waitFor({ state: 'attached' })
      await page.getByRole('status').evaluate(readOut)
      await searchFor(page, 'London')
      await page.getByRole('status').filter({ hasText: STALLED }).waitFor()
      expect(await page.locator('.sl-root > .sl-error').textContent()).toBe('')
      await page.getByRole('combobox', { name: 'Town or postcode' }).press('Enter')
      await page
        .getByRole('status')
        .filter({ hasText: /stores within .* of London/ })
        .waitFor()
      expect(asked).toBe(2)
      expect((await heard(page)).filter((said) => said === STALLED)).toEqual([STALLED])
    })
  })

  test("a search's first page unanswered, then refused by a 503: trying again said in place of still waiting", async () => {
    await withFinderPage(demo, async (page, open) => {
      const stores = await heldThenRefused(page, '**/locations?*near=London*')
      await open()
      await page.locator('.sl-filter-slot').waitFor({ state: 'attached' })
      await page.getByRole('status').evaluate(readOut)
      await searchFor(page, 'London')
      await saying(page, STALLED)
      await stores.refuse()
      await saying(page, BUSY)
      await saying(page, /stores within .* of London/)
      expect((await heard(page)).filter((said) => said === BUSY || said === STALLED)).toEqual([STALLED, BUSY])
    })
  })

  test('its filters unanswered, then refused by a 503: the search waiting on them says trying again', async () => {
    await withUnitlessPage(demo, async (page, open) => {
      const filters = await heldThenRefused(page, '**/filters*')
      await open()
      await searchFor(page, 'London')
      await saying(page, STALLED)
      await filters.refuse()
      await saying(page, BUSY)
      await saying(page, /stores within .* of London/)
    })
  })

  test('"Show more stores" unanswered, then refused by a 503: trying again, by the line and under the button', async () => {
    await withFinderPage(demo, async (page, open) => {
      const more = await heldThenRefused(page, (url) => url.searchParams.get('offset') === '10')
      await open()
      await searchFor(page, 'London')
      await page.locator('.sl-item').nth(9).waitFor()
      const count = (await page.getByRole('status').textContent()) ?? ''
      await page.getByRole('button', { name: 'Show more stores' }).click()
      await saying(page, `${count}. ${STALLED}`)
      await more.refuse()
      await saying(page, `${count}. ${BUSY}`)
      expect(await page.locator('.sl-more-busy').textContent()).toBe(BUSY)
      await page.locator('.sl-item').nth(10).waitFor()
      await saying(page, /Showing 20 of \d+$/)
    })
  })

  test('place suggestions unanswered: still waiting said; a letter more, the list and the prompt again', async () => {
    await withFinderPage(demo, async (page, open) => {
      let asked = 0
      await page.route('**/places?*', (route) => (asked++ === 0 ? never() : route.continue()))
      await open()
      await saying(page, PROMPT)
      const box = page.getByRole('combobox', { name: 'Town or postcode' })
      await box.fill('Lond')
      await saying(page, STALLED)
      await box.press('o')
      await page.getByRole('option', { name: 'London, United Kingdom' }).waitFor()
      await saying(page, PROMPT)
    })
  })

  test("the map's clusters unanswered: still waiting said; the map moved, its bubbles and the prompt", async () => {
    await withFinderPage(demo, async (page, open) => {
      let asked = 0
      await page.route('**/clusters?*', (route) => (asked++ === 0 ? never() : route.continue()))
      await open()
      await saying(page, STALLED)
      expect(await page.locator('.sl-cluster').count()).toBe(0)
      await page.locator('.sl-map').focus()
      const moved = await countMoves(page, 'keydown')
      await page.keyboard.press('ArrowRight')
      await moved()
      await page.locator('.sl-cluster').first().waitFor()
      await saying(page, PROMPT)
    })
  })

  test('its filters unanswered: the search waiting on them says still waiting, read out once, till their wait ends', async () => {
    await withUnitlessPage(demo, async (page, open) => {
      // The page's clock runs on, and leaps as the test says: the waits' 90 s without waiting them.
      await page.clock.install()
      await page.route('**/filters*', never)
      await open()
      await page.getByRole('status').evaluate(readOut)
      // No unit yet (none on the page, the filters not answered): the search waits on the filters.
      await searchFor(page, 'London')
      await page.getByRole('status').filter({ hasText: STALLED }).waitFor()
      await page.clock.fastForward(90_000)
      // The filters' wait over, the search's is too: its stores not asked for as long again.
      await page.locator('.sl-root > .sl-error').filter({ hasText: 'The stores could not be loaded.' }).waitFor()
      expect(await page.locator('.sl-filter-slot [role="alert"]').textContent()).toContain(
        'The filters could not be loaded.',
      )
      expect((await heard(page)).filter((said) => said !== 'Searching…')).toEqual([STALLED])
    })
  })

  test('its filters answered late, its first page unanswered then: still waiting read out once, not again', async () => {
    await withUnitlessPage(demo, async (page, open) => {
      let [answerFilters, answerStores] = [() => {}, () => {}]
      const filters = new Promise<void>((done) => (answerFilters = done))
      const stores = new Promise<void>((done) => (answerStores = done))
      await page.route('**/filters*', (route) => filters.then(() => route.continue()))
      await page.route('**/locations?*near=London*', (route) => stores.then(() => route.continue()))
      await open()
      await page.getByRole('status').evaluate(readOut)
      await searchFor(page, 'London')
      await page.getByRole('status').filter({ hasText: STALLED }).waitFor()
      // The search's stores asked past its 3 s: its busy text, said already, stays as it is.
      const asked = page.waitForRequest((request) => new URL(request.url()).searchParams.get('near') === 'London')
      answerFilters()
      await asked
      answerStores()
      await page
        .getByRole('status')
        .filter({ hasText: /stores within .* of London/ })
        .waitFor()
      expect((await heard(page)).filter((said) => said === STALLED)).toEqual([STALLED])
    })
  })

  test('its filters refused by 503s past 3 s, its first page asked then: trying again stays, read out once', async () => {
    await withUnitlessPage(demo, async (page, open) => {
      // Refused till two more are asked after the busy words show: 1 s apart at least, the search's
      // own 3 s are past when its stores are asked.
      let [refusals, answerStores] = [Number.POSITIVE_INFINITY, () => {}]
      const stores = new Promise<void>((done) => (answerStores = done))
      await page.route('**/filters*', (route) => (refusals-- > 0 ? starting(route) : route.continue()))
      await page.route('**/locations?*near=London*', (route) => stores.then(() => route.continue()))
      await open()
      await page.getByRole('status').evaluate(readOut)
      await searchFor(page, 'London')
      await page.getByRole('status').filter({ hasText: BUSY }).waitFor()
      // Its stores asked past the search's 3 s: the busy words said stay, not said anew.
      const asked = page.waitForRequest((request) => new URL(request.url()).searchParams.get('near') === 'London')
      refusals = 2
      await asked
      expect(await page.getByRole('status').textContent()).toBe(BUSY)
      answerStores()
      await page
        .getByRole('status')
        .filter({ hasText: /stores within .* of London/ })
        .waitFor()
      expect((await heard(page)).filter((said) => said === BUSY || said === STALLED)).toEqual([BUSY])
    })
  })

  test('a first page answered at 89 s, none in range: the nearest stores given up are said, Try again lists them', async () => {
    await withFinderPage(demo, async (page, open) => {
      // The page's clock runs on, and leaps as the test says: the search's 90 s without waiting them.
      await page.clock.install()
      let [answer, nearest] = [() => {}, 0]
      const late = new Promise<void>((done) => (answer = done))
      await page.route(
        (url) => url.searchParams.get('near') === 'Inverness, United Kingdom' && !beyond(url),
        (route) => late.then(() => route.continue()),
      )
      await page.route(beyond, (route) => (nearest++ === 0 ? never() : route.continue()))
      await open()
      await searchFor(page, 'Inverness, United Kingdom')
      await page.getByRole('status').filter({ hasText: STALLED }).waitFor()
      await page.clock.fastForward(86_000)
      const asked = page.waitForRequest((request) => beyond(new URL(request.url())))
      answer()
      await asked
      await page.clock.fastForward(2_000)
      const alert = page.locator('.sl-root > .sl-error')
      await alert.filter({ hasText: 'The nearest stores could not be loaded.' }).waitFor()
      expect(await page.getByRole('status').textContent()).toMatch(
        /^No stores within .* of Inverness, United Kingdom\./,
      )
      await alert.getByRole('button', { name: 'Try again' }).click()
      await page
        .getByRole('status')
        .filter({ hasText: /\. The nearest stores:$/ })
        .waitFor()
      expect(await page.locator('.sl-item').count()).toBe(3)
      expect(await alert.textContent()).toBe('')
    })
  })

  test('a first page answered late, none in range: Searching… read once; the nearest stores answered at once, no busy text', async () => {
    await withFinderPage(demo, async (page, open) => {
      let answer = () => {}
      const late = new Promise<void>((done) => (answer = done))
      await page.route(
        (url) => url.searchParams.get('near') === 'Inverness, United Kingdom' && !beyond(url),
        (route) => late.then(() => route.continue()),
      )
      await open()
      await page.locator('.sl-filter-slot').waitFor({ state: 'attached' })
      await page.getByRole('status').evaluate(readOut)
      await searchFor(page, 'Inverness, United Kingdom')
      await saying(page, STALLED)
      answer()
      await saying(page, /\. The nearest stores:$/)
      // The count answered the visitor: the nearest stores' own wait starts then, not 3 s before.
      expect((await heard(page)).filter((said) => said.includes(STALLED))).toEqual([STALLED])
      // The busy text over, the count in its place: "Searching…" is not said again in between.
      expect((await heard(page)).filter((said) => said === 'Searching…')).toEqual(['Searching…'])
    })
  })

  test('the nearest stores unanswered a while, then the words asked of every store: still waiting read out once', async () => {
    await withFinderPage(demo, async (page, open) => {
      let answer = () => {}
      const late = new Promise<void>((done) => (answer = done))
      await page.route(beyond, (route) => late.then(() => route.continue()))
      await open()
      await page.locator('.sl-filter-slot').waitFor({ state: 'attached' })
      await page.getByRole('status').evaluate(readOut)
      await page.getByRole('searchbox', { name: 'Name, product or service' }).fill('zzqx')
      await searchFor(page, 'Inverness, United Kingdom')
      await saying(page, STALLED)
      const anywhere = page.waitForRequest((request) => new URL(request.url()).searchParams.get('all') === 'true')
      answer()
      // The second request of the same wait, asked past its 3 s: the words said stay, not said again.
      await anywhere
      await saying(page, 'No store matches “zzqx”. Try other words.')
      expect((await heard(page)).filter((said) => said.includes(STALLED))).toHaveLength(1)
    })
  })

  test('the nearest stores failed, then Back to no search: their failure goes with that search, nothing asked', async () => {
    await withFinderPage(demo, async (page, open) => {
      let nearest = 0
      await page.route(beyond, (route) => (nearest++, route.abort()))
      await open()
      await searchFor(page, 'Inverness, United Kingdom')
      const alert = page.locator('.sl-root > .sl-error')
      await alert.filter({ hasText: 'The nearest stores could not be loaded.' }).waitFor()
      await page.goBack()
      await saying(page, PROMPT)
      expect(await alert.textContent()).toBe('')
      expect(nearest).toBe(1)
    })
  })
})
