// The finder while the service is busy (503 with Retry-After), in a real browser against a real
// server with the demo data: every request a visitor waits on (a further page, place suggestions,
// the nearest stores beyond the radius, the map's clusters) has the status line say so after a
// while, and what it said comes back once answered; a search's wait, its filters' included, is
// bounded once; a Retry-After neither seconds nor an HTTP-date names no wait, one sent twice its own.
import { describe, expect, test } from 'bun:test'
import type { Page, Route } from 'playwright-core'
import { chromiumPath, newPage, starting } from './browser'
import { countMoves } from './map-moves'
import { useDemoBrowser } from './server'
import { beyond, readOut, searchFor, withFinderPage, withUnitlessPage } from './waiting-finder'

const demo = useDemoBrowser()

const BUSY = 'The store finder is busy just now. Trying again…'
/** A request the service took and leaves unanswered: nothing is asked again till the visitor presses. */
const STALLED = 'Still waiting for the store finder…'
const PROMPT = 'Type a town or postcode, or use your location, to find the nearest stores.'

/** The page's requests that `url` matches answered as the service starting till `ready()` is called. */
async function busyTill(page: Page, url: Parameters<Page['route']>[0]) {
  let [ready, asked] = [false, 0]
  await page.route(url, (route: Route) => (asked++, ready ? route.continue() : starting(route)))
  return { ready: () => void (ready = true), asked: () => asked }
}

/**
 * A stand-in for the service on 127.0.0.1: what the demo's service answers, but the requests
 * `stalls` picks taken and never answered (till the page gives them up); `stalls` is asked once
 * for each request, in order. `gaveUp()` resolves once the page has given up `n` of them.
 */
function standIn(stalls: (url: URL) => boolean) {
  let [stalled, givenUp] = [0, 0]
  const waits: { n: number; done: () => void }[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    // A request unanswered is kept open for as long as the page waits.
    idleTimeout: 0,
    fetch: async (request) => {
      const url = new URL(request.url)
      if (stalls(url)) {
        stalled++
        return new Promise<Response>((_, reject) =>
          request.signal.addEventListener('abort', () => {
            givenUp++
            for (const w of waits.filter((w) => w.n <= givenUp)) w.done()
            reject(new Error('given up'))
          }),
        )
      }
      const headers = new Headers(request.headers)
      for (const name of ['host', 'accept-encoding']) headers.delete(name)
      const answer = await fetch(`${demo.server.url}${url.pathname}${url.search}`, { headers, redirect: 'manual' })
      const sent = new Headers(answer.headers)
      for (const name of ['content-encoding', 'content-length']) sent.delete(name)
      return new Response(answer.body, { status: answer.status, headers: sent })
    },
  })
  return {
    /** Its finder page for the demo's locator: the widget there asks this stand-in. */
    finder: `http://127.0.0.1:${server.port}/l/${demo.server.token}`,
    stalled: () => stalled,
    gaveUp: (n = 1) => new Promise<void>((done) => (givenUp >= n ? done() : waits.push({ n, done }))),
    stop: () => server.stop(true),
  }
}

/** The first request for a search's second page, which stand-in leaves unanswered. */
const firstMore = () => {
  let asked = 0
  return (url: URL) => url.searchParams.get('offset') === '10' && asked++ === 0
}

/** The status line once it says `text`. */
const statusSaying = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text })

describe.skipIf(chromiumPath === null)('the finder while the service is busy, in Chromium', () => {
  test('"Show more stores" waiting for the service: the status line says it is busy, then the stores shown', async () => {
    await withFinderPage(demo, async (page, open) => {
      await open()
      await searchFor(page, 'London')
      await page.locator('.sl-item').nth(9).waitFor()
      const more = await busyTill(page, (url) => url.searchParams.get('offset') === '10')
      await page.getByRole('button', { name: 'Show more stores' }).click()
      // After the count, which stays; under the button too, where the visitor looks.
      await statusSaying(page, new RegExp(`^\\d+ stores within .* of London.*\\. ${BUSY}$`)).waitFor()
      expect(await page.locator('.sl-more-busy').textContent()).toBe(BUSY)
      expect(await page.locator('.sl-more-busy').isVisible()).toBe(true)
      expect(await page.locator('.sl-root > .sl-error').textContent()).toBe('')
      more.ready()
      await page.locator('.sl-item').nth(10).waitFor()
      await statusSaying(page, /stores within .* of London.*\. Showing 20 of \d+$/).waitFor()
      expect(await page.locator('.sl-more-busy').isVisible()).toBe(false)
    })
  })

  test('"Show more stores" waiting: a screen reader reads the busy words alone, the count not again', async () => {
    await withFinderPage(demo, async (page, open) => {
      await open()
      await searchFor(page, 'London')
      await page.locator('.sl-item').nth(9).waitFor()
      const count = (await page.getByRole('status').textContent()) ?? ''
      await page.getByRole('status').evaluate(readOut)
      const more = await busyTill(page, (url) => url.searchParams.get('offset') === '10')
      await page.getByRole('button', { name: 'Show more stores' }).click()
      await statusSaying(page, `${count}. ${BUSY}`).waitFor()
      more.ready()
      await statusSaying(page, /Showing 20 of \d+$/).waitFor()
      const said = await page.evaluate(() => (globalThis as unknown as { readOut: string[] }).readOut)
      expect(said).toEqual([`. ${BUSY}`, expect.stringMatching(/^\d+ stores within .*\. Showing 20 of \d+$/)])
    })
  })

  test('"Show more stores" pressed again while its page waits: asked afresh, still said busy', async () => {
    await withFinderPage(demo, async (page, open) => {
      await open()
      await searchFor(page, 'London')
      await page.locator('.sl-item').nth(9).waitFor()
      const more = await busyTill(page, (url) => url.searchParams.get('offset') === '10')
      const button = page.getByRole('button', { name: 'Show more stores' })
      await button.click()
      const busy = new RegExp(`^\\d+ stores within .* of London.*\\. ${BUSY}$`)
      await statusSaying(page, busy).waitFor()
      // Asked afresh within the first press's wait: not the count said again, then the busy text 3 s later.
      await button.click()
      expect(await page.getByRole('status').textContent()).toMatch(busy)
      expect(await page.locator('.sl-more-busy').isVisible()).toBe(true)
      more.ready()
      await page.locator('.sl-item').nth(10).waitFor()
      await statusSaying(page, /stores within .* of London.*\. Showing 20 of \d+$/).waitFor()
      expect(await page.locator('.sl-item').count()).toBe(20)
    })
  })

  test('"Show more stores" unanswered: said busy; pressed again, asked afresh and shown', async () => {
    const service = standIn(firstMore())
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    try {
      await page.goto(service.finder)
      await searchFor(page, 'London')
      await page.locator('.sl-item').nth(9).waitFor()
      const count = (await page.getByRole('status').textContent()) ?? ''
      await page.getByRole('status').evaluate(readOut)
      const button = page.getByRole('button', { name: 'Show more stores' })
      await button.click()
      // The service took it and says nothing: waited for as for a busy one, said so by the button too.
      await statusSaying(page, `${count}. ${STALLED}`).waitFor()
      expect(await page.locator('.sl-more-busy').isVisible()).toBe(true)
      expect(await page.locator('.sl-more-busy').textContent()).toBe(STALLED)
      expect(service.stalled()).toBe(1)
      await button.click()
      await service.gaveUp()
      await statusSaying(page, /Showing 20 of \d+$/).waitFor()
      expect(await page.locator('.sl-item').count()).toBe(20)
      expect(await page.locator('.sl-more-busy').isVisible()).toBe(false)
      expect(await page.locator('.sl-root > .sl-error').textContent()).toBe('')
      // The busy words read once, not again for the request asked afresh, nor the count between.
      const said = await page.evaluate(() => (globalThis as unknown as { readOut: string[] }).readOut)
      expect(said).toEqual([`. ${STALLED}`, expect.stringMatching(/^\d+ stores within .*\. Showing 20 of \d+$/)])
    } finally {
      await page.close()
      service.stop()
    }
  })

  test('"Show more stores" unanswered for 90 s: given up, its failure said; Try again shows the stores', async () => {
    const service = standIn(firstMore())
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    // The page's clock runs on, and leaps as the test says: the 90 s without waiting them.
    await page.clock.install()
    try {
      await page.goto(service.finder)
      await searchFor(page, 'London')
      await page.locator('.sl-item').nth(9).waitFor()
      const count = await page.getByRole('status').textContent()
      await page.getByRole('button', { name: 'Show more stores' }).click()
      await statusSaying(page, `${count}. ${STALLED}`).waitFor()
      await page.clock.fastForward(90_000)
      await service.gaveUp()
      const alert = page.locator('.sl-root > .sl-error')
      await alert.filter({ hasText: 'The stores could not be loaded.' }).waitFor()
      expect(await page.getByRole('status').textContent()).toBe(count)
      expect(await page.locator('.sl-item').count()).toBe(10)
      await alert.getByRole('button', { name: 'Try again' }).click()
      await statusSaying(page, /Showing 20 of \d+$/).waitFor()
      expect(await page.locator('.sl-item').count()).toBe(20)
      expect(service.stalled()).toBe(1)
    } finally {
      await page.close()
      service.stop()
    }
  })

  test('"Show more stores" refused by a 503 without Retry-After: the count stays, Try again asks that page', async () => {
    await withFinderPage(demo, async (page, open) => {
      await open()
      await searchFor(page, 'London')
      await page.locator('.sl-item').nth(9).waitFor()
      const count = await page.getByRole('status').textContent()
      let refuse = true
      await page.route(
        (url) => url.searchParams.get('offset') === '10',
        (route) =>
          refuse
            ? route.fulfill({
                status: 503,
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message: 'Unavailable.' } }),
              })
            : route.continue(),
      )
      await page.getByRole('button', { name: 'Show more stores' }).click()
      const alert = page.locator('.sl-root > .sl-error')
      await alert.filter({ hasText: 'The stores could not be loaded.' }).waitFor()
      expect(await page.getByRole('status').textContent()).toBe(count)
      expect(await page.locator('.sl-item').count()).toBe(10)
      refuse = false
      // The page that failed, after the ten listed: not the search again from its first.
      await alert.getByRole('button', { name: 'Try again' }).click()
      await statusSaying(page, /stores within .* of London.*\. Showing 20 of \d+$/).waitFor()
      expect(await page.locator('.sl-item').count()).toBe(20)
    })
  })

  test('place suggestions waiting for the service: busy said, then the prompt again with the list', async () => {
    await withFinderPage(demo, async (page, open) => {
      const places = await busyTill(page, '**/places?*')
      await open()
      await statusSaying(page, PROMPT).waitFor()
      await page.getByRole('combobox', { name: 'Town or postcode' }).fill('Lond')
      await statusSaying(page, BUSY).waitFor()
      places.ready()
      await page.getByRole('option', { name: 'London, United Kingdom' }).waitFor()
      await statusSaying(page, PROMPT).waitFor()
    })
  })

  test('place suggestions waiting as the visitor types on: the line says busy still, not the prompt again', async () => {
    await withFinderPage(demo, async (page, open) => {
      const places = await busyTill(page, '**/places?*')
      await open()
      await statusSaying(page, PROMPT).waitFor()
      const box = page.getByRole('combobox', { name: 'Town or postcode' })
      await box.fill('Lon')
      await statusSaying(page, BUSY).waitFor()
      // Each letter a newer question: the line neither goes back to the prompt nor says busy anew, each read out.
      await box.press('d')
      expect(await page.getByRole('status').textContent()).toBe(BUSY)
      await box.press('o')
      expect(await page.getByRole('status').textContent()).toBe(BUSY)
      // Escape drops the question: no wait is left, the prompt back at once.
      await box.press('Escape')
      expect(await page.getByRole('status').textContent()).toBe(PROMPT)
      await box.press('n')
      await statusSaying(page, BUSY).waitFor()
      places.ready()
      await page.getByRole('option', { name: 'London, United Kingdom' }).waitFor()
      await statusSaying(page, PROMPT).waitFor()
    })
  })

  test('the nearest stores beyond the radius waiting for the service: busy said, then they are listed', async () => {
    await withFinderPage(demo, async (page, open) => {
      const nearest = await busyTill(page, beyond)
      await open()
      await searchFor(page, 'Inverness, United Kingdom')
      // After what the search found, which stays in sight.
      await statusSaying(page, new RegExp(`^No stores within .* of Inverness, United Kingdom\\..* ${BUSY}$`)).waitFor()
      nearest.ready()
      await statusSaying(page, /^No stores within .* of Inverness, United Kingdom\. The nearest stores:$/).waitFor()
      expect(await page.locator('.sl-item').count()).toBe(3)
    })
  })

  test("the map's clusters waiting for the service: busy said, then the bubbles and the prompt", async () => {
    await withFinderPage(demo, async (page, open) => {
      const clusters = await busyTill(page, '**/clusters?*')
      await open()
      await statusSaying(page, BUSY).waitFor()
      expect(await page.locator('.sl-cluster').count()).toBe(0)
      clusters.ready()
      await page.locator('.sl-cluster').first().waitFor()
      await statusSaying(page, PROMPT).waitFor()
    })
  })

  test('the map moved while its clusters wait: the line says busy still, not the prompt again', async () => {
    await withFinderPage(demo, async (page, open) => {
      const clusters = await busyTill(page, '**/clusters?*')
      await open()
      await statusSaying(page, BUSY).waitFor()
      // The moved view's clusters asked in place of those waited for: one wait, said once.
      await page.locator('.sl-map').focus()
      const moved = await countMoves(page, 'keydown')
      await page.keyboard.press('ArrowRight')
      await moved()
      expect(await page.getByRole('status').textContent()).toBe(BUSY)
      clusters.ready()
      await page.locator('.sl-cluster').first().waitFor()
      await statusSaying(page, PROMPT).waitFor()
    })
  })

  test('a search whose filters stay busy till their wait ends: its stores are not waited for as long again', async () => {
    await withUnitlessPage(demo, async (page, open) => {
      // The page's clock runs on, and leaps as the test says: the waits' 90 s without waiting them.
      await page.clock.install()
      await busyTill(page, '**/filters*')
      const stores = await busyTill(page, '**/locations?*')
      await open()
      // No unit yet (none on the page, the filters not answered): the search waits on the filters.
      await searchFor(page, 'London')
      await statusSaying(page, BUSY).waitFor()
      expect(stores.asked()).toBe(0)
      await page.clock.fastForward(90_000)
      // The filters' wait over, the search's is too: its stores refused once more, their failure said.
      await page.locator('.sl-root > .sl-error').filter({ hasText: 'The stores could not be loaded.' }).waitFor()
      expect(await page.locator('.sl-root > .sl-error').textContent()).toBe('The stores could not be loaded. Try again')
      expect(await page.locator('.sl-filter-slot [role="alert"]').textContent()).toContain(
        'The filters could not be loaded.',
      )
      expect(await page.getByRole('status').textContent()).toBe('')
    })
  })

  test('a 503 whose Retry-After is neither seconds nor an HTTP-date ("-5", "1.5", no zone) names no wait: its error said at once', async () => {
    for (const value of ['-5', '1.5', 'Sun, 06 Nov 2094 08:49:37']) {
      await withFinderPage(demo, async (page, open) => {
        let asked = 0
        await page.route('**/locations?*', (route) => {
          asked++
          return route.fulfill({
            status: 503,
            headers: { 'content-type': 'application/json', 'retry-after': value },
            body: JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message: 'Unavailable.' } }),
          })
        })
        await open()
        await searchFor(page, 'London')
        const alert = page.locator('.sl-root > .sl-error')
        await alert.filter({ hasText: 'The stores could not be loaded.' }).waitFor()
        expect(asked).toBe(1)
        expect(await alert.textContent()).toBe('The stores could not be loaded. Try again')
      })
    }
  })

  test('a 503 whose Retry-After a proxy sent twice ("1, 1") is asked again after it, then its stores', async () => {
    await withFinderPage(demo, async (page, open) => {
      let asked = 0
      await page.route('**/locations?*', (route) =>
        asked++ > 0
          ? route.continue()
          : route.fulfill({
              status: 503,
              headers: { 'content-type': 'application/json', 'retry-after': '1, 1' },
              body: JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message: 'Unavailable.' } }),
            }),
      )
      await open()
      await searchFor(page, 'London')
      await page.locator('.sl-item').first().waitFor()
      expect(asked).toBe(2)
      expect(await page.locator('.sl-root > .sl-error').textContent()).toBe('')
    })
  })
})
