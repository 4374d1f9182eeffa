// "Stores in {country}" as each language says it: most countries take the preposition and the name
// alone, as countryLabel gives it ("in Frankreich"); these take an article, whose case changes the
// name in German ("in der Schweiz", "in den Vereinigten Staaten"), or, as islands, "auf" or "op";
// French picks "en", "au", "aux" or "à" by the name's gender, number and kind ("en Suisse", "au
// Canada", "aux Pays-Bas", "à Malte"); Italian "in", or an article joined to it ("nel Regno Unito").
import { countryLabel } from '../../geocode/countries'
import { filled, type LangTexts } from './page-texts'

/** German: the whole phrase, in the dative. */
const DE: Record<string, string> = {
  AE: 'in den Vereinigten Arabischen Emiraten',
  AQ: 'in der Antarktis',
  AX: 'auf den Ålandinseln',
  BQ: 'in den Karibischen Niederlanden',
  BS: 'auf den Bahamas',
  CC: 'auf den Kokosinseln',
  CF: 'in der Zentralafrikanischen Republik',
  CH: 'in der Schweiz',
  CK: 'auf den Cookinseln',
  DO: 'in der Dominikanischen Republik',
  EH: 'in der Westsahara',
  FK: 'auf den Falklandinseln',
  FO: 'auf den Färöern',
  GB: 'im Vereinigten Königreich',
  IQ: 'im Irak',
  IR: 'im Iran',
  KM: 'auf den Komoren',
  KY: 'auf den Kaimaninseln',
  LB: 'im Libanon',
  MD: 'in der Republik Moldau',
  MH: 'auf den Marshallinseln',
  MN: 'in der Mongolei',
  MP: 'auf den Nördlichen Marianen',
  MV: 'auf den Malediven',
  NL: 'in den Niederlanden',
  PH: 'auf den Philippinen',
  PN: 'auf den Pitcairninseln',
  SB: 'auf den Salomonen',
  SC: 'auf den Seychellen',
  SD: 'im Sudan',
  SK: 'in der Slowakei',
  SS: 'im Südsudan',
  TC: 'auf den Turks- und Caicosinseln',
  TD: 'im Tschad',
  TR: 'in der Türkei',
  UA: 'in der Ukraine',
  UM: 'auf den Amerikanischen Überseeinseln',
  US: 'in den Vereinigten Staaten',
  VA: 'in der Vatikanstadt',
  VG: 'auf den Britischen Jungferninseln',
  VI: 'auf den Amerikanischen Jungferninseln',
  YE: 'im Jemen',
}

/** Dutch: the whole phrase. */
const NL: Record<string, string> = {
  AE: 'in de Verenigde Arabische Emiraten',
  AW: 'op Aruba',
  AX: 'op Åland',
  BS: 'op de Bahama’s',
  CC: 'op de Cocoseilanden',
  CF: 'in de Centraal-Afrikaanse Republiek',
  CK: 'op de Cookeilanden',
  CW: 'op Curaçao',
  DO: 'in de Dominicaanse Republiek',
  EH: 'in de Westelijke Sahara',
  FK: 'op de Falklandeilanden',
  FO: 'op de Faeröer',
  GB: 'in het Verenigd Koninkrijk',
  KM: 'op de Comoren',
  KY: 'op de Kaaimaneilanden',
  MH: 'op de Marshalleilanden',
  MP: 'op de Noordelijke Marianen',
  MV: 'op de Maldiven',
  PH: 'in de Filipijnen',
  PN: 'op de Pitcairneilanden',
  SB: 'op de Salomonseilanden',
  SC: 'op de Seychellen',
  SX: 'op Sint-Maarten',
  TC: 'op de Turks- en Caicoseilanden',
  UM: 'op de Kleine afgelegen eilanden van de Verenigde Staten',
  US: 'in de Verenigde Staten',
  VG: 'op de Britse Maagdeneilanden',
  VI: 'op de Amerikaanse Maagdeneilanden',
}

/** Spanish: the article before the name (which keeps its form). */
const ES: Record<string, string> = {
  AE: 'los',
  AX: 'las',
  CC: 'las',
  CF: 'la',
  CK: 'las',
  DO: 'la',
  FK: 'las',
  FO: 'las',
  GB: 'el',
  KY: 'las',
  MH: 'las',
  MP: 'las',
  NL: 'los',
  PN: 'las',
  SB: 'las',
  TC: 'las',
  VG: 'las',
  VI: 'las',
}

/** English: the countries that take "the". */
const EN_THE = new Set('AE AX BS CC CF CK DO FK FO GB KM KY MH MP MV NL PH PN SB SC TC UM US VG VI'.split(' '))

/** French: the whole phrase, where the rules of frenchIn do not give it (plurals, islands, cities). */
const FR: Record<string, string> = {
  AE: 'aux Émirats arabes unis',
  AG: 'à Antigua-et-Barbuda',
  AI: 'à Anguilla',
  AS: 'aux Samoa américaines',
  AW: 'à Aruba',
  BB: 'à la Barbade',
  BH: 'à Bahreïn',
  BM: 'aux Bermudes',
  BQ: 'aux Pays-Bas caribéens',
  BS: 'aux Bahamas',
  CU: 'à Cuba',
  CW: 'à Curaçao',
  CY: 'à Chypre',
  DJ: 'à Djibouti',
  DM: 'à la Dominique',
  FJ: 'aux Fidji',
  GB: 'au Royaume-Uni',
  GD: 'à la Grenade',
  GG: 'à Guernesey',
  GI: 'à Gibraltar',
  GU: 'à Guam',
  HK: 'à Hong Kong',
  HT: 'en Haïti',
  IO: 'dans le Territoire britannique de l’océan Indien',
  JE: 'à Jersey',
  KI: 'aux Kiribati',
  KM: 'aux Comores',
  MC: 'à Monaco',
  MG: 'à Madagascar',
  MO: 'à Macao',
  MS: 'à Montserrat',
  MT: 'à Malte',
  MU: 'à Maurice',
  MV: 'aux Maldives',
  NL: 'aux Pays-Bas',
  NR: 'à Nauru',
  NU: 'à Niue',
  OM: 'à Oman',
  PH: 'aux Philippines',
  PR: 'à Porto Rico',
  PW: 'aux Palaos',
  RE: 'à La Réunion',
  SC: 'aux Seychelles',
  SG: 'à Singapour',
  SL: 'en Sierra Leone',
  ST: 'à Sao Tomé-et-Principe',
  TF: 'dans les Terres australes françaises',
  TK: 'aux Tokelau',
  TO: 'aux Tonga',
  TT: 'à Trinité-et-Tobago',
  TV: 'aux Tuvalu',
  TW: 'à Taïwan',
  US: 'aux États-Unis',
  VA: 'au Vatican',
  WF: 'à Wallis-et-Futuna',
  WS: 'aux Samoa',
  YT: 'à Mayotte',
}

/** French: the countries that are masculine though their name ends in -e ("au Mexique"). */
const FR_MASCULINE = new Set('BZ KH MX MZ SR ZW'.split(' '))

/**
 * A country in French: "aux îles Cook", "sur l’île de Man", "à Sainte-Lucie"; else "en" before a
 * vowel or a feminine name (its first word ends in -e: "en Corée du Sud"), "au" before the rest.
 */
function frenchIn(code: string, name: string): string {
  const own = FR[code]
  if (own !== undefined) return own
  if (/^Îles /.test(name)) return `aux î${name.slice(1)}`
  if (/^Île /.test(name)) return `sur l’î${name.slice(1)}`
  if (/^Sainte?-/.test(name)) return `à ${name}`
  if (/^[AEIOUÀÂÉÈÊÎÔŒ]/.test(name)) return `en ${name}`
  const first = name.split(/[ -]/)[0]!
  return first.endsWith('e') && !FR_MASCULINE.has(code) ? `en ${name}` : `au ${name}`
}

/** Italian: the whole phrase, where it is not "in" and the name ("in Svizzera"). */
const IT: Record<string, string> = {
  AE: 'negli Emirati Arabi Uniti',
  AG: 'ad Antigua e Barbuda',
  AI: 'ad Anguilla',
  AS: 'nelle Samoa Americane',
  AW: 'ad Aruba',
  BB: 'alle Barbados',
  BL: 'a Saint-Barthélemy',
  BM: 'alle Bermuda',
  BQ: 'nei Caraibi Olandesi',
  BS: 'alle Bahamas',
  CF: 'nella Repubblica Centrafricana',
  CU: 'a Cuba',
  CV: 'a Capo Verde',
  CW: 'a Curaçao',
  CY: 'a Cipro',
  DO: 'nella Repubblica Dominicana',
  EH: 'nel Sahara Occidentale',
  FJ: 'alle Figi',
  GB: 'nel Regno Unito',
  GD: 'a Grenada',
  GG: 'a Guernsey',
  GI: 'a Gibilterra',
  GS: 'nella Georgia del Sud e Sandwich Australi',
  GU: 'a Guam',
  HK: 'a Hong Kong',
  HT: 'ad Haiti',
  IO: 'nel Territorio Britannico dell’Oceano Indiano',
  JE: 'a Jersey',
  KM: 'alle Comore',
  KN: 'a Saint Kitts e Nevis',
  LC: 'a Saint Lucia',
  MC: 'a Monaco',
  MF: 'a Saint Martin',
  MO: 'a Macao',
  MS: 'a Montserrat',
  MT: 'a Malta',
  MU: 'a Mauritius',
  MV: 'alle Maldive',
  NL: 'nei Paesi Bassi',
  NR: 'a Nauru',
  NU: 'a Niue',
  PH: 'nelle Filippine',
  PM: 'a Saint-Pierre e Miquelon',
  PR: 'a Portorico',
  PW: 'a Palau',
  RE: 'alla Riunione',
  SC: 'alle Seychelles',
  SG: 'a Singapore',
  SH: 'a Sant’Elena, Isola di Ascensione e Tristan da Cunha',
  SJ: 'alle Svalbard e Jan Mayen',
  SM: 'a San Marino',
  ST: 'a São Tomé e Príncipe',
  SX: 'a Sint Maarten',
  TF: 'nelle Terre Australi Francesi',
  TK: 'a Tokelau',
  TL: 'a Timor Est',
  TO: 'a Tonga',
  TT: 'a Trinidad e Tobago',
  TV: 'a Tuvalu',
  TW: 'a Taiwan',
  UM: 'nelle Isole Minori Esterne degli Stati Uniti',
  US: 'negli Stati Uniti',
  VA: 'nella Città del Vaticano',
  VC: 'a Saint Vincent e Grenadine',
  WF: 'a Wallis e Futuna',
  WS: 'nelle Samoa',
  YT: 'a Mayotte',
}

/** A country in Italian: "nelle Isole Cayman", "nell’Isola di Man", else "in" and the name. */
function italianIn(code: string, name: string): string {
  const own = IT[code]
  if (own !== undefined) return own
  if (/^Isole /.test(name)) return `nelle ${name}`
  if (/^Isola /.test(name)) return `nell’${name}`
  return `in ${name}`
}

/**
 * A country after "in" as the page's language says it: "in der Schweiz", "en el Reino Unido", "in
 * the Netherlands", "en Suisse", "nel Regno Unito"; else the language's own "in {place}" ("in
 * Frankreich").
 */
export function countryIn(code: string, texts: LangTexts): string {
  const name = countryLabel(code, texts.lang)
  const own =
    texts.lang === 'de'
      ? DE[code]
      : texts.lang === 'nl'
        ? NL[code]
        : texts.lang === 'fr'
          ? frenchIn(code, name)
          : texts.lang === 'it'
            ? italianIn(code, name)
            : texts.lang === 'es' && ES[code]
              ? `en ${ES[code]} ${name}`
              : texts.lang === 'en' && EN_THE.has(code)
                ? `in the ${name}`
                : undefined
  return own ?? filled(texts.inPlace, { place: name })
}

/**
 * A town after "in" as the page's language says it: French joins its article to "à" ("au Havre",
 * "aux Sables-d’Olonne"); Italian writes "ad" before an a ("ad Ancona") and joins an Italian
 * town's article ("alla Spezia", "all’Aquila"); else the language's "in {place}".
 */
export function townIn(name: string, country: string | null, texts: LangTexts): string {
  if (texts.lang === 'fr') {
    const joined = /^(Les?) (.+)$/.exec(name)
    if (joined) return `${joined[1] === 'Le' ? 'au' : 'aux'} ${joined[2]}`
  }
  if (texts.lang === 'it') {
    const joined = country === 'IT' ? /^(Il |Lo |La |L['’])(.+)$/.exec(name) : null
    if (joined) return `${ITALIAN_JOINED[joined[1]!.trim()] ?? 'all’'}${joined[2]}`
    if (/^[Aa]/.test(name)) return `ad ${name}`
  }
  return filled(texts.inPlace, { place: name })
}

/**
 * A country's stores of no town, as the language says it: "elsewhere in Germany", "an anderen
 * Orten in der Schweiz", "ailleurs en Suisse", "en otros lugares del Reino Unido".
 */
export function elsewhereIn(code: string, texts: LangTexts): string {
  const article = ES[code]
  const of = `${article === 'el' ? 'del' : article ? `de ${article}` : 'de'} ${countryLabel(code, texts.lang)}`
  return filled(texts.elsewhereIn, { in: countryIn(code, texts), of })
}

/** Italian: "a" joined to a town's article ("a" + "La Spezia": "alla Spezia"). */
const ITALIAN_JOINED: Record<string, string> = { Il: 'al ', Lo: 'allo ', La: 'alla ' }
