// The widget's states a visitor passes through, in a real browser against a real server with the
// demo data: a filter dropdown that closes as a menu does, a failed search that leaves no stale
// stores, a result list that fits a phone's width, and a unit kept through a store page's link back.
import { describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner } from '../helpers'
import { aTurnLater, chromiumPath, newPage, type PageDocument } from './browser'
import { searchFinder } from './finder-page'
import { mapAtRest, openFirstMap } from './map-rest'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

/** The storeloc CLI on the demo server's database. */
const { storeloc: cli, json } = cliRunner(() => demo.server.dbPath)

describe.skipIf(chromiumPath === null)('the widget as a visitor uses it, in Chromium', () => {
  test('before a search, the clusters of the world map do not pile up', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    try {
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${demo.server.token}`))
      const boxes = (await Promise.all((await page.locator('.sl-cluster').all()).map((c) => c.boundingBox()))).map(
        (b) => b!,
      )
      expect(boxes.length).toBeGreaterThan(3)
      // Piled up: two bubbles whose discs overlap (their rings may meet).
      const centre = (b: { x: number; y: number; width: number; height: number }) => [
        b.x + b.width / 2,
        b.y + b.height / 2,
      ]
      const overlapping = boxes.flatMap((a, i) =>
        boxes.slice(i + 1).filter((b) => {
          const [[ax, ay], [bx, by]] = [centre(a), centre(b)]
          return Math.hypot(ax! - bx!, ay! - by!) < (a.width + b.width) / 2
        }),
      )
      // A cluster's centre is its stores' mean, which may drift nearer a neighbour (one pair of the
      // demo's does): its bubble is drawn aside.
      expect(overlapping).toEqual([])
    } finally {
      await page.close()
    }
  })

  test('before a search the map has the whole width; a search gives the list its column, its pins in view', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      await page.locator('.sl-cluster').first().waitFor()
      const width = async (selector: string) => (await page.locator(selector).boundingBox())!.width
      expect(await width('.sl-map')).toBeGreaterThan(0.95 * (await width('.sl-main')))
      expect(await page.locator('.sl-results').isVisible()).toBe(false)
      await page.getByRole('combobox', { name: 'Town or postcode' }).fill('Lond')
      await page.getByRole('option', { name: 'London, United Kingdom' }).click()
      await page.locator('.sl-pin').first().waitFor()
      await mapAtRest(page)
      expect(await width('.sl-map')).toBeLessThan(0.7 * (await width('.sl-main')))
      expect(await page.locator('.sl-item').count()).toBeGreaterThan(0)
      const map = (await page.locator('.sl-map').boundingBox())!
      for (const pin of await page.locator('.sl-pin').all()) {
        const b = (await pin.boundingBox())!
        expect(
          b.x >= map.x && b.x + b.width <= map.x + map.width && b.y >= map.y && b.y + b.height <= map.y + map.height,
        ).toBe(true)
      }
    } finally {
      await page.close()
    }
  })

  test('a filter dropdown closes on Escape, on a click elsewhere, and when focus leaves it', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      const dropdown = page.locator('.sl-dropdown').first()
      const summary = dropdown.locator('summary')
      const open = () => dropdown.evaluate((d) => (d as unknown as { open: boolean }).open)
      await summary.click()
      expect(await open()).toBe(true)
      await page.keyboard.press('Escape')
      expect(await open()).toBe(false)
      expect(await summary.evaluate((s) => s === s.ownerDocument.activeElement)).toBe(true)
      // A choice inside keeps it open; a click on the page outside closes it.
      await summary.click()
      await dropdown.locator('label').first().click()
      expect(await open()).toBe(true)
      await page.mouse.click(5, 790)
      expect(await open()).toBe(false)
      await summary.click()
      await page.getByRole('combobox', { name: 'Town or postcode' }).focus()
      expect(await open()).toBe(false)
    } finally {
      await page.close()
    }
  })

  test('a filter changed after typing another town searches that town, as the box shows; the same town again keeps its place', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?place=London`)
      const status = page.getByRole('status')
      await status.filter({ hasText: 'London' }).waitFor()
      const asked: URL[] = []
      page.on('request', (r) => void (r.url().includes('/locations?') && asked.push(new URL(r.url()))))
      // The same town: the point searched stays, the filter is added.
      const again = page.waitForRequest('**/locations?*')
      await page.getByRole('checkbox', { name: 'Rentals', exact: true }).check()
      expect(new URL((await again).url()).searchParams.get('lat')).not.toBeNull()
      await status.filter({ hasText: 'London' }).waitFor()
      // Typed, not sent: the next filter searches it. Ticked while the suggestions are on their way
      // (held here): open, they would cover this row; the box has lost the focus, so they never open.
      let release = () => {}
      const held = new Promise<void>((resolve) => (release = resolve))
      await page.route('**/places?*', (route) => held.then(() => route.continue()).catch(() => {}))
      const suggesting = page.waitForRequest('**/places?*')
      await page.getByRole('combobox', { name: 'Town or postcode' }).fill('Manchester')
      const suggestions = await suggesting
      await page.getByRole('checkbox', { name: 'Bikes', exact: true }).check()
      await status.filter({ hasText: 'Manchester' }).waitFor()
      release()
      expect(await suggestions.response()).toBeNull() // cancelled: no answer reaches the page
      expect(await page.getByRole('listbox').isVisible()).toBe(false)
      // The search itself (none near may ask for the nearest beyond after it).
      const searched = asked.find((u) => u.searchParams.has('near'))!
      expect(searched.searchParams.get('near')).toBe('Manchester')
      expect(searched.searchParams.getAll('tags[]').sort()).toEqual(['bikes', 'rentals'])
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('data-unit="km" on a locator in miles: its 25 miles offered as a whole 40 km, and sent as 40', async () => {
    const { url: pageUrl, stop } = hostPage(
      `<div data-storeloc="${demo.server.token}" data-unit="km" data-place="London"></div><script src="${demo.server.url}/widget.js" async></script>`,
    )
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    const asked: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/locations?')) asked.push(r.url())
    })
    try {
      await page.goto(pageUrl)
      await page.locator('.sl-item').first().waitFor()
      const radius = page.getByRole('combobox', { name: 'Within' })
      await radius.locator('option:checked', { hasText: /^40\u00a0km$/ }).waitFor({ state: 'attached' })
      expect(await radius.inputValue()).toBe('40')
      const offered = await radius.locator('option').allTextContents()
      expect(offered).toEqual(['5', '10', '25', '40', '50', '100'].map((n) => `${n}\u00a0km`))
      // The next search sends the 40 offered.
      await page.getByRole('searchbox').fill('bike')
      await page.getByRole('button', { name: 'Search' }).click()
      await page.locator('.sl-status', { hasText: '40\u00a0km' }).waitFor()
      expect(new URL(asked.at(-1)!).searchParams.get('radius')).toBe('40')
    } finally {
      stop()
      await page.close()
    }
  })

  test.each(['a host page with data-unit="km"', 'the finder page with ?unit=km'])(
    "%s: a store page's link back to the finder keeps the search in km",
    async (start) => {
      const { url: pageUrl, stop } = hostPage(
        `<div data-storeloc="${demo.server.token}" data-unit="km" data-store-pages="on" data-place="London"></div><script src="${demo.server.url}/widget.js" async></script>`,
      )
      const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
      try {
        const finder = `${demo.server.url}/l/${demo.server.token}?unit=km&place=London`
        await page.goto(start.startsWith('a host') ? pageUrl : finder)
        await page.locator('.sl-status', { hasText: 'within 40 km' }).waitFor()
        await page.locator('.sl-item').first().locator('a.sl-link', { hasText: 'Store page' }).click()
        await page.locator('.slp-nav a').click()
        await page.locator('.sl-item').first().waitFor()
        expect(await page.locator('.sl-status').textContent()).toContain('within 40\u00a0km')
        expect(new URL(page.url()).searchParams.get('sl_unit')).toBe('km')
      } finally {
        stop()
        await page.close()
      }
    },
  )

  test('a search emptied while the one before is on its way: the prompt stays, with none of its stores', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      // London's answer is held until the box is emptied, then let go: it settles before the checks.
      let release = () => {}
      const held = new Promise<void>((resolve) => (release = resolve))
      await page.route('**/locations?*', (route) => held.then(() => route.continue()).catch(() => {}))
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      const box = page.getByRole('combobox', { name: 'Town or postcode' })
      await box.fill('London')
      const asked = page.waitForRequest('**/locations?*')
      await box.press('Enter')
      const london = await asked
      await box.fill('')
      await box.press('Enter')
      await page.locator('.sl-status', { hasText: 'Type a town or postcode' }).waitFor()
      release()
      await (await london.response())?.finished()
      await aTurnLater(page)
      expect(await page.locator('.sl-status').textContent()).toStartWith('Type a town or postcode')
      expect(await page.locator('.sl-item').count()).toBe(0)
      expect(new URL(page.url()).searchParams.has('sl_place')).toBe(false)
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('a place that is not found: the message, and no stores of the search before; a postcode not known', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=London`)
      await page.locator('.sl-item').first().waitFor()
      await page.locator('.sl-pin').first().waitFor()
      const box = page.getByRole('combobox', { name: 'Town or postcode' })
      await box.fill('Xyzzyq Qwxz')
      await box.press('Enter')
      await page.getByRole('alert').filter({ hasText: 'No place called “Xyzzyq Qwxz” was found.' }).waitFor()
      expect(await page.locator('.sl-item').count()).toBe(0)
      expect(await page.locator('.sl-pin').count()).toBe(0)
      expect(await page.getByRole('button', { name: 'Show more stores' }).isVisible()).toBe(false)
      // A postcode the place data lacks: said to be one, with what to type instead.
      await box.fill('SW1A 1AA')
      await box.press('Enter')
      await page
        .getByRole('alert')
        .filter({
          hasText: 'No place or postcode “SW1A 1AA” was found. The postcodes of some countries are not known here',
        })
        .waitFor()
    } finally {
      await page.close()
    }
  })

  test('a region picked searches all of it; the next town goes back to the radius before', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    const status = () => page.locator('.sl-status').textContent()
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      const box = page.getByRole('combobox', { name: 'Town or postcode' })
      await box.fill('Californ')
      await page.getByRole('option', { name: 'California, United States' }).click()
      await page.getByText(/stores within \d+\smi of California/).waitFor()
      const miles = Number(/within (\d+)\u00a0mi/.exec((await status())!)![1])
      expect(miles).toBeGreaterThan(100)
      // Los Angeles and San Francisco, 550 km apart, both in it.
      const names = await page.locator('.sl-name').allTextContents()
      const more = page.getByRole('button', { name: 'Show more stores' })
      if (await more.isVisible()) {
        await more.click()
        // The next stores drawn, below the first.
        await page.locator('.sl-name').nth(names.length).waitFor()
      }
      const all = await page.locator('.sl-name').allTextContents()
      expect(all.slice(0, names.length)).toEqual(names)
      expect(all.some((n) => n.includes('Los Angeles'))).toBe(true)
      expect(all.some((n) => n.includes('San Francisco'))).toBe(true)
      // Open now (a filter) searches the same region, as far.
      await page.getByRole('checkbox', { name: 'Open now' }).click()
      await page.getByText(new RegExp(`within ${miles}\\smi of California`)).waitFor()
      await page.getByRole('checkbox', { name: 'Open now' }).click()
      await box.fill('Lond')
      await page.getByRole('option', { name: 'London, United Kingdom' }).click()
      await page.getByText(/stores within 25\smi of London, United Kingdom/).waitFor()
    } finally {
      await page.close()
    }
  })

  test('counts in the language\'s digits; after "show more", the count and what is shown as two sentences', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    try {
      // A chain as large as to need a thousands separator: the service's answer, its total made so.
      await page.route('**/locations?*', async (route) => {
        const response = await route.fetch()
        const json = await response.json()
        json.data.pagination = { ...json.data.pagination, total: 5930, hasMore: true }
        await route.fulfill({ response, json })
      })
      await page.goto(`${demo.server.url}/l/${demo.server.token}?lang=de&place=Berlin`)
      const status = page.locator('.sl-status')
      await status.filter({ hasText: /^5\.930 Geschäfte im Umkreis von .* um Berlin, Deutschland$/ }).waitFor()
      await page.getByRole('button', { name: 'Weitere Geschäfte anzeigen' }).click()
      await status.filter({ hasText: /Deutschland\. 20 von 5\.930$/ }).waitFor()
    } finally {
      await page.close()
    }
  })

  test('"near me" typed in the place box asks the demo.browser for its position, as the button does', async () => {
    const paris = { latitude: 48.8566, longitude: 2.3522 }
    const page = await newPage(demo.browser, { permissions: ['geolocation'], geolocation: paris })
    try {
      const box = await searchFinder(page, demo.server, 'near me')
      await page.getByText(/stores within [\d.,]+\smi of your location$/).waitFor()
      expect(await box.inputValue()).toBe('Your location')
      expect(await page.locator('.sl-error').textContent()).toBe('')
    } finally {
      await page.close()
    }
  })

  test('words no store has anywhere are said so; words of stores elsewhere ask for a larger distance', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    const status = page.locator('.sl-status')
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=London&sl_q=Qqzzxxw`)
      await page.getByText('No store matches “Qqzzxxw”. Try other words.').waitFor()
      // Darlinghurst is a store in Sydney: near London there is none, so a larger distance is the advice.
      // Its last ask, whether any store has the words, is answered with one: the advice stays.
      const anywhere = page.waitForResponse((r) => /[?&]all=true&search=Darlinghurst&/.test(r.url()))
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=London&sl_q=Darlinghurst`)
      await page.getByText(/^No stores within .* of London, United Kingdom\. Try a larger distance/).waitFor()
      await (await anywhere).finished()
      await aTurnLater(page)
      expect(await status.textContent()).toStartWith('No stores within')
    } finally {
      await page.close()
    }
  })

  test('no store within the distance: the nearest beyond it are listed, said as such', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      // Inverness: the nearest demo store is Fort William, about 90 km away.
      await page.goto(
        `${demo.server.url}/l/${demo.server.token}?sl_place=${encodeURIComponent('Inverness, United Kingdom')}`,
      )
      await page.getByText(/^No stores within .* of Inverness, United Kingdom\. The nearest stores:$/).waitFor()
      const near = encodeURIComponent('Inverness, United Kingdom')
      const api = await demo.server.api(`locations?near=${near}&radius=1000&limit=3`)
      const shown = await page.locator('.sl-item').evaluateAll((items) => items.map((i) => i.getAttribute('data-id')))
      expect(shown).toEqual(api.data.locations.map((l) => l.id))
      expect(shown).toHaveLength(3)
      expect(await page.locator('.sl-more').isVisible()).toBe(false)
    } finally {
      await page.close()
    }
  })

  test('on a phone, no pin of a search lies under the zoom buttons', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 360, height: 760 }, isMobile: true, hasTouch: true })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=London`)
      await page.locator('.sl-pin').first().waitFor()
      await mapAtRest(page)
      const zoom = (await page.locator('.leaflet-control-zoom').boundingBox())!
      const under = []
      for (const pin of await page.locator('.sl-pin').all()) {
        const b = (await pin.boundingBox())!
        if (
          b.x < zoom.x + zoom.width &&
          zoom.x < b.x + b.width &&
          b.y < zoom.y + zoom.height &&
          zoom.y < b.y + b.height
        )
          under.push(await pin.textContent())
      }
      expect(under).toEqual([])
    } finally {
      await page.close()
    }
  })

  test("where pins overlap, the nearer store's stands over the farther one's", async () => {
    const page = await newPage(demo.browser, { viewport: { width: 375, height: 760 }, isMobile: true, hasTouch: true })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=Edinburgh`)
      await page.locator('.sl-pin').first().waitFor()
      await mapAtRest(page)
      type Pin = { n: number; box: { x: number; y: number; width: number; height: number }; z: number }
      const pins: Pin[] = []
      for (const marker of await page.locator('.sl-marker').all())
        pins.push({
          n: Number(await marker.textContent()),
          box: (await marker.boundingBox())!,
          z: Number(await marker.evaluate((el) => (el as unknown as { style: { zIndex: string } }).style.zIndex)),
        })
      const overlaps = (a: Pin, b: Pin) =>
        a.box.x < b.box.x + b.box.width &&
        b.box.x < a.box.x + a.box.width &&
        a.box.y < b.box.y + b.box.height &&
        b.box.y < a.box.y + a.box.height
      const pairs = pins.flatMap((a) => pins.filter((b) => a.n < b.n && overlaps(a, b)).map((b) => [a, b] as const))
      expect(pairs.length).toBeGreaterThan(0) // the demo's Edinburgh stores crowd at this width
      expect(pairs.filter(([a, b]) => a.z <= b.z).map(([a, b]) => `${a.n} under ${b.n}`)).toEqual([])
    } finally {
      await page.close()
    }
  })

  test('on a phone 320 px wide, long links wrap: the list never scrolls sideways', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=Manchester`)
      await page.locator('.sl-item').first().waitFor()
      await page.locator('.sl-name').first().click()
      const results = page.locator('.sl-results')
      const [scroll, client] = await results.evaluate((r) => [r.scrollWidth, r.clientWidth])
      expect(scroll).toBeLessThanOrEqual(client!)
    } finally {
      await page.close()
    }
  })

  // Last: it adds a store to the demo (and takes it away), which the tests above count without.
  test("a store's name is text on the map too: markup in it is shown, never run", async () => {
    const name = '<img src=x onerror="window.__ran=1">Lone <b>Store</b>'
    const file = join(demo.server.dir, 'lone.json')
    // Alone in the South Atlantic: a dot of its own on the first map.
    writeFileSync(
      file,
      JSON.stringify([{ external_id: 'LONE', name, address: 'South Atlantic', coordinates: { lat: -55, lng: -25 } }]),
    )
    expect(cli('locations', 'import', demo.server.locatorId, '--file', file).code).toBe(0)
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    try {
      // The first map draws the world's answer, then the answer for the view fitted to it: the dot
      // hovered is one of the second drawing, which no redraw takes away with its tooltip.
      const fitted = page.waitForResponse(
        (r) => r.url().includes('/clusters?') && new URL(r.url()).searchParams.get('bbox') !== '-180,-90,180,90',
      )
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      const answer = (await (await fitted).json()) as { data: { locations: { name: string }[] } }
      const names = answer.data.locations.map((l) => l.name).sort()
      expect(names).toContain(name)
      await page.waitForFunction(
        (names) =>
          JSON.stringify(
            Array.from((globalThis as unknown as { document: PageDocument }).document.querySelectorAll('.sl-dot'))
              .map((d) => d.getAttribute('aria-label'))
              .sort(),
          ) === JSON.stringify(names),
        names,
      )
      await page.getByRole('button', { name, exact: true }).hover()
      const tip = page.locator('.leaflet-tooltip')
      await tip.waitFor()
      expect(await tip.textContent()).toBe(name)
      expect(await tip.locator('img, b').count()).toBe(0)
      expect(await page.evaluate(() => (globalThis as { __ran?: number }).__ran)).toBeUndefined()
    } finally {
      await page.close()
      cli('locations', 'delete', demo.server.locatorId, 'LONE')
    }
  })

  test("a proxy's own 429, its limit on each address, reads as the rate limit too", async () => {
    const page = await newPage(demo.browser)
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?place=Paris`)
      await page.locator('.sl-item').first().waitFor()
      // As nginx's limit_req answers (docs/operations.md): an HTML page.
      await page.route('**/locations?**', (route) =>
        route.fulfill({ status: 429, contentType: 'text/html', body: '<html><h1>429 Too Many Requests</h1></html>' }),
      )
      await page.getByRole('button', { name: 'Show more stores' }).click()
      await page.getByRole('alert').filter({ hasText: 'Too many searches just now. Try again in a moment.' }).waitFor()
    } finally {
      // A request still routed when the page closes would reject its fulfill() unawaited.
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('the service out of reach: the alert has a button that asks again', async () => {
    const page = await newPage(demo.browser)
    let down = true
    await page.route('**/locations?*', (route) => (down ? route.abort('connectionrefused') : route.continue()))
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=London`)
      const alert = page.getByRole('alert').filter({ hasText: 'The stores could not be loaded.' })
      await alert.waitFor()
      expect(await page.locator('.sl-item').count()).toBe(0)
      down = false
      await alert.getByRole('button', { name: 'Try again' }).click()
      await page.locator('.sl-item').first().waitFor()
      expect(await alert.count()).toBe(0)
    } finally {
      await page.close()
    }
  })

  test('"Try again" pressed by keyboard: the focus waits on the status line, whether the search then works or not', async () => {
    const page = await newPage(demo.browser)
    let down = true
    await page.route('**/locations?*', (route) => (down ? route.abort('connectionrefused') : route.continue()))
    const focused = () =>
      page.evaluate(() => {
        const el = (globalThis as unknown as { document: PageDocument }).document.activeElement
        return el?.getAttribute('role') ?? el?.getAttribute('class') ?? el?.tagName ?? ''
      })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=London`)
      const again = page.getByRole('button', { name: 'Try again' })
      // Still down: the button goes, and comes again in a new alert.
      await again.focus()
      await page.keyboard.press('Enter')
      await page.getByRole('alert').filter({ hasText: 'The stores could not be loaded.' }).waitFor()
      expect(await focused()).toBe('status')
      await page.keyboard.press('Tab')
      expect(await focused()).toBe('sl-button sl-retry')
      down = false
      await page.keyboard.press('Space')
      await page.locator('.sl-item').first().waitFor()
      expect(await focused()).toBe('status')
      expect(await page.getByRole('status').textContent()).toMatch(/^\d+ stores within .* of London/)
      // The list comes next.
      await page.keyboard.press('Tab')
      expect(await focused()).toBe('sl-name')
    } finally {
      await page.close()
    }
  })

  // Last: the token's budget stays spent until the minute is over.
  test('the rate limit: a visitor over it is told to try again in a moment', async () => {
    // A context of its own: a shared one's cache may hold the next page from an earlier test.
    const page = await newPage(demo.browser)
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?place=Paris`)
      await page.locator('.sl-item').first().waitFor()
      expect(cli('locator', 'set', demo.server.locatorId, '--rate-limit', '1').code).toBe(0)
      // Spent before the click: the server has read the new limit, and this minute's one request is used.
      const probe = `${demo.server.url}/public/v1/${demo.server.token}/locations?near=Paris`
      for (let tries = 0; (await fetch(probe)).status !== 429; tries++) {
        expect(tries, 'the token over its limit of 1 a minute').toBeLessThan(100)
        await Bun.sleep(100)
      }
      await page.getByRole('button', { name: 'Show more stores' }).click()
      await page.getByRole('alert').filter({ hasText: 'Too many searches just now. Try again in a moment.' }).waitFor()
      expect(await page.locator('.sl-item').count()).toBe(10)
    } finally {
      cli('locator', 'set', demo.server.locatorId, '--rate-limit', '1000')
      await page.close()
    }
  })

  test('"open now" that empties the list says so, not to widen the distance alone', async () => {
    const made = json('locator', 'create', '--name', 'Shut')
    json('locator', 'set', made.locator.id, '--query-api', 'on', '--unit', 'km')
    const file = join(demo.server.dir, 'shut.json')
    const week = Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, 'closed']),
    )
    const shut = { name: 'Always Shut', address: '1 Shut Street', coordinates: { lat: 10, lng: 10 }, hours: week }
    writeFileSync(file, JSON.stringify([shut]))
    json('locations', 'import', made.locator.id, '--file', file)
    const page = await newPage(demo.browser)
    try {
      await page.goto(`${demo.server.url}/l/${made.locator.public_token}?sl_place=Here&sl_lat=10&sl_lng=10&sl_open=1`)
      const status = page.locator('.sl-status')
      await status.filter({ hasText: 'open now' }).waitFor()
      expect(await status.textContent()).toBe(
        'No store within 25\u00a0km of Here is open now. Clear “Open now”, or try a larger distance.',
      )
      await page.getByRole('checkbox', { name: 'Open now' }).uncheck()
      await status.filter({ hasText: '1 store within 25\u00a0km of Here' }).waitFor()
    } finally {
      await page.close()
    }
  })
})
