// widget.js's texts spelt compactly: a Bun.build plugin that loads src/widget/texts.ts as generated
// code, each language but English a list of its values in the order of English's keys sorted, and
// keyed() puts the keys back at start. The source stays keyed objects, each checked against Texts;
// sorted order, not the order written, so a key written elsewhere in one language shifts no text.
import type { BunPlugin } from 'bun'

type Languages = Record<string, Record<string, unknown>>

/** The texts module's path as the bundler resolves it: ".../widget/texts.ts". */
const TEXTS = /[\\/]widget[\\/]texts\.ts$/

/** The module's code: LANGUAGES, English keyed, the others as lists. */
export function textsInKeyOrder(languages: Languages): string {
  const { en, ...others } = languages
  const keys = Object.keys(en!).sort()
  const lists = Object.entries(others).map(
    ([lang, texts]) => `${lang}: keyed(${JSON.stringify(keys.map((k) => texts[k]))})`,
  )
  return [
    `const en = ${JSON.stringify(en)}`,
    // Sorted once, for every language.
    'const keys = Object.keys(en).sort()',
    'const keyed = (values) => Object.fromEntries(keys.map((key, i) => [key, values[i]]))',
    `export const LANGUAGES = { en, ${lists.join(', ')} }`,
  ].join('\n')
}

export const widgetTexts: BunPlugin = {
  name: 'widget-texts',
  setup(build) {
    // The server process reads the module itself (a macro would not run from under node_modules).
    build.onLoad({ filter: TEXTS }, async ({ path }) => ({
      contents: textsInKeyOrder((await import(path)).LANGUAGES),
      loader: 'js',
    }))
  },
}
