// The widget as a visitor meets it (`npm run bench:widget`): the size of what it sends, and the
// time from a page's start to its first results painted, in headless Chromium against a server on
// this machine with the demo data. The finder page is loaded with ?place=London, so the widget
// searches at once: widget.js and its stylesheet, then GET /locations?near=London, then the list.
//
//   bun bench/widget.ts [--loads N]     N cold loads (a fresh browser context each) and N reloads; default 30
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { provenance, provenanceLine, readOptions } from './system'

const USAGE = 'usage: bun bench/widget.ts [--loads N]'
let loads = 30
readOptions(Bun.argv.slice(2), USAGE, (option, _value, int) => {
  if (option !== '--loads') return false
  loads = int(1)
  return true
})
const chromiumPath = process.env.CHROMIUM_PATH || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync)
if (!chromiumPath) {
  console.error('No Chromium: apt-get install chromium, or set CHROMIUM_PATH.')
  process.exit(2)
}
const prov = provenance(new Date())
const root = resolve(import.meta.dir, '..')
const dir = mkdtempSync(join(tmpdir(), 'storeloc-widget-bench-'))

const server = Bun.spawn([process.execPath, join(root, 'src/main.ts')], {
  cwd: root,
  env: { ...process.env, DATABASE_PATH: join(dir, 'db.sqlite'), PORT: '0', HOST: '127.0.0.1', LOG_REQUESTS: '0' },
  stdout: 'pipe',
  stderr: 'inherit',
})
/**
 * The server's stdout until the indexes are loaded and the place data read (until then near=London
 * answers 503): its port and the demo's token.
 */
async function started(): Promise<{ base: string; token: string }> {
  let text = ''
  for await (const chunk of server.stdout) {
    text += new TextDecoder().decode(chunk)
    const port = /"listening","url":"http:\/\/[^:]+:(\d+)"/.exec(text)?.[1]
    const token = /\/public\/v1\/(pk_\w+)\//.exec(text)?.[1]
    if (port && token && text.includes('"indexes loaded"') && text.includes('"place data read"'))
      return { base: `http://localhost:${port}`, token }
  }
  throw new Error(`the server stopped before it was ready:\n${text}`)
}

/** Bytes of a file as sent, gzipped and not. */
async function sizes(url: string): Promise<{ raw: number; gzip: number }> {
  const raw = (await (await fetch(url, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer()).byteLength
  const gzipped = await fetch(url, { headers: { 'accept-encoding': 'gzip' }, decompress: false })
  return { raw, gzip: (await gzipped.arrayBuffer()).byteLength }
}

// Set in each page before its scripts: when the first store, and the first pin, are in the page
// and a frame has been painted with them (ms since the navigation's start).
const MARKS = `
  window.__marks = {};
  const seen = (name, selector) => {
    const check = () => {
      if (window.__marks[name] || !document.querySelector(selector)) return;
      window.__marks[name] = -1;
      requestAnimationFrame(() => requestAnimationFrame(() => { window.__marks[name] = performance.now(); }));
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true });
  };
  seen('results', '.sl-item');
  seen('pins', '.sl-pin');
`

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!
  return { median: at(0.5), p90: at(0.9), min: s[0]!, max: s.at(-1)! }
}
const row = (label: string, xs: number[]) => {
  const { median, p90, min, max } = stats(xs)
  return `| ${label} | ${xs.length} | ${median.toFixed(0)} | ${p90.toFixed(0)} | ${min.toFixed(0)}–${max.toFixed(0)} |`
}

try {
  const { base, token } = await started()
  const files = {
    'widget.js': await sizes(`${base}/widget.js`),
    'widget.css': await sizes(`${base}/widget.css`),
    'map.js': await sizes(`${base}/widget/map.js`),
    'leaflet.js': await sizes(`${base}/widget/leaflet.js`),
    'leaflet.css': await sizes(`${base}/widget/leaflet.css`),
    'countries.json': await sizes(`${base}/widget/countries.json`),
  }
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  })
  const url = `${base}/l/${token}?place=London`
  const measure = async (page: import('playwright-core').Page) => {
    await page.waitForFunction(() => {
      const m = (globalThis as unknown as { __marks: Record<string, number> }).__marks
      return (m.results ?? 0) > 0 && (m.pins ?? 0) > 0
    })
    return page.evaluate(() => (globalThis as unknown as { __marks: Record<string, number> }).__marks)
  }
  const cold = { results: [] as number[], pins: [] as number[] }
  const warm = { results: [] as number[], pins: [] as number[] }
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addInitScript(MARKS)
    const page = await context.newPage()
    // The same search each time: after the first, the server's answer cache holds its answer.
    await page.goto(url)
    const first = await measure(page)
    cold.results.push(first.results!)
    cold.pins.push(first.pins!)
    await page.reload()
    const again = await measure(page)
    warm.results.push(again.results!)
    warm.pins.push(again.pins!)
    await context.close()
  }
  await browser.close()
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
  console.log(`# Widget: page load to first results\n\n${provenanceLine(prov)}\n`)
  console.log('| File | Bytes | Gzipped |\n|---|---|---|')
  for (const [name, s] of Object.entries(files)) console.log(`| ${name} | ${kb(s.raw)} | ${kb(s.gzip)} |`)
  console.log(
    `\nFrom the navigation's start to the frame painted after the first store (results) and the first map pin (pins), in ms. ${url.replace(token, 'pk_...')}, 1280 × 900, on localhost.\n`,
  )
  console.log('| Load | N | Median | p90 | Range |\n|---|---|---|---|---|')
  console.log(row('cold (new context): results', cold.results))
  console.log(row('cold: pins', cold.pins))
  console.log(row('reload (cached files): results', warm.results))
  console.log(row('reload: pins', warm.pins))
} finally {
  server.kill()
  await server.exited
  rmSync(dir, { recursive: true, force: true })
}
