// The finder while the service starts, in a real browser against a real server with the demo
// data: its Query API answers 503 with Retry-After (starting, or its place data being read) and the
// finder asks again after that wait (its search, filters, place suggestions and the nearest stores
// beyond the radius), searching meanwhile, with no error said; a newer search, or Escape in the
// place box, wins; no other failure (a 400, a 503 with an empty Retry-After) is asked again; the
// waits leave no listener behind.
import { describe, expect, test } from 'bun:test'
import {
  abortListeners,
  chromiumPath,
  networkSettled,
  newPage,
  starting,
  startingFirst,
  watchRequests,
} from './browser'
import { hostPage, useDemoBrowser } from './server'
import { beyond, searchFor, withFinderPage, withUnitlessPage } from './waiting-finder'

const demo = useDemoBrowser()

/** The place a GET /locations searches near (its near=), for the requests the page sends. */
const nearOf = (url: string) => new URL(url).searchParams.get('near')

/** Inverness: no demo store within the locator's radius, the nearest (Fort William) about 90 km away. */
const INVERNESS = 'Inverness, United Kingdom'

describe.skipIf(chromiumPath === null)('the finder while the service starts, in Chromium', () => {
  test('a search answered 503 with Retry-After twice: asked again, searching meanwhile, then its stores', async () => {
    await withFinderPage(demo, async (page, open) => {
      let refused = 0
      await page.route('**/locations?*', (route) => (refused++ < 2 ? starting(route) : route.continue()))
      await open()
      const second = page.waitForResponse((r) => r.url().includes('/locations?') && refused === 2)
      await searchFor(page, 'London')
      await (await second).finished()
      // Between the second refusal and the answer: still searching, nothing said failed.
      expect(await page.locator('.sl-status').textContent()).toBe('Searching…')
      await page.locator('.sl-item').first().waitFor()
      expect(refused).toBe(3)
      expect(await page.locator('.sl-root > .sl-error').textContent()).toBe('')
    })
  })

  test('a search waiting for the service a few seconds: the status line says it is busy and tries again, then its stores', async () => {
    await withFinderPage(demo, async (page, open) => {
      let ready = false
      await page.route('**/locations?*', (route) => (ready ? route.continue() : starting(route)))
      await open()
      await searchFor(page, 'London')
      const status = page.getByRole('status').filter({ hasText: 'The store finder is busy just now. Trying again…' })
      await status.waitFor()
      expect(await page.locator('.sl-root > .sl-error').textContent()).toBe('')
      ready = true
      await page.locator('.sl-item').first().waitFor()
      expect(await page.locator('.sl-status').textContent()).toMatch(/ stores within .* of London/)
    })
  })

  test('a search typed while one waits for the service wins: the one waiting is not asked again', async () => {
    await withFinderPage(demo, async (page, open) => {
      const asked: string[] = []
      await page.route('**/locations?*', (route) => {
        const near = nearOf(route.request().url()) ?? ''
        asked.push(near)
        return near === 'London' ? starting(route) : route.continue()
      })
      await open()
      let londons = 0
      const again = page.waitForRequest((r) => nearOf(r.url()) === 'London' && ++londons === 2)
      await searchFor(page, 'London')
      await again // London asked again after its wait
      await searchFor(page, 'Manchester')
      await page.locator('.sl-status', { hasText: 'Manchester' }).waitFor()
      const asks = asked.filter((n) => n === 'London').length
      // Longer than London's Retry-After: a wait not ended would ask it again by now.
      await page.waitForTimeout(2500)
      expect(asked.filter((n) => n === 'London').length).toBe(asks)
      expect(await page.locator('.sl-status').textContent()).toContain('Manchester')
      expect(await page.locator('.sl-item').count()).toBeGreaterThan(0)
    })
  })

  test('a 400, even with Retry-After, is not asked again: its error is said at once', async () => {
    await withFinderPage(demo, async (page, open) => {
      let asked = 0
      await page.route('**/locations?*', (route) => {
        asked++
        return route.fulfill({
          status: 400,
          headers: { 'content-type': 'application/json', 'retry-after': '1' },
          body: JSON.stringify({ success: false, error: { code: 'INVALID_PARAMETER', message: 'Bad.' } }),
        })
      })
      await open()
      await searchFor(page, 'London')
      const alert = page.locator('.sl-root > .sl-error')
      await alert.filter({ hasText: 'The stores could not be loaded.' }).waitFor()
      // Longer than the Retry-After: a 400 asked again would be by now.
      await page.waitForTimeout(2500)
      expect(asked).toBe(1)
      expect(await alert.textContent()).toBe('The stores could not be loaded. Try again')
    })
  })

  test('a 503 whose Retry-After is empty names no wait: not asked again, its error said at once', async () => {
    await withFinderPage(demo, async (page, open) => {
      let asked = 0
      await page.route('**/locations?*', (route) => {
        asked++
        return route.fulfill({
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': '' },
          body: JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message: 'Unavailable.' } }),
        })
      })
      await open()
      const refused = page.waitForResponse((r) => r.url().includes('/locations?'))
      await searchFor(page, 'London')
      expect((await refused).headers()['retry-after']).toBe('')
      // Longer than the shortest wait (1 s) twice over: an empty value taken as 0 asks again by now.
      await page.waitForTimeout(2500)
      expect(asked).toBe(1)
      expect(await page.locator('.sl-root > .sl-error').textContent()).toBe('The stores could not be loaded. Try again')
    })
  })

  test("a 503 with Retry-After: 0 (a proxy's) is asked again a second later at the soonest, not at once", async () => {
    await withFinderPage(demo, async (page, open) => {
      const asked: number[] = []
      const { promise: thrice, resolve } = Promise.withResolvers<void>()
      await page.route('**/locations?*', (route) => {
        if (asked.push(Date.now()) === 3) resolve()
        return route.fulfill({
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': '0' },
          body: JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message: 'Unavailable.' } }),
        })
      })
      await open()
      await searchFor(page, 'London')
      await thrice
      // Each ask after the wait before it: a second at least (the route sees each ask late, if anything).
      for (const [i, at] of asked.slice(1, 3).entries()) expect(at - asked[i]!).toBeGreaterThanOrEqual(900)
    })
  })

  test('a 503 whose Retry-After is a date already past is asked again a second later, then its stores', async () => {
    await withFinderPage(demo, async (page, open) => {
      const asked: number[] = []
      await page.route('**/locations?*', (route) => {
        if (asked.push(Date.now()) > 1) return route.continue()
        return route.fulfill({
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': new Date(Date.now() - 60_000).toUTCString() },
          body: JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message: 'Unavailable.' } }),
        })
      })
      await open()
      await searchFor(page, 'London')
      await page.locator('.sl-item').first().waitFor()
      // A date past is no wait, taken as the shortest (1 s), as Retry-After: 0 is.
      expect(asked[1]! - asked[0]!).toBeGreaterThanOrEqual(900)
      expect(await page.locator('.sl-root > .sl-error').textContent()).toBe('')
    })
  })

  test('a search made once the filters it waits on were refused a while says at once the service is busy', async () => {
    await withUnitlessPage(demo, async (page, open) => {
      let [asked, ready] = [0, false]
      const { promise: refusedLong, resolve } = Promise.withResolvers<void>()
      await page.route('**/filters*', (route) => {
        // The fifth ask comes after four waits of 1 s: the filters' own busy text was due before any search.
        if (++asked === 5) resolve()
        return ready ? route.continue() : starting(route)
      })
      await open()
      await refusedLong
      expect(await page.getByRole('status').textContent()).not.toContain('busy')
      await searchFor(page, 'London')
      // Long before the filters' 90 s: the search waits on them (no unit yet), as long as the service is busy.
      await page
        .getByRole('status')
        .filter({ hasText: 'The store finder is busy just now. Trying again…' })
        .waitFor({ timeout: 10_000 })
      ready = true
      await page.locator('.sl-item').first().waitFor()
      expect(await page.locator('.sl-status').textContent()).toMatch(/ stores within .* of London/)
    })
  })

  test('the busy text in Italian, Dutch and French reads as those languages say it', async () => {
    const busy = async (lang: string) => {
      const { url, stop } = hostPage(
        `<div data-storeloc="${demo.server.token}" data-lang="${lang}" data-map="off"></div><script src="${demo.server.url}/widget.js"></script>`,
      )
      const page = await newPage(demo.browser)
      // From another site: its Retry-After read as the service's own 503 lets it be
      // (starting-answers.ts).
      const headers = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'retry-after' }
      await page.route('**/locations?*', (route) =>
        route.fulfill({ status: 503, headers: { ...headers, 'content-type': 'application/json', 'retry-after': '1' } }),
      )
      try {
        await page.goto(url)
        await page.locator('.sl-place input').fill('London')
        await page.locator('.sl-place input').press('Enter')
        // Past "Searching…" (one sentence): the busy text, two.
        const said = page.getByRole('status').filter({ hasText: /\. .*…$/ })
        await said.waitFor()
        return await said.textContent()
      } finally {
        stop()
        await page.unrouteAll({ behavior: 'ignoreErrors' })
        await page.close()
      }
    }
    // A service overloaded, not engaged ("occupata", "bezet": a phone line's), and the set phrase for a new try.
    expect(await busy('it')).toBe('La ricerca negozi è sovraccarica in questo momento. Nuovo tentativo in corso…')
    expect(await busy('nl')).toBe('De winkelzoeker is nu erg druk. We proberen het opnieuw…')
    expect(await busy('fr')).toBe(
      'La recherche de magasins est très sollicitée en ce moment. Nouvelle tentative en cours…',
    )
  })

  test('the filters answered 503 with Retry-After at first: asked again and shown, no failure said', async () => {
    await withFinderPage(demo, async (page, open) => {
      let refused = 0
      await page.route('**/filters*', (route) => (refused++ < 2 ? starting(route) : route.continue()))
      await open()
      await page.locator('.sl-filters-box').waitFor()
      expect(refused).toBe(3)
      expect(await page.locator('.sl-filter-slot [role="alert"]').count()).toBe(0)
    })
  })

  test('no unit on the page, its filters answered 503 at first: the prompt, or "Searching…" then busy, as it shows', async () => {
    await withUnitlessPage(demo, async (page) => {
      let ready = false
      await page.route('**/filters*', (route) => (ready ? route.continue() : starting(route)))
      const status = page.locator('.sl-status')
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      await page.locator('.sl-place input').waitFor()
      expect(await status.textContent()).toMatch(/^Type a town or postcode/)
      // A place in the address: searched in the locator's unit, once known.
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=London`)
      await page.locator('.sl-place input').waitFor()
      expect(await status.textContent()).toBe('Searching…')
      await status.filter({ hasText: 'The store finder is busy just now. Trying again…' }).waitFor()
      ready = true
      await page.locator('.sl-item').first().waitFor()
      expect(await status.textContent()).toMatch(/ stores within .* of London/)
    })
  })

  test('place suggestions answered 503 with Retry-After twice: asked again, then listed', async () => {
    await withFinderPage(demo, async (page, open) => {
      const places = await startingFirst(page, '**/places?*')
      await open()
      await page.getByRole('combobox', { name: 'Town or postcode' }).fill('Lond')
      await page.getByRole('option', { name: 'London, United Kingdom' }).waitFor()
      expect(places.refused()).toBe(2)
    })
  })

  test('Escape pressed while the first suggestions wait for the service: none opens after it', async () => {
    await withFinderPage(demo, async (page, open) => {
      await startingFirst(page, '**/places?*', 1)
      let asks = 0
      page.on('request', (r) => void (r.url().includes('/places?') && asks++))
      await open()
      const box = page.getByRole('combobox', { name: 'Town or postcode' })
      const refused = page.waitForResponse((r) => r.url().includes('/places?') && r.status() === 503)
      await box.fill('Lond')
      await refused
      await page.keyboard.press('Escape')
      // Longer than the Retry-After: a wait not ended would have asked again, and its list opened.
      await page.waitForTimeout(2500)
      expect(asks).toBe(1)
      expect(await box.getAttribute('aria-expanded')).toBe('false')
      expect(await page.locator('.sl-suggestion').count()).toBe(0)
      expect(await box.inputValue()).toBe('Lond')
    })
  })

  test('the nearest stores beyond the radius answered 503 with Retry-After twice: asked again, then listed', async () => {
    await withFinderPage(demo, async (page, open) => {
      const nearest = await startingFirst(page, beyond)
      await open()
      await searchFor(page, INVERNESS)
      await page.getByText(/^No stores within .* of Inverness, United Kingdom\. The nearest stores:$/).waitFor()
      expect(await page.locator('.sl-item').count()).toBe(3)
      expect(nearest.refused()).toBe(2)
      expect(await page.locator('.sl-root > .sl-error').textContent()).toBe('')
    })
  })

  test('a search made while the nearest beyond the radius wait for the service wins: they are not asked again', async () => {
    await withFinderPage(demo, async (page, open) => {
      let asked = 0
      await page.route(beyond, (route) => (asked++, starting(route)))
      await open()
      const again = page.waitForRequest((r) => beyond(new URL(r.url())) && asked === 2)
      await searchFor(page, INVERNESS)
      await again
      await searchFor(page, 'Manchester')
      await page.locator('.sl-status', { hasText: 'Manchester' }).waitFor()
      const asks = asked
      // Longer than the Retry-After: a wait not ended would ask again by now.
      await page.waitForTimeout(2500)
      expect(asked).toBe(asks)
      expect(await page.locator('.sl-item').count()).toBeGreaterThan(0)
    })
  })

  test("a search's waits for the service leave no listener on its signal once answered", async () => {
    await withFinderPage(demo, async (page, open) => {
      watchRequests(page)
      await open()
      await page.locator('.sl-filters-box').waitFor()
      // Counted once the page's first requests are read whole: a body still read listens too.
      await networkSettled(page)
      const before = await abortListeners(page)
      const stores = await startingFirst(page, '**/locations?*', 3)
      await searchFor(page, 'London')
      await page.locator('.sl-item').first().waitFor()
      expect(stores.refused()).toBe(3)
      // At most as many: a signal of the page's first requests may be let go meanwhile; a wait's leak adds one.
      expect(await abortListeners(page)).toBeLessThanOrEqual(before)
    })
  })
})
