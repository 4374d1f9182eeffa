// Run by the bundler (a macro, imported `with { type: 'macro' }`): a language's texts become a list
// of their values in the order of their keys sorted, so widget.js spells the keys once, in English's.
import type { Texts } from './i18n'

/** The texts' values, in the order of their keys sorted. */
export const inKeyOrder = (texts: Texts): unknown[] =>
  Object.keys(texts)
    .sort()
    .map((key) => texts[key as keyof Texts])
