// How an address writes a region: in full, by another of its names ("Bayern" for Bavaria), or
// short, as a code or a style guide's abbreviation ("IL", "Ill.", "N.S.W."). The widget (in the
// browser) and the store pages both read this: no Node, and no table of every region's code, which
// the widget's size budget has no room for.
import { nameKey } from './text'

/**
 * Regions people name in two languages, whichever the geocoder gives: each a group of names
 * apart by ":", the groups by "|".
 */
const OTHER_NAMES = (
  'Bayern:Bavaria|Hessen:Hesse|Niedersachsen:Lower Saxony|Nordrhein-Westfalen:North Rhine-Westphalia|' +
  'Rheinland-Pfalz:Rhineland-Palatinate|Sachsen:Saxony|Sachsen-Anhalt:Saxony-Anhalt|Thüringen:Thuringia|' +
  'Mecklenburg-Vorpommern:Mecklenburg-Western Pomerania|Wien:Vienna|Niederösterreich:Lower Austria|' +
  'Oberösterreich:Upper Austria|Steiermark:Styria|Kärnten:Carinthia|Tirol:Tyrol|Genève:Geneva:Genf:Ginevra|' +
  'Bern:Berne|Luzern:Lucerne|Fribourg:Freiburg|Graubünden:Grisons:Grigioni|Ticino:Tessin|Vaud:Waadt|' +
  'Valais:Wallis|Neuchâtel:Neuenburg|Basel-Stadt:Bâle-Ville|Solothurn:Soleure|Aargau:Argovie'
)
  .split('|')
  .map((group) => group.split(':'))

/** The names of the region `region` names: it, and its other names where it has some. */
const namesOf = (region: string): string[] => {
  const key = nameKey(region)
  return OTHER_NAMES.find((group) => group.some((name) => nameKey(name) === key)) ?? [region]
}

/**
 * Whether `text` writes the region `region` (a name) names: by one of its names as words (case
 * and accents aside), or short, case and periods aside: a word of two or three letters ("IL",
 * "nsw", "N.Y."), or one of up to six with a period ("Ill.", "Calif.", "Nfld."), whose letters
 * begin as a name does and come in it in order: a US state's, Canadian province's, Australian or
 * German state's, Swiss canton's code ("CA", "QLD", "BY", "ZH") or abbreviation ("W.Va."), in
 * those countries (or with none given). A short word counts where a region stands: first in its
 * piece or after the town (`town`), with only numbers and short words between; not in the town's
 * name ("St. George" is not South Carolina's "St") nor after a street's words ("1200 Main St").
 * A region given as a code is written in capitals, or, in those countries, in full (spelledOut).
 * `others`: keys (nameKey) of names that are no region's, the country's.
 */
export function writesRegion(
  text: string,
  region: string,
  country: string | undefined,
  town = '',
  others: string[] = [],
): boolean {
  // A region given as a code ("IN", "ME") is written only as that code, in capitals: not "in".
  const code = /^[A-Z]{2,3}$/.test(region)
  const names = namesOf(region)
  if (!code && namesBeside(text, names.map(nameKey), town)) return true
  if (country !== undefined && !ABBREVIATING.has(country)) {
    if (!code) return false
  } else if (code && spelledOut(text, region.toLowerCase(), town, others)) return true
  const letters = names.map((name) => nameKey(name).replace(/ /g, ''))
  const townWords = townKey(town).split(' ')
  return text.split(/[,;/()]/).some((piece) => {
    let stands = true
    for (const word of piece.split(/\s+/)) {
      const key = nameKey(word.replace(/\./g, ''))
      if (key === '' || townWords.includes(townKey(key))) stands = true
      else if (/^\p{L}+$/u.test(key) && (key.length <= 3 || (key.length <= 6 && word.endsWith('.')))) {
        const named = code ? word.replace(/\./g, '') === region : letters.some((name) => inOrder(key, name))
        if (stands && key.length >= 2 && named) return true
      } else if (!/\d/.test(key)) stands = false
    }
    return false
  })
}

/**
 * Whether a piece of `text` is, but for the town's name and numbers, a name that the code `code`
 * (in lower case) abbreviates, or another name of its region: begun by the code's first letter,
 * its letters in order ("Illinois" of "il", "Bavaria" as Bayern of "by"), of a name of several
 * words in their initials ("New South Wales" of "nsw", not "Main Street" of "ma"). Not a piece that writes
 * the code as a word ("Co-op Market" is not Colorado's), nor one of `others`.
 */
function spelledOut(text: string, code: string, town: string, others: string[]): boolean {
  return text.split(/[,;/()]/).some((piece) => {
    const words = ` ${townKey(piece)} `
      .split(` ${townKey(town)} `)
      .join(' ')
      .split(' ')
      .filter((w) => w && !/\d/.test(w))
    const key = words.join(' ')
    return (
      key &&
      !words.includes(code) &&
      !others.includes(key) &&
      namesOf(key).some((name) => {
        const k = nameKey(name)
        // A name of several words by their initials ("nsw", "dc"): "Main Street" holds "ma" otherwise.
        return inOrder(code, k.includes(' ') ? k.replace(/(\S)\S* ?/g, '$1') : k)
      })
    )
  })
}

/** The words a town's name is written short by ("St. George" for Saint George, "Sankt Ingbert"). */
const SHORT: Record<string, string> = { saint: 'st', sainte: 'ste', sankt: 'st', fort: 'ft', mount: 'mt' }

/** A town's name as nameKey's, its "Saint", "Fort" or "Mount" written short: "saint george" is "st george". */
const townKey = (text: string) =>
  nameKey(text).replace(/(^| )(saint|sainte|sankt|fort|mount)(?= |$)/g, (_, space, w) => space + SHORT[w])

/** Whether `text` holds the town `town` as words, case, accents and a short "St."/"Mt."/"Ft." aside. */
export function holdsTown(text: string, town: string): boolean {
  const key = townKey(town)
  return key !== '' && ` ${townKey(text)} `.includes(` ${key} `)
}

/**
 * Whether `text` holds one of `keys` (nameKey's) as words outside its town's name: "Kansas City"
 * names no Kansas, "Panama City" no Panama. A key that is the town's name counts there
 * ("New York", "Singapore").
 */
export function namesBeside(text: string, keys: string[], town: string): boolean {
  const own = nameKey(town)
  const words = ` ${nameKey(text)} `
  const beside = words.split(` ${own} `).join('  ')
  return keys.some((key) => key !== '' && (key === own ? words : beside).includes(` ${key} `))
}

/**
 * The countries whose regions addresses write short. Elsewhere a short word is an article or a
 * preposition ("La Spezia" is not Liguria's "LA").
 */
const ABBREVIATING = new Set(['US', 'CA', 'AU', 'DE', 'CH'])

/** Whether `short` begins as `name` does and its letters come in `name` in order ("wva" in "westvirginia"). */
function inOrder(short: string, name: string): boolean {
  if (short[0] !== name[0]) return false
  let at = 0
  for (const c of short) {
    at = name.indexOf(c, at) + 1
    if (at === 0) return false
  }
  return true
}
