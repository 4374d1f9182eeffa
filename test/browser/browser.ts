// Headless Chromium for the browser tests: Debian's chromium (or CHROMIUM_PATH) driven by
// playwright-core. Without a browser the tests are skipped with a note, unless BROWSER_TESTS=required
// (.ci/run sets it), which makes a missing browser a failure.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Page,
  type Request as PageRequest,
  type Route,
} from 'playwright-core'

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

/** The browser to drive: CHROMIUM_PATH, else the first one installed; null when none is. */
export const chromiumPath: string | null = process.env.CHROMIUM_PATH || CANDIDATES.find((p) => existsSync(p)) || null

if (chromiumPath === null) {
  if (process.env.BROWSER_TESTS === 'required')
    throw new Error(
      'BROWSER_TESTS=required, and no Chromium was found: apt-get install chromium, or set CHROMIUM_PATH.',
    )
  console.warn('Browser tests skipped: no Chromium found. Install it (apt-get install chromium) or set CHROMIUM_PATH.')
}

// The flags that keep Chromium off the network (its updates, sync, field trials) and working as root.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-features=Translate,OptimizationHints,MediaRouter',
]

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath!, args: ARGS })
}

/**
 * A browser context whose actions give up after 10 s, with Playwright's own message: well before
 * the test's 30 s, whose timeout would also end the browser the other tests share.
 */
export async function newContext(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options)
  context.setDefaultTimeout(10_000)
  if (SLOWDOWN > 1) context.on('page', (page) => void slowDown(page).catch(() => {}))
  return context
}

/**
 * BROWSER_CPU_SLOWDOWN=4: each page runs as on a CPU 4 times slower (Chromium's throttling), to try
 * the tests' waits. newPage sets it before it returns the page; a page made otherwise, soon after.
 */
const SLOWDOWN = Number(process.env.BROWSER_CPU_SLOWDOWN) || 1

async function slowDown(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN })
}

/** A page in a context of its own (newContext's), which closing the page closes too. */
export async function newPage(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
  const context = await newContext(browser, options)
  const page = await context.newPage()
  if (SLOWDOWN > 1) await slowDown(page)
  // Not awaited: a test's last page may close as the file's browser does, which closes it too.
  page.once('close', () => void context.close().catch(() => {}))
  return page
}

/**
 * Has `app` answer the page's requests to `origin`, as a server there would, with no port open;
 * `other` may answer the rest (a photo's host), and what it leaves (undefined) is refused.
 */
export async function answeredBy(
  page: Page,
  origin: string,
  app: { handle: (request: Request) => Response | Promise<Response> },
  other: (url: string) => Promise<{ type: string; body: string } | undefined> = async () => undefined,
): Promise<void> {
  await page.route('**/*', async (route) => {
    const url = route.request().url()
    if (!url.startsWith(`${origin}/`)) {
      const found = await other(url)
      return found ? route.fulfill({ headers: { 'content-type': found.type }, body: found.body }) : route.abort()
    }
    const res = await app.handle(new Request(url, { headers: await route.request().allHeaders() }))
    await route.fulfill({
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: Buffer.from(await res.arrayBuffer()),
    })
  })
}

/**
 * Resolves after the page's next frame and a task after it: what an answer the page has already
 * received set going (its JSON read, its drawing) has run by then.
 */
export async function aTurnLater(page: Page): Promise<void> {
  await page.evaluate(() => {
    const { requestAnimationFrame } = globalThis as unknown as { requestAnimationFrame: (f: () => void) => void }
    return new Promise((done) => requestAnimationFrame(() => setTimeout(done)))
  })
}

const MARKER = '/sl-marker-'
let markers = 0

/**
 * Resolves once a request the page sends now, to its own origin (or to `origin`, where its
 * policy refuses its own), is on its way: a request the page set going before it is seen
 * (page.on('request')) by then. What the test awaits in place of a quiet spell after an action
 * that is to send nothing.
 */
export async function sentNow(page: Page, origin = ''): Promise<void> {
  const url = `${origin}${MARKER}${++markers}`
  const sent = page.waitForRequest((r) => r.url().endsWith(url))
  await page.evaluate((url) => void fetch(url).catch(() => {}), url)
  await sent
}

/**
 * The requests the page sends that `which` picks, as they come, and a wait for every one of them
 * to be answered in full or to fail (aborted by the page, refused).
 */
export function requestsOf(page: Page, which: (url: string) => boolean) {
  const sent: PageRequest[] = []
  const over = new Set<PageRequest>()
  const waiting: (() => void)[] = []
  const end = (r: PageRequest) => {
    over.add(r)
    if (sent.every((r) => over.has(r))) for (const resolve of waiting.splice(0)) resolve()
  }
  page.on('request', (r) => void (which(r.url()) && sent.push(r)))
  page.on('requestfinished', end)
  page.on('requestfailed', end)
  return {
    sent,
    /** Fails after 10 s, as the pages' actions do, naming the requests still under way. */
    settled: () =>
      new Promise<void>((resolve, reject) => {
        if (sent.every((r) => over.has(r))) return resolve()
        const timer = setTimeout(() => {
          const left = sent.filter((r) => !over.has(r)).map((r) => r.url())
          reject(new Error(`requests still under way after 10 s: ${left.join(', ')}`))
        }, 10_000)
        waiting.push(() => {
          clearTimeout(timer)
          resolve()
        })
      }),
  }
}

/**
 * Holds the page's requests that `url` matches unanswered until the returned release is called
 * (then they and later ones go on): an answer that comes late, after what the test does meanwhile,
 * however slow the machine.
 */
export async function heldUntilReleased(page: Page, url: string): Promise<() => void> {
  const held: { continue: () => Promise<void> }[] = []
  let released = false
  await page.route(url, (route) => void (released ? route.continue() : held.push(route)))
  return () => {
    released = true
    for (const route of held.splice(0)) void route.continue().catch(() => {})
  }
}

/** The service's answer while it starts: 503 with Retry-After: 1, in the API's error shape. */
export const starting = (route: Route) =>
  route.fulfill({
    status: 503,
    headers: { 'content-type': 'application/json', 'retry-after': '1' },
    body: JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message: 'The service is starting.' } }),
  })

/** The page's requests that `url` matches answered by starting() the first `times`, then by the service. */
export async function startingFirst(
  page: Page,
  url: Parameters<Page['route']>[0],
  times = 2,
): Promise<{ refused: () => number }> {
  let refused = 0
  await page.route(url, (route) => (refused < times ? (refused++, starting(route)) : route.continue()))
  return { refused: () => refused }
}

/** The requests of the pages watchRequests was called for: what networkSettled waits for. */
const traffic = new WeakMap<Page, ReturnType<typeof requestsOf>>()

/**
 * Follows the page's requests from now on, for networkSettled: called before the page loads. Only
 * where it is needed: each request's end is then sent from the browser to the test.
 */
export function watchRequests(page: Page): void {
  traffic.set(
    page,
    requestsOf(page, (url) => !url.includes(MARKER)),
  )
}

/**
 * Resolves once every request the page sent is answered (or failed) and a turn after the last
 * answers set none going (`origin`: sentNow's). Not Playwright's 'networkidle': it fires once per
 * document, so a wait for it after the page's first quiet spell returns at once.
 */
export async function networkSettled(page: Page, origin = ''): Promise<void> {
  const seen = traffic.get(page)
  if (!seen) throw new Error('networkSettled: call watchRequests(page) before the page loads')
  for (let before = -1; before !== seen.sent.length; ) {
    before = seen.sent.length
    await sentNow(page, origin)
    await seen.settled()
    await aTurnLater(page)
  }
}

/**
 * Resolves after the end of a zoom animation under way or asked for: Leaflet ends one with a 250 ms
 * timer set in the frame it starts in; a timer as long, set in the next frame's callbacks, fires after it.
 */
export async function pastZoomEnd(page: Page): Promise<void> {
  await page.evaluate(() => {
    const { requestAnimationFrame } = globalThis as unknown as { requestAnimationFrame: (f: () => void) => void }
    return new Promise((done) => requestAnimationFrame(() => setTimeout(done, 250)))
  })
}

/** How many `type` listeners the page's document (or window) has: through the browser's debugger. */
export async function listeners(page: Page, target: 'document' | 'window', type: string): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  const { result } = await cdp.send('Runtime.evaluate', { expression: target })
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId! })
  await cdp.detach()
  return listeners.filter((l) => l.type === type).length
}

/**
 * How many `abort` listeners the page's live AbortSignals hold, all together: through the browser's
 * debugger. Garbage is collected first: a signal no longer reachable still holds its listeners until then.
 */
export async function abortListeners(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'AbortSignal.prototype' })
  const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: result.objectId! })
  const { result: items } = await cdp.send('Runtime.getProperties', {
    objectId: objects.objectId!,
    ownProperties: true,
  })
  let count = 0
  for (const item of items) {
    if (!/^\d+$/.test(item.name) || !item.value?.objectId) continue
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: item.value.objectId })
    count += listeners.filter((l) => l.type === 'abort').length
  }
  await cdp.detach()
  return count
}

/** Where screenshots go: ARTIFACTS_DIR, else test-artifacts/ at the repository's root (not committed). */
export const ARTIFACTS = process.env.ARTIFACTS_DIR || join(import.meta.dir, '..', '..', 'test-artifacts')

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true })
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true })
}

/** What the tests' callbacks read of a page's elements (this program is typed without the DOM's types). */
export type PageElement = {
  textContent: string | null
  tagName: string
  dataset: Record<string, string | undefined>
  classList: { contains: (name: string) => boolean }
  getAttribute: (name: string) => string | null
  closest: (selector: string) => PageElement | null
  querySelector: (selector: string) => PageElement | null
}

/** The page's document, as the callbacks run in it see it. */
export type PageDocument = {
  activeElement: PageElement | null
  documentElement: { scrollWidth: number }
  querySelector: (selector: string) => PageElement | null
  querySelectorAll: (selector: string) => ArrayLike<PageElement>
  addEventListener: (
    type: string,
    listener: (e: { type: string; detail: object }) => void,
    o?: { once: boolean },
  ) => void
}

const AXE = join(import.meta.dir, '..', '..', 'node_modules', 'axe-core', 'axe.min.js')

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }

/** axe-core's WCAG 2.1 A and AA checks on the page as it is: the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated, not added as a script element, which the pages' Content-Security-Policy refuses.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(readFileSync(AXE, 'utf8'))
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (o: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe
    const result = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    return result.violations
  })
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}
