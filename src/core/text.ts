// The folded form of text, shared by the geocoder (place names) and the search index (keywords):
// nameKey; and searchKey, the same words in a form made for cutting into words, not for reading.

const NON_ASCII = /[^\x00-\x7f]/

/** Whether a text is ASCII alone: Unicode normalization leaves it as it is. */
export const isAscii = (text: string): boolean => !NON_ASCII.test(text)

/**
 * A whole number as people write one: digits, maybe ".0", spaces around them let go; not "0x50",
 * "1e1" or "+5", which Number() also reads. For settings and the Query API's limit and offset.
 */
export const WHOLE_NUMBER = /^\s*\d+(\.0*)?\s*$/

// Marked pure, as WORD_ASCII is: widget.js bundles this module's nameKey, and a bundler keeps a
// top-level value a call makes unless told the call has no side effect.
const UTF8 = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true })

/** The text UTF-8 bytes hold, or null when they are not UTF-8 (where a lenient reading would put U+FFFD). */
export function utf8Text(bytes: Uint8Array): string | null {
  try {
    return UTF8.decode(bytes)
  } catch {
    return null
  }
}

/** Characters in `text` as a person counts them: code points (a surrogate pair, such as an emoji, is one). */
export function codePoints(text: string): number {
  let n = 0
  for (const _ of text) n++
  return n
}

/**
 * What no name or label an operator gives may hold (a locator's, a custom field's, a filter
 * group's or tag's): control characters (line breaks, tabs), the line and paragraph separators
 * U+2028 and U+2029, and format characters (Cf): bidi controls such as U+202E, which reorder the
 * text after them, zero-width spaces, marks, soft hyphens, the BOM, tag characters. Unseen in a
 * table or a log line, they still break or disguise it. Format characters that spelling needs
 * are kept: the zero-width non-joiner and joiner (U+200C, U+200D: Persian and Indic words, emoji
 * sequences), and tag characters within a flag emoji's sequence (🏴 then tags then U+E007F).
 */
const UNPRINTABLE = /(?![\u200c\u200d])[\p{Cc}\p{Zl}\p{Zp}\p{Cf}]/u
const FLAG_TAGS = /(?<=\u{1F3F4})[\u{E0020}-\u{E007E}]+\u{E007F}/gu

/** Format characters (Unicode Cf): zero-width spaces, bidi marks, the BOM; a cell shows none of them. */
const FORMAT_CHARS = /\p{Cf}/gu

/** `text` without its format characters, as a pasted id is compared. */
export const withoutFormatChars = (text: string): string => text.replace(FORMAT_CHARS, '')

/**
 * The format characters a store code is compared without: zero-width spaces, the BOM, soft
 * hyphens, bidi marks. The zero-width non-joiner and joiner (U+200C, U+200D) are kept between
 * letters (or emoji, for the joiner): they spell Persian and Indic words, so two codes apart by
 * one there are two codes. Anywhere else (an end, beside a digit or a dash) they join nothing.
 */
const INVISIBLE_CHARS = /(?![\u200c\u200d])\p{Cf}/gu
const JOINED = '[\\p{L}\\p{M}\\p{Extended_Pictographic}]'
const LOOSE_JOINERS = new RegExp(`(?<!${JOINED})[\\u200c\\u200d]|[\\u200c\\u200d](?!${JOINED})`, 'gu')

/** A store code as compared: without its invisible characters (INVISIBLE_CHARS, LOOSE_JOINERS), trimmed. */
export const bareCode = (code: string): string => code.replace(INVISIBLE_CHARS, '').replace(LOOSE_JOINERS, '').trim()

/** The invisible characters of `text` that bareCode drops: the others first, then loose joiners; repeats kept. */
export const invisibleChars = (text: string): string[] => [
  ...(text.match(INVISIBLE_CHARS) ?? []),
  ...(text.replace(INVISIBLE_CHARS, '').match(LOOSE_JOINERS) ?? []),
]

/**
 * Whether a store code is invisible characters alone, the zero-width non-joiner and joiner
 * included: without letters to join they show nothing, so no one can see or type the code.
 */
export const isBlankCode = (code: string): boolean => withoutFormatChars(code).trim() === ''

/** The first character of `text` that a name or label may not hold (see UNPRINTABLE), as "U+202E"; null if none. */
export function unprintableChar(text: string): string | null {
  const found = UNPRINTABLE.exec(text.replace(FLAG_TAGS, ''))
  return found === null ? null : codePointName(found[0])
}

/** A character as a message names it: "U+0007", "U+202E". */
export const codePointName = (char: string): string =>
  `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

const FOLD: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ς: 'σ',
}

/**
 * "Saint-Étienne" -> "saint etienne", "München" -> "munchen", "Musée d'Orsay" -> "musee d orsay",
 * "Москва" -> "москва". Letters and digits of every script are kept; everything else separates words.
 * Nonspacing marks go, as accents do (Arabic and Hebrew vowel points, Devanagari's virama and
 * some vowel signs, the kana's voicing marks); spacing marks (most Indic vowel signs) stay in
 * their word: "नमस्ते" is one word, not "नमस त". Greek's final sigma is a sigma: "ΟΔΟΣ" finds "Οδοστρωτήρας".
 */
export function nameKey(text: string): string {
  // ASCII (most text): the same result, without the Unicode normalization and its passes.
  if (!NON_ASCII.test(text))
    return text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim()
  // Lowercased again after NFKD: compatibility forms can decompose to capitals ("℡" -> "TEL").
  return text
    .toLowerCase()
    .normalize('NFKD')
    .toLowerCase()
    .replace(/\p{Mn}/gu, '')
    .replace(/[ßæœøłđðþıς]/g, (c) => FOLD[c]!)
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ')
    .trim()
}

/** Whether `text` holds `words` as whole words, case and accents aside ("Hof" is not in "Bahnhofstraße"). */
export function holdsWords(text: string, words: string): boolean {
  const key = nameKey(words)
  return key !== '' && ` ${nameKey(text)} `.includes(` ${key} `)
}

/**
 * The key of the name order: nameKey's, with each run of digits led by its length in three digits
 * (a name has at most 200 characters), so numbers compare as numbers ("store 2" before
 * "store 10"). Leading zeros do not count.
 */
export function nameOrderKey(name: string): string {
  const key = nameKey(name)
  return DIGIT.test(key) ? key.replace(DIGITS, numberKey) : key
}

const DIGIT = /[0-9]/
const DIGITS = /[0-9]+/g
const numberKey = (run: string): string => {
  const n = run.replace(/^0+(?=[0-9])/, '')
  return `${String(n.length).padStart(3, '0')}${n}`
}

/**
 * Text with nameKey's words, made for cutting into words rather than for reading: ASCII text only
 * lowercased (its words are the runs of a-z and 0-9 in it; nameKey's replace and trim would be
 * most of an index build's text work: PERF-001), other text nameKey'd (words apart by single
 * spaces). Every character a word holds is an ASCII letter or digit or beyond ASCII, so
 * `isWordChar` cuts both kinds the same way (test/text.test.ts checks the words against nameKey's).
 */
export function searchKey(text: string): string {
  return NON_ASCII.test(text) ? nameKey(text) : text.toLowerCase()
}

/** Per UTF-16 code unit below 128: 1 for an ASCII letter or digit. Every unit from 128 up belongs to a word. */
const WORD_ASCII = /* @__PURE__ */ new Uint8Array(128).map((_, c) =>
  /[A-Za-z0-9]/.test(String.fromCharCode(c)) ? 1 : 0,
)

/** Whether UTF-16 code unit `c` of a searchKey (or nameKey) text belongs to a word. */
export const isWordChar = (c: number): boolean => c >= 128 || WORD_ASCII[c] === 1

/**
 * Whether `a` and `b` are within `k` edits, by one row of the table at a time. An edit is a
 * character added, dropped or changed, or two side by side swapped ("Itlay", "bkies").
 */
export function withinEdits(a: string, b: string, k: number): boolean {
  if (Math.abs(a.length - b.length) > k) return false
  let twoUp: number[] = []
  let row = Array.from({ length: a.length + 1 }, (_, i) => i)
  for (let j = 1; j <= b.length; j++) {
    const next = [j]
    let least = j
    for (let i = 1; i <= a.length; i++) {
      let v = Math.min(
        row[i - 1]! + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1),
        row[i]! + 1,
        next[i - 1]! + 1,
      )
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        v = Math.min(v, twoUp[i - 2]! + 1)
      next[i] = v
      if (v < least) least = v
    }
    if (least > k) return false
    twoUp = row
    row = next
  }
  return row[a.length]! <= k
}

/** " (did you mean dry_run?)" for a name that is one of `names` but for case and separators ("dryRun", "dry-run"); else "". */
export function meantName(name: string, names: readonly string[]): string {
  const bare = (n: string) => n.toLowerCase().replace(/[^a-z]/g, '')
  const known = names.find((n) => bare(n) === bare(name))
  return known ? ` (did you mean ${known}?)` : ''
}

/** `text` as a message quotes it: cut to `max` characters, "…" marking the cut. */
export function clipped(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
