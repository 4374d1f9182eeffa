// One folded form of text, shared by the geocoder (place names) and the search index (keywords).

const FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' }

/** "Saint-Étienne" -> "saint etienne", "München" -> "munchen", "O’Connor" -> "oconnor". Non-Latin scripts fold to "". */
export function nameKey(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ßæœøłđðþı]/g, (c) => FOLD[c]!)
    .replace(/['’`´]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
}
