// Back further than one step while a search typed over the place shown waits for its answer
// (history.ts's hold), in a real browser against the demo: the search waiting is one step, the
// rest go on, with the Navigation API as without it. Without it (Firefox, Safari; deleted here), a
// fast double Back lands as in Chromium, with its stores.
import { describe, expect, test } from 'bun:test'
import { chromiumPath, networkSettled, newPage, watchRequests } from './browser'
import { pick, searchIn, typedWaiting } from './finder-page'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

/** A page with a finder in #f (without the Navigation API, as in Firefox and Safari, unless `nav`): Paris, Leeds, then Berlin picked. */
async function threeSearches(nav = true) {
  const host = hostPage(
    `<div id="f" data-storeloc="${demo.server.token}"></div><script src="${demo.server.url}/widget.js"></script>`,
  )
  const page = await newPage(demo.browser, { viewport: { width: 1100, height: 800 } })
  watchRequests(page)
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  if (!nav) await page.addInitScript('delete window.navigation')
  await page.goto(host.url)
  await page.locator('#f .sl-form').waitFor()
  await searchIn(page, '#f', 'Paris')
  await searchIn(page, '#f', 'Leeds')
  await pick(page, 'Berl', 'Berlin, Germany')
  const close = async () => {
    host.stop()
    await page.close()
  }
  return { page, errors, close }
}

describe.skipIf(chromiumPath === null)('Back further while a search waits, in Chromium', () => {
  test('history.go(-2) while a postcode typed over the place picked waits: the entry before, its stores', async () => {
    const { page, errors, close } = await threeSearches()
    try {
      const release = await typedWaiting(page, '75001')
      // One step drops the search waiting (as Back alone does), the other goes to the entry before.
      await page.evaluate('history.go(-2)')
      await page.locator('#f .sl-status').filter({ hasText: 'of Leeds, United Kingdom' }).waitFor()
      release()
      await networkSettled(page)
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('Leeds, United Kingdom')
      expect(await page.locator('#f .sl-status').textContent()).toContain('of Leeds, United Kingdom')
      expect(await page.locator('#f .sl-item').count()).toBeGreaterThan(0)
      expect(await page.locator('#f > .sl-error').textContent()).toBe('')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('without the Navigation API, Back twice at once while a postcode waits: the entry it lands on, its stores', async () => {
    const { page, errors, close } = await threeSearches(false)
    try {
      const release = await typedWaiting(page, '75001')
      // The second Back is asked before the first one's step is over.
      await page.evaluate('history.back(); history.back()')
      await page.waitForURL((u) => !u.searchParams.get('sl_place')?.startsWith('Berlin'))
      release()
      await networkSettled(page)
      // One or two back, as with the Navigation API; no request of the search shown ended on the way.
      const place = new URL(page.url()).searchParams.get('sl_place')!
      expect(['Leeds, United Kingdom', 'Paris, France']).toContain(place)
      expect(await page.locator('#f .sl-status').textContent()).toContain(`of ${place}`)
      expect(await page.locator('#f .sl-item').count()).toBeGreaterThan(0)
      expect(await page.locator('#f > .sl-error').textContent()).toBe('')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
  test('without the Navigation API, Back while a postcode typed over an entry with one after it waits: Forward still goes on', async () => {
    const { page, errors, close } = await threeSearches(false)
    try {
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'of Leeds, United Kingdom' }).waitFor()
      await networkSettled(page)
      const release = await typedWaiting(page, 'LS1')
      await page.evaluate('history.back()')
      await page.locator('#f .sl-status').filter({ hasText: 'of Leeds, United Kingdom' }).waitFor()
      release()
      await networkSettled(page)
      // Berlin's entry is still after Leeds', as with the Navigation API.
      await page.evaluate('history.forward()')
      await page.locator('#f .sl-status').filter({ hasText: 'of Berlin, Germany' }).waitFor({ timeout: 5000 })
      expect(new URL(page.url()).searchParams.get('sl_place')).toBe('Berlin, Germany')
      await networkSettled(page)
      expect(await page.locator('#f .sl-item').count()).toBeGreaterThan(0)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
  test('without the Navigation API, reloaded, Back twice at once while a postcode waits: the entry it lands on, its stores', async () => {
    const { page, errors, close } = await threeSearches(false)
    try {
      // Reloaded at the last entry: the entry held is pushed again, as before the reload.
      await page.reload()
      await page.locator('#f .sl-status').filter({ hasText: 'of Berlin, Germany' }).waitFor()
      await networkSettled(page)
      const release = await typedWaiting(page, '75001')
      await page.evaluate('history.back(); history.back()')
      await page.waitForURL((u) => !u.searchParams.get('sl_place')?.startsWith('Berlin'))
      release()
      await networkSettled(page)
      const place = new URL(page.url()).searchParams.get('sl_place')!
      expect(['Leeds, United Kingdom', 'Paris, France']).toContain(place)
      expect(await page.locator('#f .sl-status').textContent()).toContain(`of ${place}`)
      expect(await page.locator('#f > .sl-error').textContent()).toBe('')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})
