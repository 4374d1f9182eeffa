// The widget as a keyboard, a screen reader and a small screen meet it, in a real browser against
// a real server with the demo data: the filter dropdown on a phone, the finder's map on a short
// screen, the widget's own language, the list's scroll, the map's stores and clusters by name,
// reduced motion, badges' text on the operator's colours; several finders on one page, and one
// without a token.
import { describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner } from '../helpers'
import { chromiumPath, newPage, type PageDocument } from './browser'
import { countMoves, quickDrag } from './map-moves'
import { openFirstMap } from './map-rest'
import { docsSnippet, hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

describe.skipIf(chromiumPath === null)('the widget by keyboard, screen reader and phone, in Chromium', () => {
  test('on a phone 320 px wide, a filter dropdown opens within the screen', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?place=London`)
      await page.locator('.sl-item').first().waitFor()
      await page.locator('.sl-filters-summary').click()
      const dropdown = page.locator('.sl-dropdown > summary').first()
      await dropdown.click()
      const panel = page.locator('.sl-dropdown[open] > .sl-group').first()
      await panel.waitFor()
      const box = (await panel.boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(320)
      const width = await page.evaluate(
        () => (globalThis as unknown as { document: PageDocument }).document.documentElement.scrollWidth,
      )
      expect(width).toBeLessThanOrEqual(320)
    } finally {
      await page.close()
    }
  })

  test.each([
    [568, 320],
    [1280, 400],
  ])("the finder page's map keeps 280 px on a screen %p x %p", async (width, height) => {
    const page = await newPage(demo.browser, { viewport: { width, height } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?place=London`)
      await page.locator('.sl-item').first().waitFor()
      const map = (await page.locator('.sl-map').boundingBox())!
      expect(map.height).toBeGreaterThanOrEqual(280)
    } finally {
      await page.close()
    }
  })

  test('the count of suggestions a screen reader hears takes the form its language gives the number', async () => {
    const heard = async (lang: string, typed: string) => {
      const { url, stop } = hostPage(
        `<div data-storeloc="${demo.server.token}" data-lang="${lang}" data-map="off"></div><script src="${demo.server.url}/widget.js"></script>`,
      )
      const page = await newPage(demo.browser)
      try {
        await page.goto(url)
        await page.locator('.sl-place input').fill(typed)
        const count = page.locator('.sl-place .sl-visually-hidden[aria-live]')
        await count.filter({ hasText: /\d/ }).waitFor()
        return await count.textContent()
      } finally {
        stop()
        await page.close()
      }
    }
    // French counts none as one ("0 suggestion"); German, as English, as more than one.
    expect(await heard('fr', 'Xqzwvy')).toBe('0 suggestion')
    expect(await heard('de', 'Xqzwvy')).toBe('0 Vorschläge')
  })

  test("the widget says its own language on a page of another, and gives the page's back when it goes", async () => {
    const { url, stop } = hostPage(
      `<div id="finder" data-storeloc="${demo.server.token}" data-lang="fr" data-map="off"></div><script src="${demo.server.url}/widget.js"></script>`,
    )
    const page = await newPage(demo.browser)
    try {
      await page.goto(url)
      await page.locator('.sl-form').waitFor()
      expect(await page.locator('#finder').getAttribute('lang')).toBe('fr')
      expect(await page.locator('html').getAttribute('lang')).toBe('en')
      // Mounted again (the one there goes), then taken away.
      await page.evaluate(() => {
        const g = globalThis as unknown as {
          Storeloc: { mount: (el: unknown) => { destroy: () => void } }
          document: PageDocument
        }
        g.Storeloc.mount(g.document.querySelector('#finder')).destroy()
      })
      expect(await page.locator('#finder').getAttribute('lang')).toBeNull()
    } finally {
      stop()
      await page.close()
    }
  })

  test('a new search shows its list from the top, not where the last one was scrolled to', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=London`)
      await page.locator('.sl-item').nth(5).waitFor({ state: 'attached' })
      const results = page.locator('.sl-results')
      await results.evaluate((el) => {
        ;(el as unknown as { scrollTop: number }).scrollTop = 100_000
      })
      expect(await results.evaluate((el) => (el as unknown as { scrollTop: number }).scrollTop)).toBeGreaterThan(100)
      const box = page.getByRole('combobox', { name: 'Town or postcode' })
      await box.fill('Manchester')
      await box.press('Enter')
      await page.locator('.sl-status', { hasText: 'Manchester' }).waitFor()
      expect(await results.evaluate((el) => (el as unknown as { scrollTop: number }).scrollTop)).toBe(0)
    } finally {
      await page.close()
    }
  })

  test('before a search, a store alone on the map is a named button that Enter searches around; clusters are read as counts of stores to zoom in to', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      const cluster = page.locator('.sl-cluster').first()
      await cluster.waitFor()
      expect(await cluster.getAttribute('role')).toBe('button')
      expect(await cluster.getAttribute('aria-label')).toMatch(/^\d+ stores, Zoom in$/)
      const dot = page.locator('path.sl-dot').first()
      await dot.waitFor()
      expect(await dot.getAttribute('role')).toBe('button')
      // The map is drawn again as it settles (fitted to every store, then its view's own answer,
      // perhaps zoomed out): a dot drawn before may be gone, into a cluster. So a dot is taken and
      // focused as drawn now, then pressed; a redraw between the two leaves Enter on the page's
      // body, which a listener before the widget's sees, and another dot is taken.
      type KeyedPage = {
        addEventListener: (type: string, listener: (e: { target: unknown }) => void, capture: boolean) => void
        keyOn?: string
      }
      await page.evaluate(() => {
        const window = globalThis as unknown as KeyedPage
        window.addEventListener(
          'keydown',
          (e) => {
            const on = e.target as { isConnected?: boolean; getAttribute?: (name: string) => string | null }
            window.keyOn = on.isConnected ? (on.getAttribute?.('aria-label') ?? '') : ''
          },
          true,
        )
      })
      let name = ''
      let pressed: string | undefined
      for (let tries = 0; tries < 10 && pressed !== name; tries++) {
        await dot.waitFor()
        name = await dot.evaluate((el) => {
          ;(el as unknown as { focus: () => void }).focus()
          return el.getAttribute('aria-label') ?? ''
        })
        expect(name.length).toBeGreaterThan(0)
        await page.keyboard.press('Enter')
        pressed = await page.evaluate(() => (globalThis as unknown as KeyedPage).keyOn)
      }
      expect(pressed).toBe(name)
      await page.locator('.sl-item').first().waitFor()
      const names = await page.locator('.sl-item .sl-name').allTextContents()
      expect(names).toContain(name)
      // The dot went with the map's redraw: the focus is on that store in the list.
      const focused = await page.evaluate(
        () => (globalThis as unknown as { document: PageDocument }).document.activeElement?.textContent,
      )
      expect(focused).toBe(name)
    } finally {
      await page.close()
    }
  })

  test("a search's pins are not read out as a row of their numbers: the list says what they show", async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=London`)
      await page.locator('.sl-pin').nth(5).waitFor()
      const map = await page.getByRole('region', { name: 'Map of the stores' }).ariaSnapshot()
      expect(map).toContain('button "Zoom in"')
      // A pin's number, alone or in a row of them, as screen readers would meet it.
      expect(map.split('\n').filter((line) => /^\s*- text: [\d ]+$/.test(line))).toEqual([])
      // Its store's name, for the pointer.
      expect(await page.locator('.sl-marker').first().getAttribute('title')).toBe(
        await page.locator('.sl-item .sl-name').first().textContent(),
      )
    } finally {
      await page.close()
    }
  })

  test('with reduced motion asked for, the map neither fades nor animates its zoom', async () => {
    const classes = async (reducedMotion: 'reduce' | 'no-preference') => {
      const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 }, reducedMotion })
      try {
        await page.goto(`${demo.server.url}/l/${demo.server.token}`)
        await page.locator('.sl-cluster').first().waitFor()
        return (await page.locator('.leaflet-container').getAttribute('class'))!.split(' ')
      } finally {
        await page.close()
      }
    }
    expect(await classes('no-preference')).toContain('leaflet-fade-anim')
    const still = await classes('reduce')
    expect(still).not.toContain('leaflet-fade-anim')
    expect(still).not.toContain('leaflet-zoom-anim')
  })

  test('with reduced motion asked for, the map jumps where it would glide: a pan by arrow key, a drag let go', async () => {
    /** How the map's view moves after an arrow key, and after a quick drag let go. */
    const moves = async (reducedMotion: 'reduce' | 'no-preference') => {
      const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 }, reducedMotion })
      try {
        // Counted from a map at rest: the first fit's moves are over.
        await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${demo.server.token}`))
        await page.locator('.sl-map').focus()
        const movedByKey = await countMoves(page, 'keydown')
        await page.keyboard.press('ArrowRight')
        const byKey = await movedByKey()
        const map = (await page.locator('.sl-map').boundingBox())!
        const [x, y] = [map.x + map.width / 2, map.y + map.height - 60]
        // The same quick drag in both runs, quick by the clock however slow the page's frames: the
        // one that moves none is not let go too slowly to glide.
        const moved = await countMoves(page, 'mouseup')
        await quickDrag(page, x, y, -150)
        return [byKey, await moved()]
      } finally {
        await page.close()
      }
    }
    // A glide, however few frames a slow page gives it, moves the map at its start and at its end.
    const [glideByKey, glideAfterDrag] = await moves('no-preference')
    for (const glide of [glideByKey, glideAfterDrag]) {
      expect(glide!.glided).toBe(true)
      expect(glide!.moves).toBeGreaterThan(1)
    }
    expect(await moves('reduce')).toEqual([
      { moves: 1, glided: false },
      { moves: 0, glided: false },
    ])
  })

  test("a badge's text is dark on a light colour and white on a dark one", async () => {
    const cli = cliRunner(() => demo.server.dbPath)
    cli.json(
      'custom-field',
      'add',
      demo.server.locatorId,
      '--id',
      'deal',
      '--name',
      'Deal',
      '--type',
      'badge',
      '--color',
      '#ffd400',
    )
    cli.json(
      'custom-field',
      'add',
      demo.server.locatorId,
      '--id',
      'club',
      '--name',
      'Club',
      '--type',
      'badge',
      '--color',
      '#036',
    )
    const file = join(demo.server.dir, 'badges.json')
    const store = {
      external_id: 'BADGES',
      name: 'Badge Corner',
      address: '1 Badge Street',
      coordinates: { lat: -20, lng: -20 },
    }
    writeFileSync(file, JSON.stringify([{ ...store, custom_fields: { deal: 'Sale', club: 'Members' } }]))
    cli.json('locations', 'import', demo.server.locatorId, '--file', file)
    for (
      let i = 0;
      i < 50 && (await demo.server.api('locations?lat=-20&lng=-20&radius=1')).data.locations.length === 0;
      i++
    )
      await Bun.sleep(100)
    const page = await newPage(demo.browser)
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=Here&sl_lat=-20&sl_lng=-20`)
      const colour = (text: string) =>
        page
          .locator('.sl-badge', { hasText: text })
          .evaluate(
            (el) =>
              (globalThis as unknown as { getComputedStyle: (e: unknown) => { color: string } }).getComputedStyle(el)
                .color,
          )
      expect(await colour('Sale')).toBe('rgb(29, 35, 41)')
      expect(await colour('Members')).toBe('rgb(255, 255, 255)')
    } finally {
      await page.close()
    }
  })

  test("a store's link, email and phone fields are each a line of their own", async () => {
    const cli = cliRunner(() => demo.server.dbPath)
    for (const type of ['url', 'email', 'phone'])
      cli.json(
        'custom-field',
        'add',
        demo.server.locatorId,
        '--id',
        `shop_${type}`,
        '--name',
        `Shop ${type}`,
        '--type',
        type,
      )
    const file = join(demo.server.dir, 'links.json')
    const custom_fields = { shop_url: 'https://shop.example/a', shop_email: 'a@shop.example', shop_phone: '+44 1' }
    const store = {
      external_id: 'LINKS',
      name: 'Link Corner',
      address: '1 Link Street',
      coordinates: { lat: -21, lng: -21 },
    }
    writeFileSync(file, JSON.stringify([{ ...store, custom_fields }]))
    cli.json('locations', 'import', demo.server.locatorId, '--file', file)
    for (
      let i = 0;
      i < 50 && (await demo.server.api('locations?lat=-21&lng=-21&radius=1')).data.locations.length === 0;
      i++
    )
      await Bun.sleep(100)
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=Here&sl_lat=-21&sl_lng=-21`)
      const address = (await page.locator('.sl-item .sl-address').boundingBox())!
      const boxes = []
      for (const text of ['Shop url', 'Shop email', 'Shop phone'])
        boxes.push((await page.locator('.sl-item a', { hasText: text }).boundingBox())!)
      // Each starts a line, where the address does, below the one before.
      for (const box of boxes) expect(box.x).toBe(address.x)
      expect(boxes[1]!.y).toBeGreaterThanOrEqual(boxes[0]!.y + boxes[0]!.height)
      expect(boxes[2]!.y).toBeGreaterThanOrEqual(boxes[1]!.y + boxes[1]!.height)
    } finally {
      await page.close()
    }
  })

  test("in German, the service's default group of tags is named in German", async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?lang=de&place=London`)
      await page.locator('.sl-item').first().waitFor()
      expect(await page.locator('.sl-dropdown > summary').allTextContents()).toContain('Sonstiges')
      expect(await page.locator('.sl-dropdown > summary').allTextContents()).not.toContain('Other')
    } finally {
      await page.close()
    }
  })

  test("each store's links name the store where they would read the same, and say when they open a new tab", async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=London`)
      await page.locator('.sl-item').first().waitFor()
      const stores = await page.locator('.sl-item .sl-name').allTextContents()
      expect(stores.length).toBeGreaterThan(1)
      for (const store of stores) {
        const named = (name: string) => page.getByRole('link', { name, exact: true }).count()
        expect(await named(`Directions, ${store} (opens in a new tab)`)).toBe(1)
        expect(await named(`Store page, ${store}`)).toBe(1)
      }
      const websites = await page.locator('.sl-item a[href^="https://northwind"]').count()
      expect(websites).toBeGreaterThan(0)
      expect(await page.getByRole('link', { name: /^Website: .* \(opens in a new tab\)$/ }).count()).toBe(websites)
      expect(await page.getByRole('link', { name: /^Call [\d ]+$/ }).count()).toBeGreaterThan(0)
      // Read out, not shown: the links look as they did.
      expect(await page.locator('.sl-item .sl-button').first().textContent()).toBe('Directions')
    } finally {
      await page.close()
    }
  })

  test("data-heading-level sets the stores' heading level: h2 under a page's h1; h3 without it", async () => {
    const levels = async (attribute: string) => {
      const { url, stop } = hostPage(
        `<div data-storeloc="${demo.server.token}" data-place="London" data-map="off"${attribute}></div><script src="${demo.server.url}/widget.js"></script>`,
      )
      const page = await newPage(demo.browser)
      try {
        await page.goto(url)
        await page.locator('.sl-item').first().waitFor()
        return await page.locator('.sl-title').evaluateAll((els) => [...new Set(els.map((e) => e.tagName))])
      } finally {
        stop()
        await page.close()
      }
    }
    expect(await levels(' data-heading-level="2"')).toEqual(['H2'])
    expect(await levels('')).toEqual(['H3'])
    expect(await levels(' data-heading-level="9"')).toEqual(['H3'])
  })

  test('after the search button, a skip button, seen only when focused, moving nothing, takes the keyboard past the filters to the first store', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=London`)
      await page.locator('.sl-item').first().waitFor()
      await page.locator('.sl-filters-summary').waitFor()
      const skip = page.getByRole('button', { name: 'Skip to the stores found' })
      expect((await skip.boundingBox())!.width).toBeLessThanOrEqual(1)
      const filters = page.locator('.sl-filters-summary')
      const before = (await filters.boundingBox())!
      await page.getByRole('button', { name: 'Search', exact: true }).focus()
      await page.keyboard.press('Tab')
      expect(
        await skip.evaluate(
          (el) => el === (globalThis as unknown as { document: PageDocument }).document.activeElement,
        ),
      ).toBe(true)
      expect((await skip.boundingBox())!.width).toBeGreaterThan(50)
      // Shown, it lies over the filters: nothing below it moves.
      expect(await filters.boundingBox()).toEqual(before)
      await page.keyboard.press('Enter')
      const first = await page.locator('.sl-item .sl-name').first().textContent()
      const focused = await page.evaluate(
        () => (globalThis as unknown as { document: PageDocument }).document.activeElement?.textContent,
      )
      expect(focused).toBe(first)
    } finally {
      await page.close()
    }
  })

  test("the map has a scale in the widget's unit, and keeps room around its pins", async () => {
    const scales = async (unit: string) => {
      const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
      try {
        await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=London&unit=${unit}`)
        await page.locator('.sl-pin').first().waitFor()
        const map = (await page.locator('.sl-map').boundingBox())!
        for (const pin of await page.locator('.sl-pin').all()) {
          const box = (await pin.boundingBox())!
          expect(box.y).toBeGreaterThanOrEqual(map.y)
          expect(box.y + box.height).toBeLessThanOrEqual(map.y + map.height)
        }
        return (await page.locator('.leaflet-control-scale-line').allTextContents()).map((t) => t.split(' ')[1])
      } finally {
        await page.close()
      }
    }
    // One line each, metric or imperial.
    expect(['m', 'km']).toContain((await scales('km')).join())
    expect(['ft', 'mi']).toContain((await scales('miles')).join())
  })

  test('two finders on one page are two named search landmarks, each list and map named alike', async () => {
    const finder = (label: string, map = 'on') =>
      `<div data-storeloc="${demo.server.token}" data-map="${map}" data-place="London"${label}></div>`
    const { url, stop } = hostPage(
      `${finder(' data-label="Bike shops"')}${finder(' data-label="Service centres"')}${finder('', 'off')}<script src="${demo.server.url}/widget.js"></script>`,
    )
    const page = await newPage(demo.browser)
    try {
      await page.goto(url)
      await page.locator('.sl-item').first().waitFor()
      const named = (role: 'search' | 'list') =>
        page.getByRole(role).evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')))
      expect(await named('search')).toEqual(['Bike shops', 'Service centres', 'Store finder'])
      expect(await page.getByRole('search', { name: 'Service centres' }).count()).toBe(1)
      expect(await named('list')).toEqual(['Bike shops', 'Service centres', 'Stores'])
      await page.locator('.sl-map[aria-label]').nth(1).waitFor()
      const maps = await page.locator('.sl-map').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')))
      expect(maps).toEqual(['Map of the stores: Bike shops', 'Map of the stores: Service centres'])
    } finally {
      stop()
      await page.close()
    }
  })

  test("an element with an empty token says so in its place, in the visitor's language, and how to mend it in the console; the next one still mounts", async () => {
    const snippet = docsSnippet(demo.server.url, demo.server.token)
    const { url: pageUrl, stop } = hostPage(`<div data-storeloc="" data-lang="de"></div>${snippet}`)
    const page = await newPage(demo.browser)
    const errors: string[] = []
    const logged: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (m) => logged.push(m.text()))
    try {
      await page.goto(pageUrl)
      await page
        .getByRole('alert')
        .filter({ hasText: 'Diese Filialsuche ist mit einem ungültigen Token eingerichtet.' })
        .waitFor()
      await page.getByRole('combobox', { name: 'Town or postcode' }).waitFor()
      expect(errors).toEqual([])
      // Named as a bad argument, not by the class's minified name.
      expect(logged.join('\n')).toContain('TypeError: Storeloc.mount: no token. Set data-storeloc="pk_..."')
      // The widget's alert, as its other failures show.
      const note = page.locator('[data-storeloc=""] .sl-error[role=alert]')
      const edge = await note.evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle: (e: unknown) => { borderLeftColor: string } }).getComputedStyle(
            el,
          ).borderLeftColor,
      )
      expect(edge).toBe('rgb(179, 38, 30)')
    } finally {
      stop()
      await page.close()
    }
  })
  test('two finders on one page keep their searches apart in the URL: sl_ and sl2_', async () => {
    const snippet = docsSnippet(demo.server.url, demo.server.token)
    const { url: pageUrl, stop } = hostPage(`<div data-storeloc="${demo.server.token}"></div>${snippet}`)
    const page = await newPage(demo.browser)
    try {
      await page.goto(pageUrl)
      const boxes = page.getByRole('combobox', { name: 'Town or postcode' })
      await boxes.nth(1).waitFor()
      await boxes.nth(1).fill('Lond')
      await page.getByRole('option', { name: 'London, United Kingdom' }).click()
      await page.locator('.sl-item').first().waitFor()
      const params = () => new URL(page.url()).searchParams
      expect(params().get('sl2_place')).toBe('London, United Kingdom')
      expect(params().has('sl_place')).toBe(false)
      await page.reload()
      await page.locator('.sl-item').first().waitFor()
      // After the reload the second finder has its search back; the first has none.
      expect(await boxes.nth(1).inputValue()).toBe('London, United Kingdom')
      expect(await boxes.nth(0).inputValue()).toBe('')
      expect(await page.locator('[data-storeloc]').nth(0).locator('.sl-item').count()).toBe(0)
    } finally {
      stop()
      await page.close()
    }
  })
})
