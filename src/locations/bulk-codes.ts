// Bulk upsert: the stored location a store code names. Codes are compared as a person reads
// them: two that differ by invisible characters alone (a pasted zero-width space, a BOM, a soft
// hyphen: bareCode in core/text.ts) are one code, whichever of the two, the stored or the sent,
// holds them. The single-location routes and the CLI find codes the same way.
import { LOCATION_ID_ANY_CASE } from '../core/ids'
import { bareCode, codePointName, invisibleChars } from '../core/text'
import type { LocationRecord } from '../store/locations'
import type { AdminDeps } from './service'

/** A stored location's id, store code and name. */
export type Coded = { id: string; externalId: string; name: string }

/**
 * What a store code names: the location holding it as sent; else, `bare`, the one location
 * holding it but for invisible characters. `twins`: every location holding it so when there
 * are several, `location` then null (the code names none of them alone).
 */
export type Held = { location: LocationRecord | null; bare: boolean; twins: Coded[] }

const NONE: Held = { location: null, bare: false, twins: [] }

/** Whether two store codes are one as a person reads them; null (no code) is the same as none only. */
export const sameCode = (a: string | null, b: string | null): boolean =>
  a === null || b === null ? a === b : a === b || bareCode(a) === bareCode(b)

/**
 * Whether location `id` holds `code` still once the request is done: neither deleted by it nor
 * given another code (`recoded`: the codes items give locations, null for none).
 */
export function keepsCode(
  id: string,
  code: string,
  recoded: ReadonlyMap<string | null, string | null | undefined>,
  deleted: ReadonlySet<string | null>,
): boolean {
  const next = recoded.get(id)
  return !deleted.has(id) && (next === undefined || sameCode(next, code))
}

/**
 * The locations holding `ext` but for invisible characters, not as written: found by the code
 * index (migration 16), the one holding its bare form as written first.
 */
export function twinsOfCode(store: AdminDeps['store'], locatorId: string, ext: string): Coded[] {
  const bare = bareCode(ext)
  if (bare === '') return []
  const twins = store.locations
    .ofCodeKey(locatorId, bare)
    .filter((l) => l.externalId !== ext && bareCode(l.externalId) === bare)
  const clean = twins.findIndex((l) => l.externalId === bare)
  if (clean > 0) twins.unshift(...twins.splice(clean, 1))
  return twins
}

/**
 * The holder of a store code, asked once a row (its match and its check ask the same). `known`:
 * a row just read (the one an item's id names); when it holds `ext` as written it is the holder
 * (codes are unique within a locator), not read again.
 */
export function codeHolders(
  store: AdminDeps['store'],
  locatorId: string,
): (ext: string, known?: LocationRecord | null) => Held {
  let asked: { ext: string; held: Held } | null = null
  const lookUp = (ext: string): Held => {
    const exact = store.locations.byExternalId(locatorId, ext)
    if (exact !== null) return { location: exact, bare: false, twins: [] }
    const twins = twinsOfCode(store, locatorId, ext)
    if (twins.length === 0) return NONE
    if (twins.length > 1) return { location: null, bare: false, twins }
    return { location: store.locations.get(locatorId, twins[0]!.id), bare: true, twins }
  }
  return (ext, known) => {
    if (known?.externalId === ext) asked = { ext, held: { location: known, bare: false, twins: [] } }
    if (asked?.ext !== ext) asked = { ext, held: lookUp(ext) }
    return asked.held
  }
}

/**
 * The other locations that hold `ext`, as written or but for invisible characters, which a write
 * giving `self` (null: a new location) that code would make twins of; none when `self` holds it
 * as written (twins stored already keep their codes). Asked in the write's transaction, it decides.
 */
export function otherHolders(store: AdminDeps['store'], locatorId: string, ext: string, self: string | null): Coded[] {
  const exact = store.locations.byExternalId(locatorId, ext)
  if (exact !== null) return exact.id === self ? [] : [{ id: exact.id, externalId: ext, name: exact.name }]
  return twinsOfCode(store, locatorId, ext).filter((t) => t.id !== self)
}

/**
 * Every other location holding `ext`, as written and but for invisible characters: those a
 * request must all give another code (or delete) before `self` takes it, so that no twins stay.
 * None when `self` holds it as written (twins stored already keep their codes).
 */
export function everyOtherHolder(
  store: AdminDeps['store'],
  locatorId: string,
  ext: string,
  self: string | null,
): Coded[] {
  return holdersOfCode(store, locatorId, ext, self).others
}

/**
 * everyOtherHolder's `others`, and `own`: the row of `self` when it holds `ext` as written, as the
 * same lookup read it (null otherwise). A write that keeps its code reads its row once.
 */
export function holdersOfCode(
  store: AdminDeps['store'],
  locatorId: string,
  ext: string,
  self: string | null,
): { others: Coded[]; own: LocationRecord | null } {
  const exact = store.locations.byExternalId(locatorId, ext)
  if (exact !== null && exact.id === self) return { others: [], own: exact }
  const twins = twinsOfCode(store, locatorId, ext).filter((t) => t.id !== self)
  return { others: exact === null ? twins : [{ id: exact.id, externalId: ext, name: exact.name }, ...twins], own: null }
}

/** The invisible characters of a code, as a message names them: "U+200B", "U+200B and U+FEFF". */
export const invisiblesOf = (code: string): string => namesOf(invisibleChars(code))

/** Characters as a message names them, each once: "U+200B", "U+200B and U+FEFF". */
function namesOf(chars: readonly string[]): string {
  const names = [...new Set(chars.map(codePointName))]
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

/** How a code is shown beside its twin: quoted, and the invisible characters it holds named. */
export const codeSaid = (code: string): string => {
  const named = invisiblesOf(code)
  return named === '' ? JSON.stringify(code) : `${JSON.stringify(bareCode(code))} with ${named}`
}

/**
 * A store code of digits without its leading zeros: "0012" and "12" are both "12". Compared as
 * codes are (bareCode): a zero-width space, a BOM or a no-break space beside the digits is no part.
 */
const bareDigits = (code: string): string | null => {
  const bare = bareCode(code)
  return /^\d+$/.test(bare) ? bare.replace(/^0+(?=\d)/, '') : null
}

/**
 * The codes of `sent` that differ from one of `stored` only in leading zeros ("12" sent, "0012"
 * stored), each as [sent, stored]: a sheet saved in Excel loses them.
 */
export function lostZeroPairs(stored: readonly string[], sent: readonly string[]): [sent: string, stored: string][] {
  const storedByBare = new Map<string, string>()
  for (const code of stored) {
    const bare = bareDigits(code)
    if (bare !== null) storedByBare.set(bare, code)
  }
  if (storedByBare.size === 0) return []
  return sent.flatMap((code) => {
    const held = storedByBare.get(bareDigits(code) ?? '')
    return held !== undefined && bareCode(held) !== bareCode(code) ? [[code, held] as [string, string]] : []
  })
}

/** How Excel reads one code of a lostZeroPairs pair as the other: "0012 as 12". */
export const excelReads = (pair: [string, string]): string => {
  const [a, b] = pair.map(bareCode) as [string, string]
  return a.length > b.length ? `${a} as ${b}` : `${b} as ${a}`
}

/** The warning of an item matched to `location` by its store code `sent` but for invisible characters. */
export const bareMatchWarning = (sent: string, location: { id: string; externalId: string | null }) =>
  `The store code ${codeSaid(sent)} and location ${location.id}'s, ${codeSaid(location.externalId ?? '')}, differ by invisible characters alone: the row is matched to that location, and the code is stored as ${JSON.stringify(bareCode(sent))}, without them.`

/**
 * The warning of an item naming by its id `own`, one of `twins`, with a code they all hold but for
 * invisible characters: its code stays as stored.
 */
export const keptCodeWarning = (sent: string, own: Coded, twins: readonly Coded[]) => {
  const others = twins.filter((t) => t.id !== own.id).map((t) => `${t.id}'s, ${codeSaid(t.externalId)}`)
  return `The store code ${codeSaid(sent)} differs by invisible characters alone from location ${own.id}'s, ${codeSaid(own.externalId)}, and from ${others.join(', ')}: the row is matched to ${own.id} by its id, and its code stays as stored, since two locations' codes may not differ by invisible characters alone.`
}

/** Whose a store code is that several locations hold but for invisible characters: "that of 2 locations ...: loc_a (...), loc_b (...)". */
export const twinsOf = (twins: readonly Coded[]) => {
  const shown = twins.slice(0, 5).map((t) => `${t.id} (${JSON.stringify(t.name)}, ${codeSaid(t.externalId)})`)
  const more = twins.length > 5 ? ` and ${twins.length - 5} more` : ''
  return `that of ${twins.length} locations but for invisible characters: ${shown.join(', ')}${more}`
}

/** The problem of a store code that is several locations' but for invisible characters. */
export const twinsProblem = (twins: readonly Coded[]) =>
  `the store code is ${twinsOf(twins)}. Give the id of the one this row is (an id column), and delete the others if they are the same store twice.`

/**
 * The problem of a store code no location holds that is invisible characters alone: it reads as
 * none, and compared bare it is every other such code, so a store made with it twins another.
 */
export const blankCodeProblem = (sent: string) =>
  `The external_id field holds invisible characters alone (${namesOf(sent.match(/\p{Cf}/gu) ?? [])}), which read as no store code: give the store's code, or none.`

/**
 * The problem of a store code that is the id of a location of the locator, which no location
 * holds as its code: an id written where codes go (ids pasted in a "Store Code" column). Read as a
 * code it would name no store. `target`: the location the item updates (null: it creates one);
 * undefined for a delete item. Null for any other code.
 */
export function idAsCodeProblem(
  deps: AdminDeps,
  locatorId: string,
  ext: string,
  held: Held,
  target: string | null | undefined,
  csv: boolean,
): string | null {
  const id = bareCode(ext).toLowerCase()
  if (held.location !== null || held.twins.length > 0 || !LOCATION_ID_ANY_CASE.test(id)) return null
  const named = deps.store.locations.get(locatorId, id)
  if (named === null) return null
  const would =
    target === undefined
      ? 'name no location, and the row would delete nothing'
      : target === null
        ? 'name no location, and the row would create that store a second time'
        : target === id
          ? "make the location's own id its store code"
          : `make it the store code of location ${target}`
  const idPlace = csv ? 'in an id column' : 'in the id field'
  return `The external_id field holds ${JSON.stringify(ext)}, the id of location ${id} (${JSON.stringify(named.name)}), not a store code: read as a code it would ${would}. Give the id ${idPlace}, and here the store's own code, if it has one.`
}
