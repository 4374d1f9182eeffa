// What the widget shows, against what the keyboard and screen readers get, in a real browser: the
// store picked marked in forced colours (Windows' high contrast) as well as in the widget's own;
// the map's country shapes, a picture with nothing to read, kept from screen readers; native
// controls drawn light on a dark page.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, newPage } from './browser'
import { docsSnippet, hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

const LONDON = 'sl_place=London&sl_lat=51.50853&sl_lng=-0.12574'

/** What the callbacks below use of the page's window (this program is typed without the DOM's). */
type Styled = { getPropertyValue: (name: string) => string; color: string }
type PageWindow = {
  getComputedStyle: (el: unknown) => Styled
  document: {
    createElement: (tag: string) => { style: { color: string }; remove: () => void }
    body: { append: (el: unknown) => void }
  }
}

/** The computed `props` of the first element `selector` finds. */
const styleOf = (page: Page, selector: string, props: string[]) =>
  page
    .locator(selector)
    .first()
    .evaluate((el, props) => {
      const style = (globalThis as unknown as PageWindow).getComputedStyle(el)
      return Object.fromEntries(props.map((p) => [p, style.getPropertyValue(p)]))
    }, props)

/** The images screen readers are given (Chromium's accessibility tree), by name ('' unnamed). */
async function imagesRead(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page)
  type AXNode = { ignored: boolean; role?: { value: string }; name?: { value: string } }
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as unknown as { nodes: AXNode[] }
  await cdp.detach()
  return nodes.filter((n) => !n.ignored && n.role?.value === 'image').map((n) => n.name?.value ?? '')
}

/** A system colour (such as Highlight) as the page resolves it. */
const systemColor = (page: Page, name: string) =>
  page.evaluate((name) => {
    const g = globalThis as unknown as PageWindow
    const probe = g.document.createElement('span')
    probe.style.color = name
    g.document.body.append(probe)
    const color = g.getComputedStyle(probe).color
    probe.remove()
    return color
  }, name)

describe.skipIf(chromiumPath === null)('what the widget shows, in Chromium', () => {
  test('in forced colours, the store picked is marked in the system Highlight, in the list and on the map', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.emulateMedia({ forcedColors: 'active' })
      await page.goto(`${demo.server.url}/l/${demo.server.token}?${LONDON}`)
      await page.locator('.sl-pin').nth(2).waitFor()
      await page.locator('.sl-item').nth(1).locator('.sl-name').click()
      await page.locator('.sl-marker-selected').waitFor()
      const highlight = await systemColor(page, 'Highlight')
      const item = ['outline-style', 'outline-color', 'border-left-color']
      const picked = await styleOf(page, '.sl-item.sl-selected', item)
      const other = await styleOf(page, '.sl-item:not(.sl-selected)', item)
      expect(picked).toEqual({ 'outline-style': 'solid', 'outline-color': highlight, 'border-left-color': highlight })
      expect(other['outline-style']).toBe('none')
      expect(other['border-left-color']).not.toBe(highlight)
      const pin = ['background-color']
      expect(await styleOf(page, '.sl-marker-selected .sl-pin', pin)).toEqual({ 'background-color': highlight })
      const otherPin = await styleOf(page, '.sl-marker:not(.sl-marker-selected) .sl-pin', pin)
      expect(otherPin['background-color']).not.toBe(highlight)
    } finally {
      await page.close()
    }
  })
  test("on a dark page, the widget's native controls are drawn light, as the widget is", async () => {
    const snippet = docsSnippet(demo.server.url, demo.server.token)
    const { url, stop } = hostPage(snippet, '<style>:root { color-scheme: dark; background: #111 }</style>')
    const page = await newPage(demo.browser)
    try {
      await page.goto(`${url}?sl_place=London`)
      await page.locator('.sl-item').first().waitFor()
      for (const control of ['.sl-check input', '.sl-select'])
        expect(await styleOf(page, control, ['color-scheme'])).toEqual({ 'color-scheme': 'light' })
    } finally {
      stop()
      await page.close()
    }
  })
  test("the map's country shapes are not given to screen readers, before a search or after", async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      // The country shapes drawn: more than 100 paths.
      const shapes = page.locator('.sl-map path:not(.sl-dot)')
      await page.locator('.sl-cluster').first().waitFor()
      await shapes.nth(100).waitFor({ state: 'attached' })
      expect(await imagesRead(page)).toEqual([])
      await page.goto(`${demo.server.url}/l/${demo.server.token}?${LONDON}`)
      await page.locator('.sl-pin').nth(2).waitFor()
      await shapes.nth(100).waitFor({ state: 'attached' })
      expect(await imagesRead(page)).toEqual([])
    } finally {
      await page.close()
    }
  })
  test("a page opened on a search draws the search's centre over the country shapes", async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      // The search answers before the shapes come: they are drawn after the centre.
      await page.goto(`${demo.server.url}/l/${demo.server.token}?${LONDON}`)
      await page.locator('.sl-pin').nth(2).waitFor()
      // One SVG holds both, once the shapes are drawn (more than 100 paths): the last path drawn is on top.
      const here = page.locator('.sl-map svg:has(.sl-here) > g > path')
      await here.nth(100).waitFor({ state: 'attached' })
      expect((await here.last().getAttribute('class')) ?? '').toContain('sl-here')
    } finally {
      await page.close()
    }
  })
})
