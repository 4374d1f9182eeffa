// The finder's place suggestions while the service is busy (503 with Retry-After), in a real
// browser against a real server with the demo data: a question ended in the microtasks right
// after its 503 is read (a letter typed, Escape) ends its wait for the service at once, and the
// busy words with it; a few microtasks apart, as the page's own code may end it. One test a
// case: each waits the widget's own seconds (SAY_WAITING_MS, then a Retry-After), which five
// cases together would hold near the suite's 30 s timeout on a loaded machine.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, starting } from './browser'
import { useDemoBrowser } from './server'
import { withFinderPage } from './waiting-finder'

const demo = useDemoBrowser()

const BUSY = 'The store finder is busy just now. Trying again…'
const PROMPT = 'Type a town or postcode, or use your location, to find the nearest stores.'

/** How many microtasks after a 503's body is read the question is ended: either side of its wait's start. */
const TICKS = [0, 1, 2, 3, 4]

/** What the page does to the place box once armed: a letter typed, or Escape pressed. */
type Act = 'type' | 'escape'

/** The page's globals, as the script here uses them (the tests' types have no DOM). */
type Globals = {
  acted?: boolean
  document: { querySelector: (selector: string) => { value: string; dispatchEvent: (e: unknown) => void } }
  Event: new (type: string, init: object) => unknown
  KeyboardEvent: new (type: string, init: object) => unknown
}

/**
 * Before the page loads: the first 503 with Retry-After: 5's body read, `ticks` microtasks later,
 * `act` is done to the place box and `globalThis.acted` set. Known by its header, not by a flag
 * the test sets: a 503 read before such a flag came would be waited on for its 5 s.
 */
function actAfter503(page: Page, act: Act, ticks: number) {
  return page.addInitScript(
    ([act, ticks]) => {
      const g = globalThis as unknown as Globals
      let armed = true
      const json = Response.prototype.json
      Response.prototype.json = function (this: Response) {
        const read = json.call(this)
        if (this.status === 503 && this.headers.get('retry-after') === '5' && armed) {
          armed = false
          let later: Promise<unknown> = read
          for (let i = 0; i < ticks; i++) later = later.then((x) => x)
          void later.then(() => {
            const box = g.document.querySelector('.sl-root input[role="combobox"]')
            if (act === 'type') {
              box.value = 'Lond'
              box.dispatchEvent(new g.Event('input', { bubbles: true }))
            } else box.dispatchEvent(new g.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
            g.acted = true
          })
        }
        return read
      }
    },
    [act, ticks] as const,
  )
}

/**
 * The place box's questions for "Lon" answered as the service starting (Retry-After: 1), till the
 * busy words show; then one more, Retry-After: 5, that the page ends its question right after.
 */
async function busyThenEnded(page: Page, open: () => Promise<unknown>, act: Act, ticks: number) {
  await actAfter503(page, act, ticks)
  let armed = false
  await page.route('**/places?*', (route) => {
    if (new URL(route.request().url()).searchParams.get('q') !== 'Lon') return route.continue()
    if (!armed) return starting(route)
    return route.fulfill({
      status: 503,
      headers: { 'content-type': 'application/json', 'retry-after': '5' },
      body: JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message: 'The service is starting.' } }),
    })
  })
  await open()
  await page.getByRole('status').filter({ hasText: PROMPT }).waitFor()
  await page.getByRole('combobox', { name: 'Town or postcode' }).fill('Lon')
  await page.getByRole('status').filter({ hasText: BUSY }).waitFor()
  armed = true
  await page.waitForFunction(() => (globalThis as unknown as Globals).acted === true)
}

describe.skipIf(chromiumPath === null)('place suggestions ended right as a 503 comes, in Chromium', () => {
  test.each(TICKS)(
    'a letter typed %i microtasks after: the newer question answered, its list shown with the prompt, no busy words left',
    async (ticks) => {
      await withFinderPage(demo, async (page, open) => {
        await busyThenEnded(page, open, 'type', ticks)
        await page.getByRole('option', { name: 'London, United Kingdom' }).waitFor()
        // The busy question ended as the newer one was asked, and that one is answered: nothing waits.
        expect({ ticks, said: await page.getByRole('status').textContent() }).toEqual({ ticks, said: PROMPT })
      })
    },
  )

  test.each(TICKS)(
    'Escape pressed %i microtasks after: the question dropped, the prompt back at once',
    async (ticks) => {
      await withFinderPage(demo, async (page, open) => {
        await busyThenEnded(page, open, 'escape', ticks)
        expect({ ticks, said: await page.getByRole('status').textContent() }).toEqual({ ticks, said: PROMPT })
        // No list opens after: the question was dropped, not answered.
        await page.waitForTimeout(500)
        expect(await page.getByRole('combobox', { name: 'Town or postcode' }).getAttribute('aria-expanded')).toBe(
          'false',
        )
      })
    },
  )
})
