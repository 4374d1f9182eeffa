// What the page languages call big cities whose names differ among them, for the place search's
// labels: a whole other name typed is shown only where it is the page's language's name, so a
// French page's "Prag" shows Prague, as a German page's shows Prag. Cities not here show the
// name typed, as the data holds no language of its names.
import type { Lang } from '../../core/languages'
import { nameKey } from '../../core/text'

type Names = Partial<Record<Lang, string>>

/** By country and the key of the data's own name. */
const CITY_NAMES: Record<string, Names> = {
  'CZ prague': { de: 'Prag', fr: 'Prague', es: 'Praga', it: 'Praga', nl: 'Praag' },
  'BE brussels': { de: 'Brüssel', fr: 'Bruxelles', es: 'Bruselas', it: 'Bruxelles', nl: 'Brussel' },
  'GR athens': { de: 'Athen', fr: 'Athènes', es: 'Atenas', it: 'Atene', nl: 'Athene' },
  'DK copenhagen': { de: 'Kopenhagen', fr: 'Copenhague', es: 'Copenhague', it: 'Copenaghen', nl: 'Kopenhagen' },
  'IT naples': { de: 'Neapel', fr: 'Naples', es: 'Nápoles', it: 'Napoli', nl: 'Napels' },
  'RS belgrade': { de: 'Belgrad', fr: 'Belgrade', es: 'Belgrado', it: 'Belgrado', nl: 'Belgrado' },
  'RO bucharest': { de: 'Bukarest', fr: 'Bucarest', es: 'Bucarest', it: 'Bucarest', nl: 'Boekarest' },
  'IT rome': { de: 'Rom', fr: 'Rome', es: 'Roma', it: 'Roma', nl: 'Rome' },
  'IT milan': { de: 'Mailand', fr: 'Milan', es: 'Milán', it: 'Milano', nl: 'Milaan' },
  'IT venice': { de: 'Venedig', fr: 'Venise', es: 'Venecia', it: 'Venezia', nl: 'Venetië' },
  'IT florence': { de: 'Florenz', fr: 'Florence', es: 'Florencia', it: 'Firenze', nl: 'Florence' },
  'PL warsaw': { de: 'Warschau', fr: 'Varsovie', es: 'Varsovia', it: 'Varsavia', nl: 'Warschau' },
  'RU moscow': { de: 'Moskau', fr: 'Moscou', es: 'Moscú', it: 'Mosca', nl: 'Moskou' },
  'PT lisbon': { de: 'Lissabon', fr: 'Lisbonne', es: 'Lisboa', it: 'Lisbona', nl: 'Lissabon' },
  'AT vienna': { de: 'Wien', fr: 'Vienne', es: 'Viena', it: 'Vienna', nl: 'Wenen' },
  'DE munich': { de: 'München', fr: 'Munich', es: 'Múnich', it: 'Monaco di Baviera', nl: 'München' },
  'IT turin': { de: 'Turin', fr: 'Turin', es: 'Turín', it: 'Torino', nl: 'Turijn' },
  'IT genoa': { de: 'Genua', fr: 'Gênes', es: 'Génova', it: 'Genova', nl: 'Genua' },
}

/** A city's name on a page, and whether the text typed begins it (pageName). */
export type PageName = { name: string; begun: boolean }

/**
 * The name `lang` gives the city labelled `label` in `country` ("Prague, Czechia"), when it is
 * known and other than `typed` (a whole name, as a key would fold it); else undefined. `begun`:
 * `typed` begins it and it is not the data's name, as a German page's "Mün" begins München,
 * shown so as "München" typed whole is.
 */
export function pageName(label: string, country: string, lang: Lang, typed: string): PageName | undefined {
  const comma = label.indexOf(',')
  const own = nameKey(comma < 0 ? label : label.slice(0, comma))
  const name = CITY_NAMES[`${country} ${own}`]?.[lang]
  if (name === undefined) return undefined
  const [key, typedKey] = [nameKey(name), nameKey(typed)]
  if (key === typedKey) return undefined
  return { name, begun: typedKey !== '' && key !== own && key.startsWith(typedKey) }
}
