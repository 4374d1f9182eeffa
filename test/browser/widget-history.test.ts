// The finder and the browser's history, in a real browser against the demo: each search the
// visitor commits is an entry, so Back and Forward go through them; typing, a store picked and
// the answer's details add none; a router's own entries are left to it.
import { describe, expect, test } from 'bun:test'
import type { Page, Route } from 'playwright-core'
import {
  aTurnLater,
  chromiumPath,
  heldUntilReleased,
  networkSettled,
  newPage,
  requestsOf,
  sentNow,
  watchRequests,
} from './browser'
import { hostPage, useDemoBrowser } from './server'
import { searchIn } from './finder-page'

const demo = useDemoBrowser()

/** A page with a finder in #f (`attrs` added), opened at `query`, and the service's /locations requests as they go. */
async function finderPage(attrs = '', body = '', query = '') {
  const host = hostPage(
    `<div id="f" data-storeloc="${demo.server.token}" ${attrs}></div>${body}<script src="${demo.server.url}/widget.js"></script>`,
  )
  const page = await newPage(demo.browser, { viewport: { width: 1100, height: 800 } })
  watchRequests(page)
  const errors: string[] = []
  const searches: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('request', (r) => {
    if (r.url().includes('/locations?')) searches.push(r.url())
  })
  await page.goto(host.url + query)
  await page.locator('#f .sl-form').waitFor()
  const close = async () => {
    host.stop()
    await page.close()
  }
  return { page, errors, searches, close }
}

const entries = (page: Page) => page.evaluate<number>('history.length')

/** Types `place` into the place box of `finder` and presses Enter: answered or not. */
async function typeAndEnter(page: Page, finder: string, place: string) {
  await page.locator(`${finder} .sl-place input`).fill(place)
  await page.locator(`${finder} .sl-place input`).press('Enter')
}

/** The service's 503 without Retry-After, readable by the host page: a failure said at once. */
const refused = (route: Route) =>
  route.fulfill({
    status: 503,
    headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' },
    body: JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message: 'Down for a while.' } }),
  })

/**
 * Holds the page's requests that `url` matches, in the order they reach the test, until each is
 * released; `heldCount(n)` resolves once n are held, or fails after 10 s (the pages' actions' wait)
 * naming those held.
 */
async function holding(page: Page, url: string) {
  const held: Route[] = []
  const waiting: (() => void)[] = []
  await page.route(url, (route) => {
    held.push(route)
    for (const check of waiting.splice(0)) check()
  })
  const heldCount = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        const urls = held.map((r) => r.request().url()).join(', ') || 'none'
        reject(new Error(`${held.length} of ${n} requests held after 10 s: ${urls}`))
      }, 10_000)
      const check = () => {
        if (held.length < n) return void waiting.push(check)
        clearTimeout(timer)
        resolve()
      }
      check()
    })
  return { held, heldCount }
}

/** Lets a request held go on; one the page has ended since is left. */
const release = (route: Route) => void route.continue().catch(() => {})

/** A finder's status line and alert. */
const finderOf = (page: Page, finder: string) => ({
  status: page.locator(`${finder} .sl-status`),
  alert: page.locator(`${finder} > .sl-error`),
})

/** What page.waitForFunction's callbacks read (this program is typed without the DOM's types). */
type PageHolder = { document: { querySelector: (s: string) => { value: string } | null } }

/** What #f shows: its status line, its place box and its first store. */
const shown = async (page: Page) => ({
  status: await page.locator('#f .sl-status').textContent(),
  place: await page.locator('#f .sl-place input').inputValue(),
  first: await page.locator('#f .sl-item .sl-name').first().textContent(),
})

describe.skipIf(chromiumPath === null)("the finder and the browser's history, in Chromium", () => {
  test('Back after two searches shows the first again, with its results; Forward the second', async () => {
    const { page, errors, searches, close } = await finderPage()
    try {
      const before = await entries(page)
      await searchIn(page, '#f', 'London')
      const london = { ...(await shown(page)), url: page.url() }
      // The second a place picked among the suggestions.
      await page.locator('#f .sl-place input').fill('Pari')
      await page.locator('#f .sl-place [role=option]').filter({ hasText: 'Paris' }).first().click()
      await page.locator('#f .sl-status').filter({ hasText: 'of Paris' }).waitFor()
      const paris = { ...(await shown(page)), url: page.url() }
      expect(await entries(page)).toBe(before + 2)
      expect(london.first).not.toBe(paris.first)

      const asked = searches.length
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of London' }).waitFor()
      await networkSettled(page)
      expect({ ...(await shown(page)), url: page.url() }).toEqual(london)
      // Taken up from the address as it was: asked once, and no entry written over or added.
      expect(searches.length).toBe(asked + 1)
      expect(await entries(page)).toBe(before + 2)

      await page.goForward()
      await page.locator('#f .sl-status').filter({ hasText: 'of Paris' }).waitFor()
      await networkSettled(page)
      expect({ ...(await shown(page)), url: page.url() }).toEqual(paris)

      // Back to before any search: the page is still the finder's, with nothing searched.
      await page.goBack()
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'Type a town or postcode' }).waitFor()
      expect(new URL(page.url()).search).toBe('')
      expect(await page.locator('#f .sl-place input').inputValue()).toBe('')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('a page opened with a search, then a link to a part of it followed: a store picked is kept in the address', async () => {
    const { page, errors, close } = await finderPage('', '<a id="jump" href="#f">Our stores</a>', '?sl_place=Leeds')
    try {
      await page.locator('#f .sl-item').first().waitFor()
      await page.locator('#jump').click()
      await page.waitForURL((u) => u.hash === '#f')
      const store = page.locator('#f .sl-item .sl-name').nth(2)
      await store.click()
      const name = (await store.textContent()) ?? ''
      const href = await page.evaluate<string>('location.href')
      expect(new URL(href).searchParams.get('sl_store')).not.toBeNull()
      // Reloaded (or the address shared), the finder shows that store picked.
      await page.reload()
      await page.locator('#f .sl-item.sl-selected .sl-name').filter({ hasText: name }).waitFor()
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('typing, a store picked and a burst of filters add no entry; Enter once adds one', async () => {
    const { page, errors, close } = await finderPage('data-place="London"')
    try {
      await page.locator('#f .sl-item').first().waitFor()
      await networkSettled(page)
      const before = await entries(page)
      // Typed letter by letter, suggestions shown, and keywords: nothing searched yet.
      await page.locator('#f .sl-place input').fill('')
      await page.locator('#f .sl-place input').pressSequentially('Manch', { delay: 30 })
      await page.locator('#f .sl-place [role=option]').first().waitFor()
      await page.locator('#f .sl-keyword input').pressSequentially('shop', { delay: 30 })
      await page.locator('#f .sl-item .sl-name').first().click()
      expect(await entries(page)).toBe(before)

      await page.locator('#f .sl-place input').fill('Manchester')
      await page.locator('#f .sl-keyword input').fill('')
      await page.locator('#f .sl-place input').press('Enter')
      await page.locator('#f .sl-status').filter({ hasText: 'of Manchester' }).waitFor()
      expect(await entries(page)).toBe(before + 1)
      // The same search again is no new entry.
      await page.locator('#f .sl-place input').press('Enter')
      await networkSettled(page)
      expect(await entries(page)).toBe(before + 1)

      // Three filters ticked one after another, each once the last one's search is answered (the
      // address holds its filters): one entry, and Back undoes them together.
      const chips = page.locator('#f .sl-chip input[type=checkbox]')
      for (let i = 1; i <= 3; i++) {
        await chips.nth(i - 1).check()
        await page.waitForFunction(
          (n) =>
            new URL((globalThis as unknown as { location: { href: string } }).location.href).searchParams
              .get('sl_tags')
              ?.split(',').length === n,
          i,
        )
      }
      expect(await entries(page)).toBe(before + 2)
      expect(new URL(page.url()).searchParams.get('sl_tags')?.split(',')).toHaveLength(3)
      await page.goBack()
      await page.waitForFunction("!location.search.includes('sl_tags')")
      await page.waitForFunction("document.querySelectorAll('#f .sl-chip input:checked').length === 0")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('a town typed again, answered as the search shown: Back goes to the search before, not to the same one', async () => {
    const { page, errors, close } = await finderPage()
    try {
      await searchIn(page, '#f', 'Leeds')
      await searchIn(page, '#f', 'London')
      const london = { ...(await shown(page)), url: page.url() }
      // Typed as before, answered as "London, United Kingdom" again: the entry pushed as it was asked is that one's.
      await searchIn(page, '#f', 'London')
      await networkSettled(page)
      expect({ ...(await shown(page)), url: page.url() }).toEqual(london)
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of Leeds' }).waitFor()
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('Leeds, United Kingdom')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test("a router's own entries are left to it; a finder that keeps nothing in the address adds none", async () => {
    const { page, errors, searches, close } = await finderPage(
      '',
      `<div id="g" data-storeloc="${demo.server.token}" data-url-state="off"></div>`,
    )
    try {
      await searchIn(page, '#f', 'London')
      await searchIn(page, '#f', 'Paris')
      // The app's router moves to a view of its own, twice, and Back returns to the first of them.
      await page.evaluate(`
        history.pushState({ route: 'list' }, '', '?view=list')
        history.pushState({ route: 'map' }, '', '?view=map')`)
      const asked = searches.length
      await page.goBack()
      expect(new URL(page.url()).search).toBe('?view=list')
      await sentNow(page)
      expect(searches.length).toBe(asked)
      expect(await page.locator('#f .sl-status').textContent()).toContain('of Paris')
      // Back to the finder's own entries: the one shown, then the one before it.
      await page.goBack()
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of London' }).waitFor()

      const before = await entries(page)
      await searchIn(page, '#g', 'Leeds')
      await searchIn(page, '#g', 'Bristol')
      expect(await entries(page)).toBe(before)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test("a router's history.state not a plain object (an array) is kept as it is: the search replaces its entry", async () => {
    const { page, errors, close } = await finderPage('', "<script>history.replaceState(['home', 1], '')</script>")
    try {
      const before = await entries(page)
      await searchIn(page, '#f', 'London')
      expect(await page.evaluate('history.state')).toEqual(['home', 1])
      expect(await entries(page)).toBe(before)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test("two finders on a page: Back undoes the last one's search, and the other's stays as it is", async () => {
    const { page, errors, searches, close } = await finderPage(
      '',
      `<div id="g" data-storeloc="${demo.server.token}"></div>`,
    )
    try {
      await searchIn(page, '#f', 'London')
      await searchIn(page, '#g', 'Leeds')
      await searchIn(page, '#f', 'Paris')
      const asked = searches.length
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of London' }).waitFor()
      await networkSettled(page)
      // Only the finder whose search the entry changes searched again.
      expect(searches.length).toBe(asked + 1)
      expect(await page.locator('#g .sl-status').textContent()).toContain('of Leeds')
      await page.goBack()
      await page.locator('#g .sl-status').filter({ hasText: 'Type a town or postcode' }).waitFor()
      expect(await page.locator('#f .sl-status').textContent()).toContain('of London')
      const params = new URL(page.url()).searchParams
      expect([params.has('sl_place'), params.has('sl2_place')]).toEqual([true, false])
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('a failed search is an entry: Back shows the one before without its failure, Forward says it again', async () => {
    const { page, errors, close } = await finderPage()
    try {
      const alert = page.locator('#f > .sl-error')
      const notFound = alert.filter({ hasText: 'No place called “Xqzzyvill” was found.' })
      await searchIn(page, '#f', 'London')
      const before = await entries(page)
      await typeAndEnter(page, '#f', 'Xqzzyvill')
      await notFound.waitFor()
      // The service failing (503, no Retry-After): an entry too.
      await page.route('**/locations?*near=Paris*', refused)
      await typeAndEnter(page, '#f', 'Paris')
      await alert.filter({ hasText: 'The stores could not be loaded.' }).waitFor()
      expect(await entries(page)).toBe(before + 2)
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('Paris')
      await page.goBack()
      await notFound.waitFor()
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('Xqzzyvill')
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of London' }).waitFor()
      expect(await alert.textContent()).toBe('')
      await page.goForward()
      await notFound.waitFor()
      await page.goBack()
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'Type a town or postcode' }).waitFor()
      expect(await alert.textContent()).toBe('')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('Back while a search typed waits: the one before; Forward then: that search, no stale answer after it', async () => {
    const { page, errors, close } = await finderPage()
    try {
      await searchIn(page, '#f', 'London')
      await networkSettled(page)
      const before = await entries(page)
      // Each request held: Paris's, London's on Back, Paris's again on Forward.
      const { held, heldCount } = await holding(page, '**/locations?*')
      await typeAndEnter(page, '#f', 'Paris')
      await page.locator('#f .sl-status').filter({ hasText: 'Searching…' }).waitFor()
      // The search typed is an entry as it is asked.
      expect(await entries(page)).toBe(before + 1)
      await page.goBack()
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('London, United Kingdom')
      await page.waitForFunction(
        () =>
          (globalThis as unknown as PageHolder).document.querySelector('#f .sl-place input')?.value ===
          'London, United Kingdom',
      )
      // Forward while London's answer is on its way: Paris's asked again, answered first, the rest after.
      await page.goForward()
      await page.waitForFunction(
        () => (globalThis as unknown as PageHolder).document.querySelector('#f .sl-place input')?.value === 'Paris',
      )
      // Forward's request may reach the test after the box shows Paris (a loaded machine): all three
      // held before the route goes, else that one passes unheld.
      await heldCount(3)
      await page.unroute('**/locations?*')
      release(held.pop()!)
      await page.locator('#f .sl-status').filter({ hasText: 'of Paris' }).waitFor()
      for (const r of held) release(r)
      await networkSettled(page)
      expect((await shown(page)).status).toContain('of Paris')
      expect((await shown(page)).first).toContain('Paris')
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('Paris, France')
      expect(await entries(page)).toBe(before + 1)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test("two finders: each one's wait, failure, entries and Back stay its own", async () => {
    const { page, errors, searches, close } = await finderPage(
      '',
      `<div id="g" data-storeloc="${demo.server.token}"></div>`,
    )
    try {
      const [f, g] = [finderOf(page, '#f'), finderOf(page, '#g')]
      await searchIn(page, '#f', 'London')
      await networkSettled(page)
      const before = await entries(page)
      // Leeds is left unanswered till the test lets it go: #g waits, and says so.
      const release = await heldUntilReleased(page, '**/locations?*near=Leeds*')
      await typeAndEnter(page, '#g', 'Leeds')
      await g.status.filter({ hasText: 'Still waiting for the store finder…' }).waitFor()
      expect(await f.status.textContent()).toContain('of London')
      await typeAndEnter(page, '#f', 'Xqzzyvill')
      await f.alert.filter({ hasText: 'No place called “Xqzzyvill” was found.' }).waitFor()
      expect([await g.alert.textContent(), await g.status.textContent()]).toEqual([
        '',
        'Still waiting for the store finder…',
      ])
      // Each search an entry, in the order asked, under its own finder's prefix.
      expect(await entries(page)).toBe(before + 2)
      const params = new URL(page.url()).searchParams
      expect([params.get('sl_place'), params.get('sl2_place')]).toEqual(['Xqzzyvill', 'Leeds'])
      release()
      await g.status.filter({ hasText: 'of Leeds' }).waitFor()
      await networkSettled(page)
      expect(await f.alert.textContent()).toContain('Xqzzyvill')

      // Back undoes #f's failed search alone: #g, answered since, is not asked again.
      const asked = searches.length
      await page.goBack()
      await f.status.filter({ hasText: 'of London' }).waitFor()
      await networkSettled(page)
      expect(searches.slice(asked).map((url) => new URL(url).searchParams.has('lat'))).toEqual([true])
      expect(await f.alert.textContent()).toBe('')
      expect(await g.status.textContent()).toContain('of Leeds')
      // Back again undoes #g's, #f's London left as it is.
      await page.goBack()
      await g.status.filter({ hasText: 'Type a town or postcode' }).waitFor()
      await networkSettled(page)
      expect(searches.length).toBe(asked + 1)
      expect(await f.status.textContent()).toContain('of London')
      await page.goForward()
      await g.status.filter({ hasText: 'of Leeds' }).waitFor()
      expect([await f.alert.textContent(), await g.alert.textContent()]).toEqual(['', ''])
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('Back to no search while the nearest stores beyond the distance are on their way: none is listed', async () => {
    const { page, errors, close } = await finderPage()
    try {
      // The request for the nearest stores, the last one a search that found none sends.
      const release = await heldUntilReleased(page, '**/locations?*&limit=3')
      const nearest = requestsOf(page, (url) => url.endsWith('&limit=3'))
      const sent = page.waitForRequest((r) => r.url().endsWith('&limit=3'))
      await searchIn(page, '#f', 'Inverness, United Kingdom')
      await sent
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'Type a town or postcode' }).waitFor()
      release()
      // Back may end the request (the search it belongs to is over) or let it be answered: either
      // way none is listed. One still under way 10 s on fails the test, named.
      await nearest.settled()
      await aTurnLater(page)
      expect(await page.locator('#f .sl-status').textContent()).toContain('Type a town or postcode')
      expect(await page.locator('#f .sl-item').count()).toBe(0)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test("a link followed while a postcode typed over the place shown waits: Back is the page's step off it", async () => {
    const { page, errors, close } = await finderPage('', '<p id="stores"></p>')
    try {
      await searchIn(page, '#f', 'Leeds')
      await searchIn(page, '#f', 'Berlin')
      const release = await heldUntilReleased(page, '**/locations?*near=75001*')
      await typeAndEnter(page, '#f', '75001')
      await finderOf(page, '#f').status.filter({ hasText: 'Searching…' }).waitFor()
      // The page's entry pushed after the finder's: Back from it is no Back from the search waiting.
      await page.evaluate("history.pushState(null, '', '#stores')")
      await page.evaluate('history.back()')
      await page.waitForURL((u) => u.hash === '', { timeout: 10_000 })
      release()
      await networkSettled(page)
      expect(new URL(page.url()).hash).toBe('')
      expect(await finderOf(page, '#f').alert.textContent()).toBe('')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})
