// Whether a whole other name the text equals, that another of the town's names goes on from, is
// a name to read whole ("Prag") or one cut short, likely typed only so far ("Amsterda").
import type { SortedKeys, Texts } from './place-keys'

/**
 * Whether a town's other name, written every way as `spelt`, that its names at `on` (indexes of
 * `keys`) go on from is likely a name cut short: one written one way only that several names go
 * on from ("Firenz": Firenze, Firenzi; "Bruxel": Bruxelles, Bruxelas), or one the town's own name
 * goes on from where other names go on from that ("Amsterda": Amsterdam, Amsterdams). Several
 * languages' spellings ("Prag", "Prág"), one name going on ("Neapel": Neapelj), or an own name
 * nothing goes on from ("Athen": Athens) are of a name whole.
 */
export function cutShort(keys: SortedKeys, spellings: Texts, spelt: string, on: number[]): boolean {
  // Only names fit to show count: not one in capitals or with digits ("ATHENSA").
  const fit = (i: number) => keys.main[i] === 1 || spellings.at(i) !== ''
  const shown = on.filter(fit)
  if (!spelt.includes('|') && shown.length > 1) return true
  const own = shown.find((i) => keys.main[i] === 1)
  if (own === undefined) return false
  const n = keys.length(own)
  const begins = (i: number) => {
    if (keys.length(i) < n) return false
    for (let b = 0; b < n; b++) if (keys.byteAt(i, b) !== keys.byteAt(own, b)) return false
    return true
  }
  // Keys that begin with the own name follow it in byte order, other towns' of that name first.
  for (let i = own + 1; i < keys.size && begins(i); i++)
    if (keys.ref[i] === keys.ref[own] && keys.length(i) > n && fit(i)) return true
  return false
}
