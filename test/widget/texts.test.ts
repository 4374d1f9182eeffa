// The widget's sentences as each language writes them (src/widget/format.ts over i18n.ts): when a
// store opens or closes, with the article its language gives the hour; how far it is.
import { describe, expect, test } from 'bun:test'
import type { Location } from '../../src/widget/api'
import { distanceText, openText } from '../../src/widget/format'
import { t, textsFor } from '../../src/widget/i18n'

/** A store whose state changes at `next` (local time in `zone`), seen on the same morning. */
function store(open: boolean, next: string, country = 'ES', zone = 'Europe/Madrid'): Location {
  return {
    open_now: open,
    next_change: next,
    timezone: zone,
    address: { formatted: '', country },
  } as Location
}

const said = (lang: string, location: Location, at = '2026-06-15T00:10:00+02:00') =>
  openText(textsFor(lang).texts, lang, location, new Date(at))

describe('when a store opens or closes', () => {
  test('Spanish: "a la" before 1 o’clock, "a las" before any other hour', () => {
    expect(said('es', store(true, '2026-06-15T01:00:00+02:00'))).toBe('Abierto · cierra a la 1:00')
    expect(said('es', store(true, '2026-06-15T01:30:00+02:00'))).toBe('Abierto · cierra a la 1:30')
    expect(said('es', store(true, '2026-06-15T13:00:00+02:00'))).toBe('Abierto · cierra a las 13:00')
    expect(said('es', store(false, '2026-06-15T02:00:00+02:00'))).toBe('Cerrado · abre a las 2:00')
    expect(said('es', store(false, '2026-06-16T01:00:00+02:00'))).toBe('Cerrado · abre mañana a la 1:00')
    expect(said('es', store(false, '2026-06-17T01:00:00+02:00'))).toBe('Cerrado · abre el miércoles a la 1:00')
    // Spanish in the United States writes 12-hour times: 1 p.m. is "la una" too.
    const miami = (at: string) => store(true, at, 'US', 'America/New_York')
    const morning = '2026-06-15T00:10:00-04:00'
    expect(said('es', miami('2026-06-15T13:00:00-04:00'), morning)).toBe('Abierto · cierra a la 1:00\u00a0p.m.')
    expect(said('es', miami('2026-06-15T15:00:00-04:00'), morning)).toBe('Abierto · cierra a las 3:00\u00a0p.m.')
  })

  test('Italian: "all’" before 1 o’clock, "alle" before any other hour', () => {
    const rome = (open: boolean, at: string) => store(open, at, 'IT', 'Europe/Rome')
    expect(said('it', rome(true, '2026-06-15T01:00:00+02:00'))).toBe('Aperto · chiude all’1:00')
    expect(said('it', rome(true, '2026-06-15T13:00:00+02:00'))).toBe('Aperto · chiude alle 13:00')
    expect(said('it', rome(true, '2026-06-15T11:00:00+02:00'))).toBe('Aperto · chiude alle 11:00')
    expect(said('it', rome(false, '2026-06-15T01:15:00+02:00'))).toBe('Chiuso · apre all’1:15')
    expect(said('it', rome(false, '2026-06-16T01:00:00+02:00'))).toBe('Chiuso · apre domani all’1:00')
    expect(said('it', rome(false, '2026-06-17T01:00:00+02:00'))).toBe('Chiuso · apre mercoledì all’1:00')
    expect(said('it', rome(false, '2026-06-17T09:00:00+02:00'))).toBe('Chiuso · apre mercoledì alle 9:00')
  })

  test('the other languages take no article that changes with the hour', () => {
    const at = '2026-06-15T01:00:00+02:00'
    expect(said('en', store(true, at, 'GB', 'Europe/Madrid'))).toBe('Open now · closes at 1:00')
    expect(said('de', store(true, at, 'DE'))).toBe('Jetzt geöffnet · schließt um 1:00\u00a0Uhr')
    expect(said('fr', store(true, at, 'FR'))).toBe('Ouvert · ferme à 1:00')
    expect(said('nl', store(true, at, 'NL'))).toBe('Nu open · sluit om 1:00')
  })
})

describe('the day a store opens', () => {
  const berlin = (at: string) => store(false, at, 'DE', 'Europe/Berlin')
  // Friday 23:30 in Berlin, Friday 21:30 UTC.
  const friday = '2026-06-19T23:30:00+02:00'
  test('tomorrow is "tomorrow", by the store\'s calendar; a day after, its weekday', () => {
    expect(said('en', berlin('2026-06-20T09:00:00+02:00'), friday)).toBe('Closed · opens tomorrow at 9:00')
    expect(said('en', berlin('2026-06-22T09:00:00+02:00'), friday)).toBe('Closed · opens Monday at 9:00')
    expect(said('de', berlin('2026-06-20T09:00:00+02:00'), friday)).toBe('Geschlossen · öffnet morgen um 9:00\u00a0Uhr')
    expect(said('de', berlin('2026-06-22T09:00:00+02:00'), friday)).toBe(
      'Geschlossen · öffnet am Montag um 9:00\u00a0Uhr',
    )
    expect(said('fr', berlin('2026-06-20T09:00:00+02:00'), friday)).toBe('Fermé · ouvre demain à 9:00')
    expect(said('es', berlin('2026-06-20T09:00:00+02:00'), friday)).toBe('Cerrado · abre mañana a las 9:00')
    expect(said('it', berlin('2026-06-20T09:00:00+02:00'), friday)).toBe('Chiuso · apre domani alle 9:00')
    expect(said('nl', berlin('2026-06-20T09:00:00+02:00'), friday)).toBe('Gesloten · opent morgen om 9:00')
    expect(said('en', berlin('2026-06-19T23:45:00+02:00'), friday)).toBe('Closed · opens at 23:45')
    // Sunday 25 October has 25 hours: its first minutes and its last are a day from Monday.
    const monday = berlin('2026-10-26T09:00:00+01:00')
    expect(said('en', monday, '2026-10-25T00:30:00+02:00')).toBe('Closed · opens tomorrow at 9:00')
    expect(said('en', monday, '2026-10-25T23:30:00+01:00')).toBe('Closed · opens tomorrow at 9:00')
    expect(said('en', monday, '2026-10-24T23:30:00+02:00')).toBe('Closed · opens Monday at 9:00')
  })
})

describe('the day an open store closes', () => {
  const open = (at: string) => store(true, at, 'DE', 'Europe/Berlin')
  const monday = '2026-06-15T10:00:00+02:00'
  test("past midnight it is the night's closing; a day ahead, tomorrow; later, its weekday", () => {
    expect(said('en', open('2026-06-16T02:00:00+02:00'), '2026-06-15T20:00:00+02:00')).toBe('Open now · closes at 2:00')
    expect(said('en', open('2026-06-16T09:00:00+02:00'), monday)).toBe('Open now · closes tomorrow at 9:00')
    expect(said('en', open('2026-06-17T18:00:00+02:00'), monday)).toBe('Open now · closes Wednesday at 18:00')
    const wednesday = open('2026-06-17T18:00:00+02:00')
    expect(said('de', wednesday, monday)).toBe('Jetzt geöffnet · schließt am Mittwoch um 18:00\u00a0Uhr')
    expect(said('fr', wednesday, monday)).toBe('Ouvert · ferme mercredi à 18:00')
    expect(said('es', wednesday, monday)).toBe('Abierto · cierra el miércoles a las 18:00')
    expect(said('it', wednesday, monday)).toBe('Aperto · chiude mercoledì alle 18:00')
    expect(said('nl', wednesday, monday)).toBe('Nu open · sluit woensdag om 18:00')
    expect(said('es', open('2026-06-16T01:00:00+02:00'), monday)).toBe('Abierto · cierra mañana a la 1:00')
  })
})

describe('distances', () => {
  const d = distanceText
  test('never broken between the number and its unit', () => {
    expect(d('en', 2.34, 'km')).toBe('2.3\u00a0km')
    expect(d('en', 25, 'miles')).toBe('25\u00a0mi')
    expect(d('de', 0.84, 'km')).toBe('0,8\u00a0km')
    expect(d('nl', 1000, 'km')).toBe('1.000\u00a0km')
    // French sets units off with a narrow no-break space, as it groups thousands.
    expect(d('fr', 2.34, 'km')).toBe('2,3\u202fkm')
    expect(d('fr', 1000, 'km')).toBe('1\u202f000\u202fkm')
    for (const lang of ['en', 'de', 'fr', 'es', 'it', 'nl'])
      for (const unit of ['km', 'miles'] as const) expect(d(lang, 12.3, unit)).not.toMatch(/ /)
  })

  test('miles in words where the language has no sign for them; km as everyone writes it', () => {
    expect(d('de', 25, 'miles')).toBe('25\u00a0Meilen')
    expect(d('de', 1, 'miles')).toBe('1\u00a0Meile')
    expect(d('es', 25, 'miles')).toBe('25\u00a0millas')
    expect(d('it', 25, 'miles')).toBe('25\u00a0miglia')
    expect(d('it', 1, 'miles')).toBe('1\u00a0miglio')
    expect(d('nl', 2.5, 'miles')).toBe('2,5\u00a0mijl')
    expect(d('fr', 25, 'miles')).toBe('25\u00a0miles')
    expect(d('fr', 0.8, 'miles')).toBe('0,8\u00a0mile')
    for (const lang of ['de', 'fr', 'es', 'it', 'nl']) expect(d(lang, 40, 'km')).toMatch(/^40\s?km$/)
  })
})

describe('a place named in a sentence', () => {
  const fr = textsFor('fr').texts
  test('French elides "de" before a vowel and joins it to the article of a name', () => {
    expect(t(fr, 'foundNear', { n: 2, r: '25 km', place: 'Inverness' })).toBe('2 magasins à moins de 25 km d’Inverness')
    expect(t(fr, 'noneNear', { r: '5 km', place: 'Évry' })).toStartWith('Aucun magasin à moins de 5 km d’Évry.')
    expect(t(fr, 'nearestNear', { r: '5 km', place: 'Le Havre, France' })).toStartWith(
      'Aucun magasin à moins de 5 km du Havre, France.',
    )
    expect(t(fr, 'foundNear', { n: 3, r: '5 km', place: 'Les Ulis' })).toBe('3 magasins à moins de 5 km des Ulis')
    expect(t(fr, 'foundNear', { n: 3, r: '5 km', place: 'La Rochelle' })).toBe(
      '3 magasins à moins de 5 km de La Rochelle',
    )
    expect(t(fr, 'foundNear', { n: 3, r: '5 km', place: 'Paris' })).toBe('3 magasins à moins de 5 km de Paris')
  })

  test('the other languages write the name as it is', () => {
    expect(t(textsFor('es').texts, 'foundNear', { n: 2, r: '25 km', place: 'El Escorial' })).toBe(
      '2 tiendas a menos de 25 km de El Escorial',
    )
    expect(t(textsFor('it').texts, 'foundNear', { n: 2, r: '25 km', place: 'Ancona' })).toBe(
      '2 negozi entro 25 km da Ancona',
    )
  })
})
