// How an address writes a region: in full, by another of its names ("Bayern" for Bavaria), or
// short, as a code or a style guide's abbreviation ("IL", "Ill.", "N.S.W."). The widget (in the
// browser) and the store pages both read this: no Node, and a table of region names only for the
// five countries whose regions are given as codes, which the widget's size budget has room for.
import { nameKey } from './text'

/**
 * The regions of the countries whose addresses give them as codes (ABBREVIATING), by code: each
 * country's a list of a code and its region's names apart by ":" (the name, then others people
 * write, whichever the geocoder gives), apart by "|".
 */
const REGIONS: Record<string, string> = {
  US:
    'AL Alabama|AK Alaska|AZ Arizona|AR Arkansas|CA California|CO Colorado|CT Connecticut|DE Delaware|' +
    'DC District of Columbia|FL Florida|GA Georgia|HI Hawaii|ID Idaho|IL Illinois|IN Indiana|IA Iowa|' +
    'KS Kansas|KY Kentucky|LA Louisiana|ME Maine|MD Maryland|MA Massachusetts|MI Michigan|MN Minnesota|' +
    'MS Mississippi|MO Missouri|MT Montana|NE Nebraska|NV Nevada|NH New Hampshire|NJ New Jersey|' +
    'NM New Mexico|NY New York|NC North Carolina|ND North Dakota|OH Ohio|OK Oklahoma|OR Oregon|' +
    'PA Pennsylvania|RI Rhode Island|SC South Carolina|SD South Dakota|TN Tennessee|TX Texas|UT Utah|' +
    'VT Vermont|VA Virginia|WA Washington|WV West Virginia|WI Wisconsin|WY Wyoming',
  CA:
    'AB Alberta|BC British Columbia|MB Manitoba|NB New Brunswick|NL Newfoundland and Labrador|' +
    'NS Nova Scotia|ON Ontario|PE Prince Edward Island|QC Quebec|SK Saskatchewan|' +
    'NT Northwest Territories|NU Nunavut|YT Yukon',
  AU:
    'NSW New South Wales|VIC Victoria|QLD Queensland|SA South Australia|WA Western Australia|' +
    'TAS Tasmania|NT Northern Territory|ACT Australian Capital Territory',
  DE:
    'BW Baden-Württemberg|BY Bayern:Bavaria|BE Berlin|BB Brandenburg|HB Bremen|HH Hamburg|HE Hessen:Hesse|' +
    'MV Mecklenburg-Vorpommern:Mecklenburg-Western Pomerania|NI Niedersachsen:Lower Saxony|' +
    'NW Nordrhein-Westfalen:North Rhine-Westphalia|RP Rheinland-Pfalz:Rhineland-Palatinate|SL Saarland|' +
    'SN Sachsen:Saxony|ST Sachsen-Anhalt:Saxony-Anhalt|SH Schleswig-Holstein|TH Thüringen:Thuringia',
  CH:
    'AG Aargau:Argovie|AI Appenzell Innerrhoden|AR Appenzell Ausserrhoden|BE Bern:Berne|' +
    'BL Basel-Landschaft:Basel-Land|BS Basel-Stadt:Bâle-Ville|FR Fribourg:Freiburg|' +
    'GE Genève:Geneva:Genf:Ginevra|GL Glarus|GR Graubünden:Grisons:Grigioni|JU Jura|LU Luzern:Lucerne|' +
    'NE Neuchâtel:Neuenburg|NW Nidwalden|OW Obwalden|SG St. Gallen|SH Schaffhausen|SO Solothurn:Soleure|' +
    'SZ Schwyz|TG Thurgau|TI Ticino:Tessin|UR Uri|VD Vaud:Waadt|VS Valais:Wallis|ZG Zug|ZH Zürich',
}

/** A country's regions from REGIONS: each its code, then its names. */
const regionsOf = (country: string): string[][] =>
  (REGIONS[country] ?? '').split('|').map((entry) => entry.replace(' ', ':').split(':'))

/** The name of the region of `country` whose code is `code` ("US", "OR": "Oregon"); null when REGIONS has none. */
export const regionNamed = (country: string, code: string): string | null =>
  regionsOf(country).find((entry) => entry[0] === code)?.[1] ?? null

/** Groups of the names of one region: REGIONS' and Austria's, whose regions are not given as codes. */
const OTHER_NAMES = [
  ...'Wien:Vienna|Niederösterreich:Lower Austria|Oberösterreich:Upper Austria|Steiermark:Styria|Kärnten:Carinthia|Tirol:Tyrol'
    .split('|')
    .map((group) => group.split(':')),
  ...['DE', 'CH'].flatMap((country) => regionsOf(country).map((entry) => entry.slice(1))),
]

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
 */
export function writesRegion(text: string, region: string, country: string | undefined, town = ''): boolean {
  // A region given as a code ("IN", "ME") is written only as that code, in capitals: not "in".
  const code = /^[A-Z]{2,3}$/.test(region)
  const names = namesOf(region)
  if (!code && namesBeside(text, names.map(nameKey), town)) return true
  if (country !== undefined && !ABBREVIATING.has(country)) {
    if (!code) return false
  } else if (code && spelledOut(text, region, country, town)) return true
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
 * Whether a piece of `text` is, but for numbers and (in the first piece that holds it) the town's
 * name, one of the names of the region whose code is `code` in `country` (in any of those
 * countries where none is given), case, accents and "St."/"Sankt" aside: "Illinois" for "IL",
 * "Bavaria" for "BY"; not "Chinatown" for "CA" nor "Unit 5" for "UT".
 */
function spelledOut(text: string, code: string, country: string | undefined, town: string): boolean {
  const names = (country === undefined ? Object.keys(REGIONS) : [country])
    .flatMap(regionsOf)
    .filter((entry) => entry[0] === code)
    .flatMap((entry) => entry.slice(1).map(townKey))
  let inTown = town !== ''
  return text.split(/[,;/()]/).some((piece) => {
    const whole = words(townKey(piece))
    // A region's name that holds the town's and is more ("Appenzell Innerrhoden") names the region.
    if (whole !== townKey(town) && names.includes(whole)) return true
    let key = ` ${townKey(piece)} `
    if (inTown && holdsTown(piece, town)) {
      key = key.replace(` ${townKey(town)} `, ' ')
      inTown = false
    }
    return names.includes(words(key))
  })
}

/** A key's words but those with a digit (a postcode, a house number). */
const words = (key: string) =>
  key
    .replace(/\S*\d\S*/g, ' ')
    .trim()
    .replace(/ +/g, ' ')

/** Whether `piece` is the town's name but for numbers, "St."/"Sankt" aside: "9000 St. Gallen" is St. Gallen. */
export const onlyTown = (piece: string, town: string): boolean => town !== '' && words(townKey(piece)) === townKey(town)

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
 * names no Kansas, "Panama City" no Panama, nor "Kuwait City, Kuwait City" Kuwait. A key that is
 * the town's name counts there ("New York", "Singapore").
 */
export function namesBeside(text: string, keys: string[], town: string): boolean {
  const own = nameKey(town)
  const words = ` ${nameKey(text)} `
  // The lookahead leaves the space after the name, which begins its next writing: "kuwait city kuwait city".
  const beside = own === '' ? words : words.replace(new RegExp(` ${own}(?= )`, 'gu'), ' ')
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
