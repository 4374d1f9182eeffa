// Back on a phone with the map shown alone ("Show map"), in a real browser against the demo data:
// Back shows the list again, where the visitor left it, before it leaves the search; leaving the
// map by its button or a pin leaves no step of it for Back to take, nor does one that would change
// nothing in sight, the phone turned on its side. A filter set on the map stays when Back shows
// the list. Opened again at that step (a reload), the page shows the map alone again.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { aTurnLater, chromiumPath, heldUntilReleased, newPage } from './browser'
import { searchFinder, searchIn } from './finder-page'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

/** The finder page, London searched: its list in sight. */
async function searched(): Promise<Page> {
  const page = await newPage(demo.browser, PHONE)
  await searchFinder(page, demo.server)
  await page.locator('.sl-pin').first().waitFor()
  return page
}

/** Runs `body` on the page `open` gives (London searched), closed after it. */
async function withSearched(body: (page: Page) => Promise<void>, open = searched): Promise<void> {
  const page = await open()
  try {
    await body(page)
  } finally {
    await page.close()
  }
}

const mapAlone = (page: Page) => page.locator('.sl-results').waitFor({ state: 'hidden' })
const listAgain = (page: Page) => page.locator('.sl-results').waitFor({ state: 'visible' })
const scrolled = (page: Page) => page.evaluate<number>('Math.round(scrollY)')
const ticked = (page: Page) => page.locator('.sl-chip input:checked').count()
/** The map shown alone, its filters open; resolves with the status line as it was, every store's count. */
async function filtersOnMap(page: Page): Promise<string> {
  const all = (await page.locator('.sl-status').textContent())!
  await page.getByRole('button', { name: 'Show map' }).tap()
  await mapAlone(page)
  await page.locator('.sl-filters-summary').tap()
  return all
}
/** The status line once it counts stores other than `all`'s: a filter's answer. */
const filtered = (page: Page, all: string) =>
  page
    .locator('.sl-status')
    .filter({ hasText: /^\d+ stores/, hasNotText: all })
    .waitFor()
/** Before any search: the prompt, and the address without one. */
async function beforeSearch(page: Page) {
  await page.locator('.sl-status').filter({ hasText: 'Type a town or postcode' }).waitFor()
  expect(new URL(page.url()).search).toBe('')
}

describe.skipIf(chromiumPath === null)('Back with the map shown alone on a phone, in Chromium', () => {
  test('Back shows the list where it was left, Forward the map; Back again leaves the search', () =>
    withSearched(async (page) => {
      const address = page.url()
      await page.evaluate('scrollBy(0, 1500)')
      const left = await scrolled(page)
      await page.getByRole('button', { name: 'Show map' }).tap()
      await mapAlone(page)
      await page.goBack()
      await listAgain(page)
      expect(page.url()).toBe(address)
      expect(await page.locator('.sl-status').textContent()).toMatch(/stores within .* of London/)
      expect(await page.getByRole('button', { name: 'Show map' }).isVisible()).toBe(true)
      expect(Math.abs((await scrolled(page)) - left)).toBeLessThan(5)
      await page.goForward()
      await mapAlone(page)
      expect(await page.getByRole('button', { name: 'Show list' }).isVisible()).toBe(true)
      await page.goBack()
      await listAgain(page)
      await page.goBack()
      await beforeSearch(page)
    }))

  test('the list shown again by its button: Back leaves the search at once', () =>
    withSearched(async (page) => {
      await page.getByRole('button', { name: 'Show map' }).tap()
      await mapAlone(page)
      await page.getByRole('button', { name: 'Show list' }).tap()
      await listAgain(page)
      await page.goBack()
      await beforeSearch(page)
    }))

  test('"Show list" pressed twice in one go steps back once: the search stays', () =>
    withSearched(async (page) => {
      const address = page.url()
      await page.getByRole('button', { name: 'Show map' }).tap()
      await mapAlone(page)
      await page.evaluate(`{
        const button = document.querySelector('.sl-view')
        button.click()
        button.click()
      }`)
      await listAgain(page)
      await aTurnLater(page) // a second step back, had one been taken, has landed by then
      expect(page.url()).toBe(address)
      await page.goBack()
      await beforeSearch(page)
    }))

  test("a pin pressed: its store at the screen's top, picked in the address; Back leaves the search", () =>
    withSearched(async (page) => {
      await page.getByRole('button', { name: 'Show map' }).tap()
      await mapAlone(page)
      const name = await page.locator('.sl-item').nth(1).locator('.sl-name').textContent()
      await page.locator('.sl-pin').nth(1).tap()
      await listAgain(page)
      const picked = page.locator('.sl-item.sl-selected .sl-name')
      expect(await picked.textContent()).toBe(name)
      await page.waitForFunction(() => {
        const { document } = globalThis as unknown as {
          document: { querySelector: (s: string) => { getBoundingClientRect: () => { top: number } } }
        }
        const top = document.querySelector('.sl-item.sl-selected').getBoundingClientRect().top
        return top > -2 && top < 60
      })
      expect(new URL(page.url()).searchParams.get('sl_store')).toMatch(/^loc_/)
      await page.goBack()
      await beforeSearch(page)
    }))

  test('turned on its side with the map shown alone, list and map side by side: Back leaves the search', () =>
    withSearched(async (page) => {
      await page.getByRole('button', { name: 'Show map' }).tap()
      await mapAlone(page)
      await page.setViewportSize({ width: 844, height: 390 })
      await listAgain(page)
      // The map's step would change nothing in sight: Back goes on to the search before.
      await page.goBack()
      await beforeSearch(page)
    }))

  test('a pin pressed, Forward to the map, turned on its side: Back leaves the search', () =>
    withSearched(async (page) => {
      await page.getByRole('button', { name: 'Show map' }).tap()
      await mapAlone(page)
      await page.locator('.sl-pin').nth(1).tap()
      await listAgain(page)
      // The map's entry holds the store picked, its address no longer the one it was shown at.
      await page.goForward()
      await mapAlone(page)
      await page.setViewportSize({ width: 844, height: 390 })
      await listAgain(page)
      await page.goBack()
      await beforeSearch(page)
    }))

  test('a filter ticked on the map shown alone: Back shows the list with it, Back again without it', () =>
    withSearched(async (page) => {
      const all = await filtersOnMap(page)
      await page.locator('.sl-chip', { hasText: 'E-bikes' }).tap()
      const status = page.locator('.sl-status')
      await filtered(page, all)
      const some = await status.textContent()
      await page.goBack()
      await listAgain(page)
      expect(await status.textContent()).toBe(some)
      expect(await ticked(page)).toBe(1)
      expect(new URL(page.url()).searchParams.get('sl_tags')).toBe('e-bikes')
      await page.goBack()
      await status.filter({ hasText: all }).waitFor()
      expect(await ticked(page)).toBe(0)
      expect(await page.locator('.sl-results').isVisible()).toBe(true)
    }))

  test('a filter ticked on the map, Back before its stores come: Back again returns to the search before', () =>
    withSearched(async (page) => {
      const all = await filtersOnMap(page)
      const release = await heldUntilReleased(page, '**/locations?*e-bikes*')
      const asked = page.waitForRequest((r) => r.url().includes('e-bikes'))
      await page.locator('.sl-chip', { hasText: 'E-bikes' }).tap()
      await asked
      await page.goBack()
      await listAgain(page)
      release()
      const status = page.locator('.sl-status')
      await filtered(page, all)
      expect(await ticked(page)).toBe(1)
      await page.goBack()
      await status.filter({ hasText: all }).waitFor()
      expect(await ticked(page)).toBe(0)
    }))

  test('a filter ticked on the map, then Show list: Back undoes the filter, and the map does not come back', () =>
    withSearched(async (page) => {
      const all = await filtersOnMap(page)
      await page.locator('.sl-chip', { hasText: 'E-bikes' }).tap()
      await filtered(page, all)
      // The button floats at the screen's foot while the map is in sight: pressed where it is.
      await page.locator('.sl-view').dispatchEvent('click')
      await listAgain(page)
      await page.goBack()
      await page.locator('.sl-status').filter({ hasText: all }).waitFor()
      expect(await ticked(page)).toBe(0)
      expect(await page.locator('.sl-results').isVisible()).toBe(true)
      await page.goBack()
      await beforeSearch(page)
    }))

  test('a link to a part of the page followed with the map shown alone: the map stays, Back to its entry too', () =>
    withSearched(async (page) => {
      await page.evaluate(
        `document.body.insertAdjacentHTML('beforeend', '<a id="to-x" href="#x">Part</a><p id="x">Part</p>')`,
      )
      await page.getByRole('button', { name: 'Show map' }).tap()
      await mapAlone(page)
      const map = page.url()
      // The link's entry is the page's (no state): hashchange comes after its popstate.
      await page.evaluate(
        `new Promise((done) => { addEventListener('hashchange', done, { once: true }); document.getElementById('to-x').click() })`,
      )
      await aTurnLater(page)
      expect(page.url()).toBe(`${map}#x`)
      expect(await page.locator('.sl-results').isVisible()).toBe(false)
      await page.goBack()
      await page.waitForURL(map)
      await aTurnLater(page)
      expect(await page.locator('.sl-results').isVisible()).toBe(false)
      await page.goBack()
      await listAgain(page)
    }))

  test('a postcode typed on the map alone over the place shown, Back while it waits: the list, the search with it', () =>
    withSearched(async (page) => {
      await page.getByRole('button', { name: 'Show map' }).tap()
      await mapAlone(page)
      const box = page.getByRole('combobox', { name: 'Town or postcode' })
      await box.fill('Berl')
      await page.locator('.sl-place [role=option]').filter({ hasText: 'Berlin, Germany' }).first().click()
      await page.locator('.sl-status').filter({ hasText: 'of Berlin, Germany' }).waitFor()
      const release = await heldUntilReleased(page, '**/locations?*near=75001*')
      await box.fill('75001')
      await box.press('Enter')
      await page.locator('.sl-status').filter({ hasText: 'Searching…' }).waitFor()
      // As from the map alone with any search made there: Back shows the list, the search under it.
      await page.goBack()
      await listAgain(page)
      release()
      await page.locator('.sl-status').filter({ hasText: 'of 75001' }).waitFor()
      await page.goBack()
      await page.locator('.sl-status').filter({ hasText: 'of London' }).waitFor()
    }))

  test('the page reloaded with the map shown alone shows it alone again; Back shows the list', () =>
    withSearched(async (page) => {
      await page.getByRole('button', { name: 'Show map' }).tap()
      await mapAlone(page)
      await page.reload()
      await page.locator('.sl-pin').first().waitFor()
      await mapAlone(page)
      expect(await page.getByRole('button', { name: 'Show list' }).isVisible()).toBe(true)
      await page.goBack()
      await listAgain(page)
      expect(await page.locator('.sl-status').textContent()).toMatch(/stores within .* of London/)
    }))

  /** Turned on its side at the map shown alone, Back, then Forward: the map's step again, as Back left it. */
  async function sideBackForward(page: Page) {
    const address = page.url()
    await page.getByRole('button', { name: 'Show map' }).tap()
    await mapAlone(page)
    await page.setViewportSize({ width: 844, height: 390 })
    await listAgain(page)
    await page.goBack()
    await beforeSearch(page)
    // The list's step and the map's show the same side by side: Forward goes on to the map's.
    await page.goForward()
    await page
      .locator('.sl-status')
      .filter({ hasText: /stores within .* of London/ })
      .waitFor()
    expect(page.url()).toBe(address)
    await page.setViewportSize(PHONE.viewport)
    await mapAlone(page)
    await page.goBack()
    await listAgain(page)
    expect(await page.locator('.sl-status').textContent()).toMatch(/stores within .* of London/)
  }

  test("turned on its side at the map shown alone, Back then Forward: the map's step again, as Back left it", () =>
    withSearched(sideBackForward))

  // The finder stepped Back from the list itself: the entry after it is still the map's.
  test("without the Navigation API, turned on its side at the map shown alone, Back then Forward: the map's step", () =>
    withSearched(sideBackForward, searchedWithoutNavigation))

  // Every step seen by the finder since its own Back from the list: the map's entry is still after it.
  test("without the Navigation API, side by side, Back, Back, Forward, Forward: the map's step again", () =>
    withSearched(async (page) => {
      await searchIn(page, '.sl-root', 'Manchester')
      const address = page.url()
      await page.getByRole('button', { name: 'Show map' }).tap()
      await mapAlone(page)
      await page.setViewportSize({ width: 844, height: 390 })
      await listAgain(page)
      await page.goBack()
      await page.locator('.sl-status').filter({ hasText: 'of London' }).waitFor()
      await page.goBack()
      await beforeSearch(page)
      await page.goForward()
      await page.locator('.sl-status').filter({ hasText: 'of London' }).waitFor()
      await page.goForward()
      await page.locator('.sl-status').filter({ hasText: 'of Manchester' }).waitFor()
      expect(page.url()).toBe(address)
      await page.setViewportSize(PHONE.viewport)
      await mapAlone(page)
    }, searchedWithoutNavigation))

  /**
   * Show map, Show list, `over` taking the map's entry's place (a router's entry, another page),
   * Back twice, turned on its side, Forward: the list's entry, under no map's now, is where it stops.
   */
  async function forwardUnder(page: Page, over: () => Promise<unknown>) {
    const address = page.url()
    await page.getByRole('button', { name: 'Show map' }).tap()
    await mapAlone(page)
    await page.getByRole('button', { name: 'Show list' }).tap()
    await listAgain(page)
    await page.waitForURL(address)
    await over()
    await page.goBack()
    await page.locator('.sl-pin').first().waitFor()
    await page.goBack()
    await beforeSearch(page)
    await page.setViewportSize({ width: 844, height: 390 })
    await page.goForward()
    await aTurnLater(page)
    expect(page.url()).toBe(address)
    expect(await page.evaluate('history.state?.route')).toBeUndefined()
  }
  const routerPush = (page: Page) => () => page.evaluate("history.pushState({ route: 'about' }, '', '/about')")

  test("Show list, a router's entry pushed over the list's, Back twice, turned on its side: Forward stops at the list", () =>
    withSearched(async (page) => {
      await forwardUnder(page, routerPush(page))
    }))

  /** The finder page, London searched, in a browser without the Navigation API (Safari, Firefox). */
  async function searchedWithoutNavigation(): Promise<Page> {
    const page = await newPage(demo.browser, PHONE)
    await page.addInitScript('delete window.navigation')
    await searchFinder(page, demo.server)
    await page.locator('.sl-pin').first().waitFor()
    expect(await page.evaluate("'navigation' in window")).toBe(false)
    return page
  }

  test("without the Navigation API, a router's entry pushed over the list's: Forward stops at the list", () =>
    withSearched(async (page) => {
      await forwardUnder(page, routerPush(page))
    }, searchedWithoutNavigation))

  test("without the Navigation API, another page opened over the list's: Forward stops at the list", () =>
    withSearched(async (page) => {
      await forwardUnder(page, () => page.goto(`${demo.server.url}/`))
    }, searchedWithoutNavigation))

  /**
   * Show map, Show list, the list's fragment replaced by `fragment` (if one), `push` a router's
   * route over the list's entry, Back past the list in one
   * step (the finder sees no step from the route to it), turned on its side, Forward: the list's
   * entry, not known to be under its map now, is where it stops.
   */
  async function pastList(page: Page, push: string, fragment = '') {
    let address = page.url()
    await page.getByRole('button', { name: 'Show map' }).tap()
    await mapAlone(page)
    await page.getByRole('button', { name: 'Show list' }).tap()
    await listAgain(page)
    await page.waitForURL(address)
    if (fragment) {
      await page.evaluate(`history.replaceState(history.state, '', '${fragment}')`)
      address = page.url()
    }
    await page.evaluate(`history.pushState({ route: 'about' }, '', '${push}')`)
    await page.evaluate('history.go(-2)')
    await beforeSearch(page)
    await page.setViewportSize({ width: 844, height: 390 })
    // Forward restores the list's search; its answer comes wherever Forward ends.
    const answered = page.waitForResponse((r) => r.url().includes('/locations?'))
    await page.goForward()
    await answered
    await page
      .locator('.sl-status')
      .filter({ hasText: /stores within .* of London/ })
      .waitFor()
    await aTurnLater(page)
    expect(page.url()).toBe(address)
    expect(await page.evaluate('history.state?.route')).toBeUndefined()
  }

  test("without the Navigation API, Back past the list in one step, then Forward: it stops at the list, not the router's entry", () =>
    withSearched((page) => pastList(page, '/about'), searchedWithoutNavigation))

  // The route is at the list's address but for its fragment: the entry after the list is not its map's.
  test("a hash router's route pushed over the list's, Back past the list in one step, Forward: it stops at the list", () =>
    withSearched((page) => pastList(page, '#/about')))

  // Its fragment is all after the first '#': #stores#/about is not the list's #stores.
  test("a hash router's route after the list's own fragment, Back past the list in one step, Forward: it stops at the list", () =>
    withSearched((page) => pastList(page, '#stores#/about', '#stores')))

  test('Show list, a store picked in the list, Back, turned on its side: Forward goes on to the map', () =>
    withSearched(async (page) => {
      await page.getByRole('button', { name: 'Show map' }).tap()
      await mapAlone(page)
      await page.getByRole('button', { name: 'Show list' }).tap()
      await listAgain(page)
      // Picked in the list's entry alone: the map's address is the search's without it.
      await page.locator('.sl-item .sl-name').nth(1).tap()
      await page.waitForURL(/sl_store=/)
      await page.goBack()
      await beforeSearch(page)
      await page.setViewportSize({ width: 844, height: 390 })
      await page.goForward()
      await page.waitForURL((u) => u.searchParams.has('sl_place') && !u.searchParams.has('sl_store'))
      await page.setViewportSize(PHONE.viewport)
      await mapAlone(page)
    }))

  test("Show list, the list's fragment replaced by the page, Back, turned on its side: Forward goes on to the map", () =>
    withSearched(async (page) => {
      const address = page.url()
      await page.getByRole('button', { name: 'Show map' }).tap()
      await mapAlone(page)
      await page.getByRole('button', { name: 'Show list' }).tap()
      await listAgain(page)
      await page.waitForURL(address)
      // The page marks the part in sight in its address, as a router or a scrolling menu does.
      await page.evaluate("history.replaceState(history.state, '', '#stores')")
      await page.goBack()
      await beforeSearch(page)
      await page.setViewportSize({ width: 844, height: 390 })
      await page.goForward()
      // The map's entry, at the list's address but for the fragment, is still the next: gone on to.
      await page.waitForURL(address)
      await page.setViewportSize(PHONE.viewport)
      await mapAlone(page)
    }))

  /** A page of two finders, #f with London searched, #g with Leeds; `press` clicks a finder's Show map or Show list. */
  async function twoFinders(page: Page) {
    const host = hostPage(
      `<div id="f" data-storeloc="${demo.server.token}"></div><div id="g" data-storeloc="${demo.server.token}"></div>` +
        `<script src="${demo.server.url}/widget.js"></script>`,
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
    )
    await page.goto(host.url)
    for (const [finder, place] of [
      ['#f', 'London'],
      ['#g', 'Leeds'],
    ] as const) {
      await searchIn(page, finder, place)
    }
    // The button floats while its own list is in sight: pressed where it is, each in turn.
    const press = (finder: string) => page.locator(`${finder} .sl-view`).dispatchEvent('click')
    return { host, press }
  }

  test("two finders: one's map shown after the other's, the first's Show list shows its own list", async () => {
    const page = await newPage(demo.browser, PHONE)
    const { host, press } = await twoFinders(page)
    try {
      await press('#f')
      await press('#g')
      await page.locator('#g .sl-results').waitFor({ state: 'hidden' })
      await press('#f')
      await page.locator('#f .sl-results').waitFor({ state: 'visible' })
      expect(await page.locator('#f .sl-view').textContent()).toBe('Show map')
      expect(await page.locator('#g .sl-results').isVisible()).toBe(false)
      expect(await page.locator('#g .sl-view').textContent()).toBe('Show list')
    } finally {
      host.stop()
      await page.close()
    }
  })

  test("two finders, both maps shown, the first's Show list: Back does not bring its map back", async () => {
    const page = await newPage(demo.browser, PHONE)
    const { host, press } = await twoFinders(page)
    try {
      await press('#f')
      await press('#g')
      await page.locator('#g .sl-results').waitFor({ state: 'hidden' })
      await press('#f')
      await page.locator('#f .sl-results').waitFor({ state: 'visible' })
      await page.evaluate("window.pops = 0; addEventListener('popstate', () => pops++)")
      await page.goBack()
      await page.locator('#g .sl-results').waitFor({ state: 'visible' })
      // The step the first's map was shown in changes nothing in sight now: Back goes on past it.
      await page.waitForFunction('pops === 2')
      expect(await page.locator('#f .sl-results').isVisible()).toBe(true)
      expect(await page.locator('#g .sl-status').textContent()).toMatch(/of Leeds/)
      await page.goBack()
      await page.locator('#g .sl-status').filter({ hasText: 'Type a town or postcode' }).waitFor()
      expect(await page.locator('#f .sl-status').textContent()).toMatch(/of London/)
    } finally {
      host.stop()
      await page.close()
    }
  })

  test("two finders, both maps shown, the first's Show list, the page reloaded: Back does not bring its map back", async () => {
    const page = await newPage(demo.browser, PHONE)
    const { host, press } = await twoFinders(page)
    try {
      await press('#f')
      await press('#g')
      await page.locator('#g .sl-results').waitFor({ state: 'hidden' })
      await press('#f')
      await page.locator('#f .sl-results').waitFor({ state: 'visible' })
      await page.reload()
      await page.locator('#g .sl-results').waitFor({ state: 'hidden' })
      await page
        .locator('#f .sl-status')
        .filter({ hasText: /of London/ })
        .waitFor()
      await page.evaluate("window.pops = 0; addEventListener('popstate', () => pops++)")
      await page.goBack()
      await page.locator('#g .sl-results').waitFor({ state: 'visible' })
      // As before the reload: the step the first's map was shown in is passed.
      await page.waitForFunction('pops === 2')
      expect(await page.locator('#f .sl-results').isVisible()).toBe(true)
    } finally {
      host.stop()
      await page.close()
    }
  })
})
