// Postcodes as a visitor types them, found by prefix among the place search's sorted codes: the
// whole code's towns first, then each code begun's towns in turn.
import { CANADIAN_FULL } from './place-codes'
import { postcodeHit, type PlaceHit } from './place-hit'
import { codeText, type SortedKeys, type Texts, utf8 } from './place-keys'
import type { PlaceParts } from './place-parts'
import type { Within } from './place-within'

/** Postcodes looked at for one query, at most (in code order). */
const POSTCODES_SCANNED = 200
/** Postcodes looked at for one query narrowed by a region or country. */
const KEEP_CODES_SCANNED = 20_000

/**
 * The postcodes `key` begins (spaces aside), in `within` (null: anywhere): by region where the
 * data knows the postcode's, else by country ("San Francisco, TX 94103" is none). At most
 * POSTCODES_SCANNED.
 */
export function codeHits(
  parts: PlaceParts,
  codes: SortedKeys,
  codeLabel: Texts,
  key: string,
  within: Within | null,
): PlaceHit[] {
  const hits: PlaceHit[] = []
  const compact = key.replace(/\s+/g, '')
  const code = utf8.encode(CANADIAN_FULL.exec(compact)?.[1] ?? compact)
  const [a, b] = codes.range(code)
  const { codeCountry, codeAdmin1, admins } = parts
  // Narrowed, the region's or country's first: "A-11" is Vienna's 1100, past others' 11000 on.
  const end = Math.min(b, a + (within === null ? POSTCODES_SCANNED : KEEP_CODES_SCANNED))
  // Of codes the text only begins, each code's first town before any code's second (turns[n]:
  // each code's n-th town): "280" is not only 2800's 60 towns (Orange's), but 28001 Madrid on.
  const turns: PlaceHit[][] = []
  const { bytes, start } = codes
  let nth = 0
  for (let i = a; i < end && hits.length < POSTCODES_SCANNED; i++) {
    // Keys are sorted: a code's rows are neighbours.
    const same = i > a && bytes.compare(bytes, start[i - 1]!, start[i]!, start[i]!, start[i + 1]!) === 0
    nth = same ? nth + 1 : 0
    const row = codes.ref[i]!
    const [country, admin1] = [codeText(codeCountry[row]!), admins[codeAdmin1[row]!]!]
    if (within === null || (admin1 === '' ? within.country(country) : within.town(country, admin1))) {
      const hit = postcodeHit(parts, codeLabel, row, codes.equals(i, code))
      hits.push(hit)
      if (!hit.exact) (turns[nth] ??= []).push(hit)
    }
  }
  return [...hits.filter((h) => h.exact), ...turns.flat()]
}
