// widget.js's texts spelt compactly: a Bun.build plugin that loads src/widget/texts.ts as generated
// code, each language one string of its values in the order of English's keys sorted, and keyed()
// puts the keys back at start. The source stays keyed objects, each checked against Texts; sorted
// order, not the order written, so a key written elsewhere in one language shifts no text.
import type { BunPlugin } from 'bun'

type Languages = Record<string, Record<string, unknown>>

/** The texts module's path as the bundler resolves it: ".../widget/texts.ts". */
const TEXTS = /[\\/]widget[\\/]texts\.ts$/

// One separator between a language's texts, another between a pair's two forms: a text holds
// neither. Each is one byte to gzip where a list's `","` costs about two.
const TEXT_END = '|'
const FORM_END = '~'

/** A language's texts in `keys` order as one string; a text that holds a separator is refused. */
function joined(lang: string, texts: Record<string, unknown>, keys: string[]): string {
  return keys
    .map((key) => {
      const value = texts[key]
      const forms = Array.isArray(value) ? value : [value]
      if (forms.some((form) => typeof form !== 'string' || form.includes(TEXT_END) || form.includes(FORM_END)))
        throw new Error(`The widget text ${lang}.${key} is not text without "${TEXT_END}" and "${FORM_END}".`)
      return forms.join(FORM_END)
    })
    .join(TEXT_END)
}

/** The module's code: LANGUAGES, each language's texts one string keyed() splits. */
export function textsInKeyOrder(languages: Languages): string {
  const keys = Object.keys(languages.en!).sort()
  const strings = Object.entries(languages).map(
    ([lang, texts]) => `${lang}: keyed(${JSON.stringify(joined(lang, texts, keys))})`,
  )
  return [
    `const keys = ${JSON.stringify(keys.join(' '))}.split(' ')`,
    `const keyed = (joined) => Object.fromEntries(joined.split(${JSON.stringify(TEXT_END)}).map((text, i) =>`,
    `  [keys[i], text.includes(${JSON.stringify(FORM_END)}) ? text.split(${JSON.stringify(FORM_END)}) : text]))`,
    `export const LANGUAGES = { ${strings.join(', ')} }`,
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
