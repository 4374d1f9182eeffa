// A finder removed from the page while a request of its own is on its way, in a real browser: the
// answer, when it comes, does nothing (no search, no address written, no error).
import { beforeAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { cliRunner } from '../helpers'
import { chromiumPath, heldUntilReleased, networkSettled, newPage, requestsOf, watchRequests } from './browser'
import { openFirstMap } from './map-rest'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()
const { json } = cliRunner(() => demo.server.dbPath)

/** The token of a locator of three stores on one point: before a search, one bubble that no zoom splits. */
let token = ''

beforeAll(async () => {
  if (chromiumPath === null) return
  const made = json('locator', 'create', '--name', 'One point')
  json('locator', 'set', made.locator.id, '--query-api', 'on', '--unit', 'km')
  const file = join(demo.server.dir, 'removed.csv')
  const rows = ['Dom', 'Ring', 'Hafen'].map((name) => `Köln ${name},"Köln, Deutschland",50.93,6.95`)
  writeFileSync(file, `name,address,lat,lng\n${rows.join('\n')}\n`)
  json('locations', 'import', made.locator.id, '--file', file)
  token = made.locator.public_token
}, 60_000)

/**
 * A host page with the finder in #f, mounted by Storeloc.mount (window.finder) or by its
 * data-storeloc; resolves once its bubble is pressed and the bubble's stores are asked, held.
 */
async function bubblePressed(page: Page, marked: boolean) {
  const attrs = marked ? `data-storeloc="${token}"` : ''
  const mountIt = marked
    ? ''
    : `<script>window.finder = Storeloc.mount(document.querySelector('#f'), { token: '${token}' })</script>`
  const host = hostPage(`<div id="f" ${attrs}></div><script src="${demo.server.url}/widget.js"></script>${mountIt}`)
  watchRequests(page)
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  const release = await heldUntilReleased(page, '**/clusters/*/leaves?*')
  await openFirstMap(page, () => page.goto(host.url))
  const asked = page.waitForRequest('**/clusters/*/leaves?*')
  await page.locator('#f .sl-cluster', { hasText: /^3$/ }).click()
  await asked
  const searches = requestsOf(page, (url) => url.includes('/locations?'))
  return { host, errors, release, searches }
}

describe.skipIf(chromiumPath === null)("a finder removed while its bubble's stores are asked, in Chromium", () => {
  for (const [how, marked, remove] of [
    ['destroyed', false, 'window.finder.destroy()'],
    ['its element taken out', true, "document.querySelector('#f').remove()"],
    // A page's own finder (Storeloc.mount) whose element its app takes out, never destroying it.
    ['mounted, its element taken out without destroy()', false, "document.querySelector('#f').remove()"],
  ] as const) {
    test(`${how}: the answer starts no search and writes no address`, async () => {
      const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })
      const { host, errors, release, searches } = await bubblePressed(page, marked)
      try {
        const address = page.url()
        await page.evaluate(remove)
        release()
        await networkSettled(page)
        expect(searches.sent.map((r) => r.url())).toEqual([])
        expect(page.url()).toBe(address)
        expect(errors).toEqual([])
      } finally {
        host.stop()
        await page.close()
      }
    })
  }
})
