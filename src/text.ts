// One folded form of text, shared by the geocoder (place names) and the search index (keywords).

const NON_ASCII = /[^\x00-\x7f]/

const FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' }

/**
 * "Saint-Étienne" -> "saint etienne", "München" -> "munchen", "Musée d'Orsay" -> "musee d orsay",
 * "Москва" -> "москва". Letters and digits of every script are kept; everything else separates words.
 */
export function nameKey(text: string): string {
  // ASCII (most text): the same result, without the Unicode normalization and its passes.
  if (!NON_ASCII.test(text)) return text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ßæœøłđðþı]/g, (c) => FOLD[c]!)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}
