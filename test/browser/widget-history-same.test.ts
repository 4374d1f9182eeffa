// The finder's history entries against searches that come out the same, in a real browser against
// the demo: a town typed again, or a place picked and then typed (or typed, then picked), is no
// entry and leaves no Forward, unless answered as another place; a store picked as it is answered
// stays in the address; the host page's own parameters are left as they were written; of two
// finders, Back to an entry that holds one's search as it was asked asks it nothing again, nor
// Back and Forward between stores picked in one search.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, networkSettled, newPage, watchRequests } from './browser'
import { pick, searchIn, typedWaiting } from './finder-page'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

/** A page with a finder in #f (and `body` after it), opened at `query`; the service's /locations requests as they go. */
async function finderPage(body = '', query = '') {
  const host = hostPage(
    `<div id="f" data-storeloc="${demo.server.token}"></div>${body}<script src="${demo.server.url}/widget.js"></script>`,
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

/** Whether the browser's Forward leads anywhere (Chromium's Navigation API). */
const canGoForward = (page: Page) => page.evaluate<boolean>('navigation.canGoForward')

describe.skipIf(chromiumPath === null)('searches that come out the same, in Chromium', () => {
  test('a town typed again, answered as the search shown: no entry, and no Forward to the same search', async () => {
    const { page, errors, close } = await finderPage()
    try {
      await searchIn(page, '#f', 'Leeds')
      const before = await entries(page)
      await searchIn(page, '#f', 'London')
      await networkSettled(page)
      await searchIn(page, '#f', 'London')
      await networkSettled(page)
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('London, United Kingdom')
      expect(await entries(page)).toBe(before + 1)
      expect(await canGoForward(page)).toBe(false)
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of Leeds' }).waitFor()
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('a place picked, then typed as text (and back): one entry, as both search the same place', async () => {
    const { page, errors, close } = await finderPage()
    try {
      await searchIn(page, '#f', 'Leeds')
      const before = await entries(page)
      await pick(page, 'Lond', 'London, United Kingdom')
      const london = page.url()
      await searchIn(page, '#f', 'London')
      await networkSettled(page)
      await pick(page, 'Lond', 'London, United Kingdom')
      expect(page.url()).toBe(london)
      expect(await entries(page)).toBe(before + 1)
      expect(await canGoForward(page)).toBe(false)
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of Leeds' }).waitFor()
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('a place picked, then its name typed without its accents: one entry, as both search the same place', async () => {
    const { page, errors, close } = await finderPage()
    try {
      await searchIn(page, '#f', 'Leeds')
      await pick(page, 'Züri', 'Zürich, Switzerland')
      const [picked, zurich] = [await entries(page), page.url()]
      await page.locator('#f .sl-place input').fill('zurich')
      await page.locator('#f .sl-place input').press('Enter')
      // The box shows the place the text was answered as.
      await page.waitForFunction(`document.querySelector('#f .sl-place input').value === 'Zürich, Switzerland'`)
      await networkSettled(page)
      expect(page.url()).toBe(zurich)
      expect(await entries(page)).toBe(picked)
      expect(await canGoForward(page)).toBe(false)
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of Leeds' }).waitFor()
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test("a place picked, then a postcode answered at its point: one entry; another place's postcode: an entry", async () => {
    const { page, errors, close } = await finderPage()
    try {
      await searchIn(page, '#f', 'Leeds')
      await pick(page, 'Berl', 'Berlin, Germany')
      const picked = await entries(page)
      const typed = async (text: string) => {
        await page.locator('#f .sl-place input').fill(text)
        await page.locator('#f .sl-place input').press('Enter')
        // The box shows the place the text was answered as: the code, then its town.
        await page.waitForFunction(`document.querySelector('#f .sl-place input').value.startsWith('${text} ')`)
        await networkSettled(page)
      }
      // The service places 10115 at Berlin's point: the same search, named otherwise.
      await typed('10115')
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('10115 Berlin, Germany')
      expect(await entries(page)).toBe(picked)
      await typed('75001')
      expect(await entries(page)).toBe(picked + 1)
      await page.goBack()
      await page.waitForURL((u) => u.searchParams.get('sl_place') === '10115 Berlin, Germany')
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of Leeds' }).waitFor()
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('a place picked, then its name typed and answered as another place: an entry, Back shows the one picked', async () => {
    const { page, errors, close } = await finderPage()
    try {
      await pick(page, 'Paris', 'Paris, TX, United States')
      const before = await entries(page)
      await searchIn(page, '#f', 'Paris')
      await page.locator('#f .sl-status').filter({ hasText: 'of Paris, France' }).waitFor()
      await networkSettled(page)
      expect(await entries(page)).toBe(before + 1)
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('Paris, France')
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of Paris, TX, United States' }).waitFor()
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('a store picked while the name of the place picked, typed, waits: the entry keeps its place, none more', async () => {
    const { page, errors, close } = await finderPage()
    try {
      await searchIn(page, '#f', 'Leeds')
      await pick(page, 'Lond', 'London, United Kingdom')
      const picked = await entries(page)
      const release = await typedWaiting(page, 'London')
      // London's stores still listed while it waits: one picked.
      await page.locator('#f .sl-item .sl-name').nth(1).click()
      release()
      await page.locator('#f .sl-status').filter({ hasText: 'of London' }).waitFor()
      await networkSettled(page)
      const url = new URL(page.url())
      expect(url.searchParams.get('sl_place')).toBe('London, United Kingdom')
      expect(url.searchParams.get('sl_store')).not.toBeNull()
      expect(await entries(page)).toBe(picked)
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of Leeds' }).waitFor()
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('Back while a postcode typed over the place picked waits: that place, then the search before it', async () => {
    const { page, errors, close } = await finderPage()
    try {
      await searchIn(page, '#f', 'Leeds')
      await pick(page, 'Berl', 'Berlin, Germany')
      const picked = await entries(page)
      const release = await typedWaiting(page, '75001')
      // No goBack(): it waits on a step, and that Back is cancelled where the browser can (navigate).
      await page.evaluate('history.back()')
      await page.locator('#f .sl-status').filter({ hasText: 'of Berlin, Germany' }).waitFor()
      release()
      await networkSettled(page)
      // The postcode's answer, come after, is no search shown.
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('Berlin, Germany')
      expect(await page.locator('#f .sl-status').textContent()).toContain('of Berlin, Germany')
      expect(await entries(page)).toBe(picked)
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of Leeds' }).waitFor()
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('Back while a postcode typed over the place picked waits asks nothing of the entry before it', async () => {
    const { page, errors, searches, close } = await finderPage()
    try {
      await searchIn(page, '#f', 'Leeds')
      await pick(page, 'Berl', 'Berlin, Germany')
      const release = await typedWaiting(page, '75001')
      const asked = searches.length
      await page.evaluate('history.back()')
      await page.locator('#f .sl-status').filter({ hasText: 'of Berlin, Germany' }).waitFor()
      release()
      await networkSettled(page)
      // Back went Forward again at once: the entry before it, Leeds's, is not asked on the way.
      expect(searches.slice(asked).filter((u) => /near=Leeds|lat=53\./.test(u))).toEqual([])
      // The hold is over: Back again goes to the entry before, not Forward again.
      await page.evaluate('history.back()')
      await page.locator('#f .sl-status').filter({ hasText: 'of Leeds' }).waitFor()
      await networkSettled(page)
      expect(new URL(page.url()).searchParams.get('sl_place')).toContain('Leeds')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('Back twice at once while a postcode typed over the place picked waits: the entry it lands on, with its stores', async () => {
    const { page, errors, close } = await finderPage()
    try {
      await searchIn(page, '#f', 'Paris')
      await searchIn(page, '#f', 'Leeds')
      await pick(page, 'Berl', 'Berlin, Germany')
      const release = await typedWaiting(page, '75001')
      // The second Back is asked before the first one's step is over (Chromium may land one or two back).
      await page.evaluate('history.back(); setTimeout(() => history.back(), 0)')
      await page.waitForURL((u) => !u.searchParams.get('sl_place')?.startsWith('Berlin'))
      release()
      await networkSettled(page)
      const place = new URL(page.url()).searchParams.get('sl_place')!
      await page
        .locator('#f .sl-status')
        .filter({ hasText: `of ${place}` })
        .waitFor()
      expect(await page.locator('#f .sl-item').count()).toBeGreaterThan(0)
      expect(await page.locator('#f > .sl-error').textContent()).toBe('')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('Back while a postcode typed over the place of an entry the finder did not write waits: that place', async () => {
    const { page, errors, close } = await finderPage('', '?sl_place=Berlin%2C+Germany')
    try {
      await page.locator('#f .sl-status').filter({ hasText: 'of Berlin, Germany' }).waitFor()
      // A link to a part of the page followed: an entry of the page's, no state, the finder's search in its address.
      await page.evaluate("history.pushState(null, '', '#stores')")
      const release = await typedWaiting(page, '75001')
      await page.evaluate('history.back()')
      await page.waitForFunction(`document.querySelector('#f .sl-status').textContent.includes('of Berlin, Germany')`)
      release()
      await networkSettled(page)
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('Berlin, Germany')
      expect(await page.locator('#f .sl-status').textContent()).toContain('of Berlin, Germany')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test("Back while a postcode typed over the place picked waits is no step for the page's own listener", async () => {
    const listener = "<script>window.steps = 0; addEventListener('popstate', () => steps++)</script>"
    const { page, errors, close } = await finderPage(listener)
    try {
      await searchIn(page, '#f', 'Leeds')
      await pick(page, 'Berl', 'Berlin, Germany')
      const release = await typedWaiting(page, '75001')
      const before = await page.evaluate<number>('steps')
      await page.evaluate('history.back()')
      await page.locator('#f .sl-status').filter({ hasText: 'of Berlin, Germany' }).waitFor()
      release()
      await networkSettled(page)
      // Chromium cancels that Back (the Navigation API): a router sees no Back, then Forward.
      expect(await page.evaluate<number>('steps')).toBe(before)
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('Berlin, Germany')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('without the Navigation API, Back while a postcode waits goes Forward at once: a listener after the finder sees that step alone', async () => {
    const { page, errors, close } = await finderPage()
    try {
      await page.addInitScript('delete window.navigation')
      await page.reload()
      await page.locator('#f .sl-form').waitFor()
      await searchIn(page, '#f', 'Leeds')
      await pick(page, 'Berl', 'Berlin, Germany')
      await page.evaluate("window.steps = []; addEventListener('popstate', () => steps.push(location.search))")
      const release = await typedWaiting(page, '75001')
      await page.goBack()
      await page.waitForFunction('steps.length > 0')
      await page.locator('#f .sl-status').filter({ hasText: 'of Berlin, Germany' }).waitFor()
      release()
      await networkSettled(page)
      // Only the step Forward, to the entry in sight, reaches a listener added after the finder's.
      const steps = await page.evaluate<string[]>('steps')
      expect(steps.map((s) => new URLSearchParams(s).get('sl_place'))).toEqual(['Berlin, Germany'])
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('Berlin, Germany')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('two finders: Back while a postcode typed in one over its place waits, the other having searched since: both as shown', async () => {
    const { page, errors, close } = await finderPage(`<div id="g" data-storeloc="${demo.server.token}"></div>`)
    try {
      await pick(page, 'Berl', 'Berlin, Germany')
      await searchIn(page, '#g', 'Leeds')
      await networkSettled(page)
      const release = await typedWaiting(page, '75001')
      // The entry before holds #f's place too: the postcode is dropped all the same.
      await page.evaluate('history.back()')
      await page.locator('#f .sl-status').filter({ hasText: 'of Berlin, Germany' }).waitFor()
      release()
      await networkSettled(page)
      const address = new URL(page.url()).searchParams
      expect([address.get('sl_place'), address.get('sl2_place')]).toEqual(['Berlin, Germany', 'Leeds, United Kingdom'])
      expect(await page.locator('#f .sl-status').textContent()).toContain('of Berlin, Germany')
      expect(await page.locator('#g .sl-status').textContent()).toContain('of Leeds')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('the name of the place picked typed, its search failing: an entry, Back shows the place', async () => {
    const { page, errors, close } = await finderPage()
    try {
      await searchIn(page, '#f', 'Leeds')
      await pick(page, 'Lond', 'London, United Kingdom')
      const picked = await entries(page)
      await page.route('**/locations?*near=Lon*', (route) =>
        route.fulfill({
          status: 503,
          headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' },
          body: JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message: 'Down for a while.' } }),
        }),
      )
      await page.locator('#f .sl-place input').fill('Lon')
      await page.locator('#f .sl-place input').press('Enter')
      await page.locator('#f > .sl-error').filter({ hasText: 'The stores could not be loaded.' }).waitFor()
      // As any failed search: an entry, its address the search asked (a reload asks it again).
      expect(await entries(page)).toBe(picked + 1)
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('Lon')
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of London, United Kingdom' }).waitFor()
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('a store picked as the town typed again is answered stays in the address', async () => {
    const { page, errors, close } = await finderPage()
    try {
      await searchIn(page, '#f', 'Leeds')
      await searchIn(page, '#f', 'London')
      await networkSettled(page)
      // A step the browser takes a while over: the store is picked before it ends.
      await page.evaluate('history.back = () => { window.stepLater = () => history.go(-1) }')
      await searchIn(page, '#f', 'London')
      const store = page.locator('#f .sl-item').nth(1)
      await store.locator('.sl-name').click()
      await page.evaluate('window.stepLater?.()')
      await networkSettled(page)
      expect(new URL(page.url()).searchParams.get('sl_store')).not.toBeNull()
      expect(await page.locator('#f .sl-item.sl-selected .sl-name').allTextContents()).toEqual([
        (await store.locator('.sl-name').textContent()) ?? '',
      ])
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test("the host page's own parameters stay as written, byte for byte", async () => {
    const own = '?a%20b=c%2Fd&flag&x=1+2&e='
    const { page, errors, close } = await finderPage('', own)
    try {
      await searchIn(page, '#f', 'Leeds')
      expect(new URL(page.url()).search.startsWith(`${own}&sl_place=`)).toBe(true)
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'Type a town or postcode' }).waitFor()
      expect(new URL(page.url()).search).toBe(own)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test("the host page's own parameters stay as written when data-unit changes", async () => {
    const own = '?a%20b=c%2Fd&flag&y=c=d'
    const { page, errors, close } = await finderPage('', own)
    try {
      await searchIn(page, '#f', 'London')
      await page.evaluate(`document.querySelector('#f').setAttribute('data-unit', 'km')`)
      await page.locator('#f .sl-status').filter({ hasText: '40 km of London' }).waitFor()
      const { search } = new URL(page.url())
      expect(search.startsWith(`${own}&sl_place=`)).toBe(true)
      expect(search).toContain('&sl_r=40&sl_unit=km')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('after data-unit changes, the town typed again with 25 km is a new entry, not the 25 miles one', async () => {
    const { page, errors, close } = await finderPage()
    try {
      await searchIn(page, '#f', 'Leeds')
      await searchIn(page, '#f', 'London')
      await page.evaluate(`document.querySelector('#f').setAttribute('data-unit', 'km')`)
      await page.locator('#f .sl-status').filter({ hasText: '40 km of London' }).waitFor()
      await networkSettled(page)
      const before = await entries(page)
      await page.locator('#f .sl-place input').fill('London')
      await page.locator('#f .sl-radius select').selectOption('25')
      await page.locator('#f .sl-status').filter({ hasText: '25 km of London' }).waitFor()
      expect(await entries(page)).toBe(before + 1)
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: '40 km of London' }).waitFor()
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('two finders: Back to a search answered after the other finder pushed asks it nothing again', async () => {
    const { page, errors, searches, close } = await finderPage(
      `<div id="g" data-storeloc="${demo.server.token}"></div>`,
    )
    try {
      // London's answer comes after #g's Leeds is asked: the entry #g left holds London as typed.
      const release = await typedWaiting(page, 'London')
      await searchIn(page, '#g', 'Leeds')
      release()
      await page.locator('#f .sl-status').filter({ hasText: 'of London' }).waitFor()
      await searchIn(page, '#f', 'Paris')
      await networkSettled(page)
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of London' }).waitFor()
      await networkSettled(page)
      const asked = searches.length
      // Back to the entry #g left: #g's search undone; #f's London, as typed, is the one shown.
      await page.goBack()
      await page.locator('#g .sl-status').filter({ hasText: 'Type a town or postcode' }).waitFor()
      await networkSettled(page)
      expect(searches.slice(asked).filter((u) => u.includes('near='))).toEqual([])
      expect(await page.locator('#f .sl-status').textContent()).toContain('of London')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test("two finders: a place's other name picked at its point, in the entry the other pushed: Back shows the name before", async () => {
    const { page, errors, close } = await finderPage(`<div id="g" data-storeloc="${demo.server.token}"></div>`)
    try {
      await pick(page, 'Berl', 'Berlin, Germany')
      await searchIn(page, '#g', 'Leeds')
      // The service places 10115 at Berlin's point: the same search, written into the entry #g pushed.
      await pick(page, '10115', '10115 Berlin, Germany')
      await page.goBack()
      await page.locator('#g .sl-status').filter({ hasText: 'Type a town or postcode' }).waitFor()
      await networkSettled(page)
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('Berlin, Germany')
      expect(await page.locator('#f .sl-place input').inputValue()).toBe('Berlin, Germany')
      expect(await page.locator('#g .sl-place input').inputValue()).toBe('')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('two finders: a store picked in the entry the other pushed, Back shows the entry before without it', async () => {
    const { page, errors, close } = await finderPage(`<div id="g" data-storeloc="${demo.server.token}"></div>`)
    try {
      await searchIn(page, '#f', 'London')
      await searchIn(page, '#g', 'Leeds')
      await page.locator('#f .sl-item .sl-name').nth(2).click()
      await page.waitForURL((u) => u.searchParams.has('sl_store'))
      await page.goBack()
      await page.locator('#g .sl-status').filter({ hasText: 'Type a town or postcode' }).waitFor()
      await networkSettled(page)
      // The address holds no store: nor does the list.
      expect(new URL(page.url()).searchParams.has('sl_store')).toBe(false)
      expect(await page.locator('#f .sl-item.sl-selected').count()).toBe(0)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('two finders: Back and Forward to entries whose only difference is the store picked ask nothing again', async () => {
    const { page, errors, searches, close } = await finderPage(
      `<div id="g" data-storeloc="${demo.server.token}"></div>`,
    )
    try {
      await searchIn(page, '#f', 'London')
      const names = page.locator('#f .sl-item .sl-name')
      await names.nth(1).click()
      await searchIn(page, '#g', 'Leeds')
      await names.nth(2).click()
      const [one, two] = [await names.nth(1).textContent(), await names.nth(2).textContent()]
      await networkSettled(page)
      const asked = searches.length
      await page.goBack()
      await page.locator('#g .sl-status').filter({ hasText: 'Type a town or postcode' }).waitFor()
      await page.locator('#f .sl-item.sl-selected .sl-name').filter({ hasText: one! }).waitFor()
      await page.goForward()
      await page.locator('#g .sl-status').filter({ hasText: 'of Leeds' }).waitFor()
      await page.locator('#f .sl-item.sl-selected .sl-name').filter({ hasText: two! }).waitFor()
      await networkSettled(page)
      // #g's none, then its Leeds again: #f's London is asked nothing.
      expect(searches.slice(asked).filter((u) => /lat=51\.|near=London/.test(u))).toEqual([])
      expect(await page.locator('#f .sl-item.sl-selected').count()).toBe(1)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test("Back and Forward to a store picked tell the page nothing: storeloc:select is the visitor's pick", async () => {
    const { page, errors, close } = await finderPage(`<div id="g" data-storeloc="${demo.server.token}"></div>`)
    try {
      await page.evaluate(
        "window.picked = []; addEventListener('storeloc:select', (e) => picked.push(e.detail.location.name), true)",
      )
      await searchIn(page, '#f', 'London')
      const names = page.locator('#f .sl-item .sl-name')
      await names.nth(1).click()
      await searchIn(page, '#g', 'Leeds')
      await names.nth(2).click()
      const both = [await names.nth(1).textContent(), await names.nth(2).textContent()]
      expect(await page.evaluate<unknown>('picked')).toEqual(both)
      await page.goBack()
      await page.locator('#g .sl-status').filter({ hasText: 'Type a town or postcode' }).waitFor()
      await page.locator('#f .sl-item.sl-selected .sl-name').filter({ hasText: both[0]! }).waitFor()
      await page.goForward()
      await page.locator('#f .sl-item.sl-selected .sl-name').filter({ hasText: both[1]! }).waitFor()
      await networkSettled(page)
      // The stores Back and Forward show are the entries', picked before: no new pick to tell.
      expect(await page.evaluate<unknown>('picked')).toEqual(both)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})
