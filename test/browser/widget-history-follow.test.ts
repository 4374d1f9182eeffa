// The finder's history entries alone (src/widget/history.ts) in a real browser: what a step to an
// entry of its own reads of the finder, and what it has the finder do.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { tempDir } from '../helpers'
import { chromiumPath, launch, newPage } from './browser'
import { hostPage } from './server'

const HISTORY = join(import.meta.dir, '..', '..', 'src', 'widget', 'history.ts')
const URL_STATE = join(import.meta.dir, '..', '..', 'src', 'widget', 'url-state.ts')

/** history.ts (and url-state.ts's readState) as a classic script, its exports on window.entries. */
async function bundled(): Promise<string> {
  const dir = tempDir()
  try {
    const entry = join(dir, 'entry.ts')
    writeFileSync(
      entry,
      `import * as h from '${HISTORY}'\nimport { readState } from '${URL_STATE}'\nObject.assign(globalThis, { entries: { ...h, readState } })\n`,
    )
    const built = await Bun.build({ entrypoints: [entry], format: 'iife', target: 'browser' })
    if (!built.success) throw new AggregateError(built.logs, 'history.ts could not be bundled')
    return await built.outputs[0]!.text()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

let browser: Browser
let script: string
describe.skipIf(chromiumPath === null)("a finder's history entries alone, in Chromium", () => {
  beforeAll(async () => {
    ;[browser, script] = await Promise.all([launch(), bundled()])
  }, 60_000)
  afterAll(() => browser?.close())

  test('Back to an entry of its own reads the search shown once (its own: nothing taken up)', async () => {
    const host = hostPage('')
    const page = await newPage(browser)
    try {
      await page.goto(`${host.url}?sl_place=Leeds`)
      await page.addScriptTag({ content: script })
      const [reads, restored] = await page.evaluate(async () => {
        type Search = Record<string, unknown>
        type Entries = {
          follow: (shown: () => Search[], restore: () => void) => void
          commit: () => void
          write: (state: Search, asked: Search) => void
        }
        const w = globalThis as unknown as {
          entries: {
            SearchEntries: new (prefix: string, life: AbortSignal) => Entries
            readState: (href: string, prefix: string) => Search
          }
          location: { href: string }
          history: { back: () => void }
          addEventListener: (type: string, f: () => void, o: { once: boolean }) => void
        }
        const { SearchEntries, readState } = w.entries
        const entries = new SearchEntries('sl_', new AbortController().signal)
        const leeds = readState(w.location.href, 'sl_')
        let [reads, restored] = [0, 0]
        entries.follow(
          () => (reads++, [leeds, leeds]),
          () => restored++,
        )
        // Paris searched after Leeds, then Back: Leeds's entry, the search shown.
        entries.commit()
        const paris = { ...leeds, origin: { kind: 'near', text: 'Paris' } }
        entries.write(paris, paris)
        await new Promise<void>((done) => {
          w.addEventListener('popstate', done, { once: true })
          w.history.back()
        })
        return [reads, restored]
      })
      expect([reads, restored]).toEqual([1, 0])
    } finally {
      host.stop()
      await page.close()
    }
  })
})
