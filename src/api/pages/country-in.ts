// "Stores in {country}" as each language says it: most countries take the preposition and the name
// alone, as countryLabel gives it ("in Frankreich"); these take an article, whose case changes the
// name in German ("in der Schweiz", "in den Vereinigten Staaten"), or, as islands, "auf" or "op".
// French and Italian pages name a place after a colon ("Magasins : Suisse"), so need none.
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

/**
 * A country after "in" as the page's language says it: "in der Schweiz", "en el Reino Unido", "in
 * the Netherlands"; else the language's own "in {place}" ("in Frankreich", "Suisse").
 */
export function countryIn(code: string, texts: LangTexts): string {
  const name = countryLabel(code, texts.lang)
  const own =
    texts.lang === 'de'
      ? DE[code]
      : texts.lang === 'nl'
        ? NL[code]
        : texts.lang === 'es' && ES[code]
          ? `en ${ES[code]} ${name}`
          : texts.lang === 'en' && EN_THE.has(code)
            ? `in the ${name}`
            : undefined
  return own ?? filled(texts.inPlace, { place: name })
}
