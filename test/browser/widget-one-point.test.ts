// Stores on one point, in a real browser: a spreadsheet without coordinates puts a town's stores on
// its centre. After a search for the town the map stays at a town's scale, and each store is a pin
// of its own to see and press. On a phone the switch to the map does not cover the map in sight.
import { beforeAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { cliRunner } from '../helpers'
import {
  aTurnLater,
  chromiumPath,
  heldUntilReleased,
  networkSettled,
  newPage,
  type PageDocument,
  type PageElement,
  pastZoomEnd,
  starting,
  startingFirst,
  watchRequests,
} from './browser'
import { openFirstMap } from './map-rest'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()
const { json } = cliRunner(() => demo.server.dbPath)

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

/** The token of a locator of three stores on Köln's centre, as the search finds it. */
let token = ''
/** The token of a locator of twenty stores on Köln's centre and two a few metres from it. */
let many = ''
/** The token of a locator of five stores on Köln's centre and thirty in a ring 300 km around it. */
let ringed = ''
/** Ringed's stores on Köln's centre. */
const STACK = ['Köln A', 'Köln B', 'Köln C', 'Köln D', 'Köln E']

beforeAll(async () => {
  if (chromiumPath === null) return
  const answer = (await demo.server.api('locations?near=K%C3%B6ln&limit=1')) as unknown as {
    meta: { query: { center: { lat: number; lng: number } } }
  }
  const { lat, lng } = answer.meta.query.center
  const made = json('locator', 'create', '--name', 'One point')
  json('locator', 'set', made.locator.id, '--query-api', 'on', '--unit', 'km')
  const file = join(demo.server.dir, 'one-point.csv')
  const rows = ['Dom', 'Ring', 'Hafen'].map((name) => `Köln ${name},"Köln, Deutschland",${lat},${lng}`)
  writeFileSync(file, `name,address,lat,lng\n${rows.join('\n')}\n`)
  json('locations', 'import', made.locator.id, '--file', file)
  token = made.locator.public_token
  const more = json('locator', 'create', '--name', 'Twenty on one point')
  json('locator', 'set', more.locator.id, '--query-api', 'on', '--unit', 'km')
  const stores: [string, number, number][] = Array.from({ length: 20 }, (_, i) => [`Köln ${i + 1}`, lat, lng])
  stores.push(['Köln Nord', lat + 0.00003, lng + 0.00002], ['Köln Süd', lat - 0.00004, lng - 0.00003])
  writeFileSync(
    file,
    `name,address,lat,lng\n${stores.map(([name, y, x]) => `${name},"Köln, Deutschland",${y},${x}\n`).join('')}`,
  )
  json('locations', 'import', more.locator.id, '--file', file)
  many = more.locator.public_token
  const ring = json('locator', 'create', '--name', 'Five on one point')
  json('locator', 'set', ring.locator.id, '--query-api', 'on', '--unit', 'km')
  const around: [string, number, number][] = Array.from({ length: 30 }, (_, i) => {
    const turn = (2 * Math.PI * i) / 30
    return [`Ring ${i + 1}`, lat + 3 * Math.sin(turn), lng + 4.5 * Math.cos(turn)]
  })
  for (const name of STACK) around.push([name, lat, lng])
  writeFileSync(
    file,
    `name,address,lat,lng\n${around.map(([name, y, x]) => `${name},"Somewhere",${y},${x}\n`).join('')}`,
  )
  json('locations', 'import', ring.locator.id, '--file', file)
  ringed = ring.locator.public_token
}, 60_000)

/** The finder page of the locator with Köln searched; resolves once its three pins are drawn and the fit is over. */
async function searchedKoeln(page: Page): Promise<void> {
  await page.goto(`${demo.server.url}/l/${token}?place=K%C3%B6ln`)
  await page.locator('.sl-pin').nth(2).waitFor()
  await pastZoomEnd(page)
}

/** The stores' ids whose pin is the one drawn on top at its own middle. */
const pinsOnTop = (page: Page) =>
  page.evaluate(() => {
    type Rect = { left: number; top: number; width: number; height: number }
    type Pin = PageElement & { getBoundingClientRect: () => Rect }
    const { document } = globalThis as unknown as {
      document: PageDocument & { elementFromPoint: (x: number, y: number) => PageElement | null }
    }
    return Array.from(document.querySelectorAll('.sl-pin') as ArrayLike<Pin>).flatMap((pin) => {
      const b = pin.getBoundingClientRect()
      const top = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2)?.closest('.sl-pin')
      return top === pin ? [pin.dataset.id] : []
    })
  })

describe.skipIf(chromiumPath === null)('stores on one point, in Chromium', () => {
  test("the map stays at a town's scale and each store is a pin of its own to press", async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    try {
      await searchedKoeln(page)
      // Without tiles the country shapes show nothing nearer: a scale of metres is an empty field.
      expect(await page.locator('.leaflet-control-scale-line').first().textContent()).toMatch(/^\d+ km$/)
      expect(await pinsOnTop(page)).toHaveLength(3)
      await page.locator('.sl-pin').nth(2).click()
      await page.locator('.sl-item.sl-selected').waitFor()
      expect(await page.locator('.sl-item').nth(2).getAttribute('class')).toContain('sl-selected')
    } finally {
      await page.close()
    }
  })

  test('on a phone, the switch to the map does not cover the map in sight, nor its pins', async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      await searchedKoeln(page)
      // Scrolled to the map, its middle, the pins, where the switch floats at the screen's foot.
      const pin = (await page.locator('.sl-pin').nth(1).boundingBox())!
      await page.evaluate(`scrollBy(0, ${Math.round(pin.y + pin.height / 2 - (844 - 34))})`)
      await aTurnLater(page)
      await page.screenshot({ path: '/tmp/h10-phone.png' })
      const map = (await page.locator('.sl-map').boundingBox())!
      const button = page.locator('.sl-view')
      const box = await button.boundingBox()
      // Not shown there: hidden, or see-through and let through to the map.
      const opacity = await page.evaluate<string>("getComputedStyle(document.querySelector('.sl-view')).opacity")
      const covers =
        (await button.isVisible()) &&
        opacity !== '0' &&
        box !== null &&
        box.y < map.y + map.height &&
        box.y + box.height > map.y
      expect(covers).toBe(false)
      expect(await pinsOnTop(page)).toHaveLength(3)
    } finally {
      await page.close()
    }
  })

  test("on a phone, the switch to the map is the keyboard's over the map too, shown as it has the focus", async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      await searchedKoeln(page)
      // The map's top in sight under the switch: it is not shown there, and the Tab after Search reaches it.
      await page.getByRole('button', { name: 'Search' }).focus()
      await page.keyboard.press('Tab')
      const pin = (await page.locator('.sl-pin').nth(1).boundingBox())!
      await page.evaluate(`scrollBy(0, ${Math.round(pin.y + pin.height / 2 - (844 - 34))})`)
      await aTurnLater(page)
      await aTurnLater(page)
      const focused = await page.evaluate(() => {
        const { document, getComputedStyle } = globalThis as unknown as {
          document: { activeElement: { className: string } }
          getComputedStyle: (el: unknown) => { opacity: string; visibility: string }
        }
        const el = document.activeElement
        const { opacity, visibility } = getComputedStyle(el)
        return `${el.className} ${visibility} ${opacity}`
      })
      expect(focused).toMatch(/\bsl-view\b.* visible 1$/)
    } finally {
      await page.close()
    }
  })

  test("twenty stores on one point and two a few metres off: a town's view on a phone, every pin in it", async () => {
    const host = hostPage(
      `<div data-storeloc="${many}" data-api="${demo.server.url}" data-limit="22"></div><script src="${demo.server.url}/widget.js"></script>`,
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
    )
    const page = await newPage(demo.browser, PHONE)
    try {
      await page.goto(host.url)
      await page.locator('.sl-input').first().fill('Köln')
      await page.keyboard.press('Enter')
      await page.locator('.sl-pin').nth(21).waitFor()
      await pastZoomEnd(page)
      await page.locator('.sl-map').scrollIntoViewIfNeeded()
      await aTurnLater(page)
      expect(await page.locator('.leaflet-control-scale-line').first().textContent()).toMatch(/^\d+ km$/)
      const map = (await page.locator('.sl-map').boundingBox())!
      const outside = []
      for (const pin of await page.locator('.sl-pin').all()) {
        const b = (await pin.boundingBox())!
        if (b.y < map.y || b.y + b.height > map.y + map.height || b.x < map.x || b.x + b.width > map.x + map.width)
          outside.push(await pin.textContent())
      }
      expect(outside).toEqual([])
      expect(await pinsOnTop(page)).toHaveLength(22)
    } finally {
      await page.close()
      host.stop()
    }
  })

  test('before a search, the dots of stores on one point, zoomed in to, are each on top to press', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })
    try {
      await page.goto(`${demo.server.url}/l/${token}`)
      await page.locator('.sl-cluster').waitFor()
      // No zoom of the bubble's splits it: the map zoomed in by hand, till the stores are dots.
      for (let presses = 0; (await page.locator('.sl-dot').count()) < 3 && presses < 8; presses++) {
        const answered = page.waitForResponse((r) => r.url().includes('/clusters?'))
        await page.getByRole('button', { name: 'Zoom in', exact: true }).click()
        await answered
        await aTurnLater(page)
      }
      // The pointer off the map: its name's tooltip over the dot it rests on covers the dot beside.
      await page.mouse.move(0, 0)
      const onTop = await page.evaluate(() => {
        type Rect = { left: number; top: number; width: number; height: number }
        type Dot = PageElement & { getBoundingClientRect: () => Rect; getAttribute: (name: string) => string | null }
        const { document } = globalThis as unknown as {
          document: PageDocument & { elementFromPoint: (x: number, y: number) => Dot | null }
        }
        return Array.from(document.querySelectorAll('.sl-dot') as ArrayLike<Dot>).map((dot) => {
          const b = dot.getBoundingClientRect()
          return document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2)?.getAttribute('aria-label')
        })
      })
      expect(onTop.sort()).toEqual(['Köln Dom', 'Köln Hafen', 'Köln Ring'])
    } finally {
      await page.close()
    }
  })

  test("before a search, a bubble of stores on one point shows them at once at a town's scale", async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })
    try {
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${ringed}`))
      // No zoom splits it: the stores are listed around its point and pinned side by side.
      const bubble = page.locator('.sl-cluster', { hasText: /^5$/ })
      expect(await bubble.getAttribute('aria-label')).toBe('5 stores')
      await bubble.click()
      await page.locator('.sl-pin').nth(4).waitFor()
      await pastZoomEnd(page)
      const names = await page.locator('.sl-item .sl-name').allTextContents()
      expect(names.slice(0, 5).sort()).toEqual(STACK)
      expect(await page.locator('.leaflet-control-scale-line').first().textContent()).toMatch(/^\d+ km$/)
      expect(await pinsOnTop(page)).toHaveLength(await page.locator('.sl-pin').count())
    } finally {
      await page.close()
    }
  })

  test('before a search, Enter on a bubble of stores on one point lists them, the focus on the first picked', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })
    try {
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${ringed}`))
      await page.locator('.sl-cluster', { hasText: /^5$/ }).focus()
      await page.keyboard.press('Enter')
      await page.locator('.sl-pin').nth(4).waitFor()
      await aTurnLater(page)
      const focused = await page.evaluate(() => {
        const { document } = globalThis as unknown as { document: { activeElement: { textContent: string } } }
        return document.activeElement.textContent
      })
      expect(focused).toBe(STACK[0]!)
    } finally {
      await page.close()
    }
  })

  test('before a search, a bubble of stores on one point whose stores fail to load says so, to try again', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })
    try {
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${ringed}`))
      // The cluster's id is gone (clusters rebuilt as a store was added) or the service is busy.
      const failing = (route: { fulfill: (r: object) => Promise<void> }) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"error":{"code":"UNAVAILABLE","message":"Down."}}',
        })
      await page.route('**/clusters/*/leaves?*', failing)
      await page.locator('.sl-cluster', { hasText: /^5$/ }).click()
      const retry = page.locator('[role="alert"] .sl-retry')
      await retry.waitFor()
      expect(await page.locator('[role="alert"]').textContent()).toBe('The stores could not be loaded. Try again')
      await page.unroute('**/clusters/*/leaves?*', failing)
      await retry.click()
      await page.locator('.sl-pin').nth(4).waitFor()
      expect(await page.locator('[role="alert"]').textContent()).toBe('')
    } finally {
      await page.close()
    }
  })

  test('before a search, a bubble of stores on one point answered 503 with Retry-After twice: asked again, listed', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })
    try {
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${ringed}`))
      const leaves = await startingFirst(page, '**/clusters/*/leaves?*')
      await page.locator('.sl-cluster', { hasText: /^5$/ }).click()
      await page.locator('.sl-pin').nth(4).waitFor()
      expect(leaves.refused()).toBe(2)
      expect(await page.locator('[role="alert"]').textContent()).toBe('')
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('before a search, a bubble of stores on one point waiting for the service: the status line says so, as a search', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })
    let ready = false
    try {
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${ringed}`))
      await page.route('**/clusters/*/leaves?*', (route) => (ready ? route.continue() : starting(route)))
      await page.locator('.sl-cluster', { hasText: /^5$/ }).click()
      await page.getByRole('status').filter({ hasText: 'The store finder is busy just now. Trying again…' }).waitFor()
      ready = true
      await page.locator('.sl-pin').nth(4).waitFor()
      expect(await page.getByRole('status').textContent()).toMatch(/^\d+ stores within /)
      expect(await page.locator('[role="alert"]').textContent()).toBe('')
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('before a search, a bubble of stores on one point unanswered: still waiting said, as a search; pressed again, listed', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })
    let asked = 0
    try {
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${ringed}`))
      // The first press's taken and never answered, till the page gives it up.
      await page.route('**/clusters/*/leaves?*', (route) => (asked++ === 0 ? new Promise(() => {}) : route.continue()))
      const bubble = page.locator('.sl-cluster', { hasText: /^5$/ })
      await bubble.click()
      await page.getByRole('status').filter({ hasText: 'Still waiting for the store finder…' }).waitFor()
      await bubble.click()
      await page.locator('.sl-pin').nth(4).waitFor()
      expect(await page.getByRole('status').textContent()).toMatch(/^\d+ stores within /)
      expect(await page.locator('[role="alert"]').textContent()).toBe('')
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test("before a search, a bubble's stores waited for while the service starts: the visitor's search wins", async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })
    let asked = 0
    await page.route('**/clusters/*/leaves?*', (route) => (asked++, starting(route)))
    try {
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${ringed}`))
      const again = page.waitForRequest((r) => r.url().includes('/leaves?') && asked === 2)
      await page.locator('.sl-cluster', { hasText: /^5$/ }).click()
      await again
      await page.locator('.sl-place input').fill('Paris')
      await page.keyboard.press('Enter')
      await page.waitForURL(/Paris/)
      const asks = asked
      // Longer than the Retry-After: a wait not ended would ask again by now.
      await page.waitForTimeout(2500)
      expect(asked).toBe(asks)
      expect(await page.locator('[role="alert"]').textContent()).toBe('')
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('before a search, a bubble whose id the rebuilt clusters know no more: trying again redraws the bubbles', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })
    try {
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${ringed}`))
      const body = '{"error":{"code":"CLUSTER_NOT_FOUND","message":"Cluster not found."}}'
      await page.route('**/clusters/*/leaves?*', (route) =>
        route.fulfill({ status: 404, contentType: 'application/json', body }),
      )
      await page.locator('.sl-cluster', { hasText: /^5$/ }).click()
      const retry = page.locator('[role="alert"] .sl-retry')
      await retry.waitFor()
      const redrawn = page.waitForRequest('**/clusters?*')
      // By keyboard: the button goes as the bubbles are asked anew; the focus waits on the status line.
      await retry.focus()
      await page.keyboard.press('Enter')
      await redrawn
      await page.locator('.sl-cluster', { hasText: /^5$/ }).waitFor()
      const onStatus = () => {
        const { document } = globalThis as unknown as { document: PageDocument }
        return document.activeElement?.classList.contains('sl-status') ?? false
      }
      expect(await page.evaluate(onStatus)).toBe(true)
      expect(await page.locator('[role="alert"]').textContent()).toBe('')
    } finally {
      await page.close()
    }
  })

  test('before a search, a bubble none of whose stores is left (closed since, with open now set) is redrawn', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })
    try {
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${ringed}`))
      const none = {
        success: true,
        data: { locations: [], pagination: { offset: 0, limit: 1, total: 0, hasMore: false } },
      }
      await page.route('**/clusters/*/leaves?*', (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(none) }),
      )
      const redrawn = page.waitForRequest('**/clusters?*')
      await page.locator('.sl-cluster', { hasText: /^5$/ }).click()
      expect(new URL((await redrawn).url()).searchParams.get('bbox')).not.toBeNull()
    } finally {
      await page.close()
    }
  })

  test("before a search, a bubble's stores answered after the visitor searched elsewhere leave that search", async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })
    try {
      watchRequests(page)
      const release = await heldUntilReleased(page, '**/clusters/*/leaves?*')
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${ringed}`))
      await page.locator('.sl-cluster', { hasText: /^5$/ }).click()
      await page.locator('.sl-place input').fill('Paris')
      await page.keyboard.press('Enter')
      // The address is written as the search is asked, then once it is answered: with its point.
      await page.waitForURL(/sl_place=Paris.*sl_lat=/)
      const searched = page.url()
      release()
      await networkSettled(page)
      expect(page.url()).toBe(searched)
    } finally {
      await page.close()
    }
  })

  test("before a search, a bubble's stores failing after the visitor searched elsewhere say nothing over it", async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })
    try {
      watchRequests(page)
      const held: { fulfill: (r: object) => Promise<void> }[] = []
      await page.route('**/clusters/*/leaves?*', (route) => void held.push(route))
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${ringed}`))
      await page.locator('.sl-cluster', { hasText: /^5$/ }).click()
      await page.locator('.sl-place input').fill('Paris')
      await page.keyboard.press('Enter')
      await page.waitForURL(/Paris/)
      for (const route of held) await route.fulfill({ status: 503, body: '' })
      await networkSettled(page)
      expect(await page.locator('[role="alert"]').textContent()).toBe('')
    } finally {
      await page.close()
    }
  })
})
