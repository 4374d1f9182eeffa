// widget.js's texts as the bundle spells them (api/pages/widget-texts.ts): each language one
// string split back into the keyed texts of src/widget/texts.ts, and a text that would split
// wrongly refused when the bundle is built.
import { afterAll, describe, expect, test } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { textsInKeyOrder } from '../../src/api/pages/widget-texts'
import { LANGUAGES } from '../../src/widget/texts'
import { tempDir } from '../helpers'

const dir = tempDir()
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The generated module's LANGUAGES, run as the bundle runs it. */
async function generated(languages: Record<string, Record<string, unknown>>): Promise<unknown> {
  const file = join(dir, `texts-${Bun.hash(JSON.stringify(languages))}.js`)
  writeFileSync(file, textsInKeyOrder(languages))
  return (await import(file)).LANGUAGES
}

describe('widget texts in the bundle', () => {
  test('each language reads back as texts.ts writes it, its pairs as pairs', async () => {
    const read = (await generated(LANGUAGES)) as typeof LANGUAGES
    expect(read).toEqual(LANGUAGES)
    expect(Object.keys(read)).toEqual(Object.keys(LANGUAGES))
  })

  test('a text holding a separator is refused, named by its language and key', () => {
    for (const text of ['Either | or', 'About ~5 km']) {
      const languages = { en: { ...LANGUAGES.en }, de: { ...LANGUAGES.de, none: text } }
      expect(() => textsInKeyOrder(languages)).toThrow('The widget text de.none is not text without')
    }
    const pair = { en: { ...LANGUAGES.en }, de: { ...LANGUAGES.de, found: ['1 | 2', '{n}'] } }
    expect(() => textsInKeyOrder(pair)).toThrow('de.found')
  })
})
