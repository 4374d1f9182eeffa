// A cell's text as its field's value where sheets write it otherwise than the API takes it: web
// addresses without their protocol, "@handles", decimal commas, other tools' statuses, tag lists.
import { LOCATION_ID_ANY_CASE } from '../core/ids'
import { socialUrl } from '../core/social'
import { withoutFormatChars } from '../core/text'
import { TAG_SLASH } from './csv-cells'
import { STATUS_WORDS } from './model'

/** A host as sheets write it without a protocol, with its port if any: "www.example.co.uk:8080". */
const HOST = String.raw`[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}(?::[0-9]{1,5})?`
/** A site: a host, and any path after it ("www.example.com", "example.co.uk/shop"). */
const BARE_SITE = new RegExp(String.raw`^${HOST}(?:[/?#]\S*)?$`, 'u')
/** A page: a host with a path ("instagram.com/cyclehub"). A handle or a file name ("cycle.hub", "front.jpg") is none. */
const BARE_PAGE = new RegExp(String.raw`^${HOST}/\S*$`, 'u')
/** Fields holding a web address, which the API takes only with its protocol, and the bare form each is read in. */
const URL_FIELDS = new Map([
  ['contact.website', BARE_SITE],
  ['social.instagram', BARE_PAGE],
  ['social.facebook', BARE_PAGE],
  ['social.twitter', BARE_PAGE],
  ['image_url', BARE_PAGE],
])
/** A cell of a web address field with https:// before it when it is bare; else as it is, for validation to judge. */
const withProtocol = (cell: string, bare: RegExp) => (bare.test(cell) ? `https://${cell}` : cell)
/** A handle as sheets write it in a social column, with its "@" ("@cyclehub"); without one it may be a host. */
const HANDLE = /^@([\p{L}\p{N}._-]+)$/u
/** A social column's "@handle" as that network's profile address; any other cell as it is. */
function withProfile(cell: string, field: string): string {
  const handle = HANDLE.exec(cell)?.[1]
  const network = field.slice('social.'.length)
  return handle !== undefined && (network === 'instagram' || network === 'facebook' || network === 'twitter')
    ? socialUrl(network, handle)
    : cell
}
/**
 * A number cell's decimal comma as a point ("2,5": 2.5, "0,500"); not three digits after it
 * behind another number ("1,500"), which English writes for a thousand and more: left as
 * written, refused as no number.
 */
export const decimalComma = (cell: string) =>
  cell.replace(/^(-?0),(\d+)$/, '$1.$2').replace(/^(-?\d+),(\d{1,2}|\d{4,})$/, '$1.$2')
/**
 * TRUE and FALSE as Excel writes them in English, German, French, Spanish, Italian, Portuguese,
 * Dutch, Swedish, Danish, Norwegian and Polish: a sheet saved there holds its locale's words.
 */
const EXCEL_TRUE = ['true', 'wahr', 'vrai', 'verdadero', 'vero', 'verdadeiro', 'waar', 'sant', 'sand', 'sann', 'prawda']
const EXCEL_FALSE = ['false', 'falsch', 'faux', 'falso', 'onwaar', 'falskt', 'falsk', 'usann', 'fałsz']
/** Yes and no in those languages, with Excel's TRUE and FALSE: every column of yes or no reads them. */
const YES = ['yes', 'ja', 'oui', 'sí', 'si', 'sì', ...EXCEL_TRUE]
const NO = ['no', 'nein', 'non', 'nee', ...EXCEL_FALSE]

/** Other tools' statuses, as their exports write them (WordPress: publish, pending, private), to ours. */
export const OTHER_STATUSES = new Map([
  ['publish', 'published'],
  ['active', 'published'],
  ['visible', 'published'],
  ['live', 'published'],
  ['enabled', 'published'],
  // A flag column's 1 or 0 (StoreRocket's "visible").
  ['1', 'published'],
  ['pending', 'draft'],
  ['private', 'draft'],
  ['disabled', 'draft'],
  ['0', 'draft'],
  // The same in German, French, Spanish, Italian and Dutch.
  ...[
    'aktiv',
    'veröffentlicht',
    'actif',
    'publié',
    'publiée',
    'activo',
    'activa',
    'publicado',
    'publicada',
    'attivo',
    'attiva',
    'pubblicato',
    'pubblicata',
    'actief',
    'gepubliceerd',
    // Yes, as an "Aktiv" or "Actif" column answers.
    ...YES,
  ].map((w) => [w, 'published'] as const),
  ...[
    'inaktiv',
    'entwurf',
    'inactif',
    'brouillon',
    'inactivo',
    'inactiva',
    'borrador',
    'inattivo',
    'inattiva',
    'bozza',
    'inactief',
    'concept',
    ...NO,
  ].map((w) => [w, 'draft'] as const),
])
/** What a status cell that names no status says, by its column (`header`): every word read, by the status it means. */
export function statusProblem(cell: string, header: string): string {
  const words = [...STATUS_WORDS, ...OTHER_STATUSES]
  const read = (status: string) =>
    words
      .filter(([w, s]) => s === status && w !== status)
      .map(([w]) => w)
      .join(', ')
  return `The ${JSON.stringify(header)} column must be a status; got ${JSON.stringify(cell)}. Write published (also read so: ${read('published')}) or draft (also: ${read('draft')}).`
}
/**
 * A tags cell: '|'-separated when it holds a '|', else ';'-separated when it holds a ';' (a
 * spreadsheet's "Repairs; Rentals"), else ','-separated when it holds a ',', else separated by a
 * slash with spaces around it ("Repairs / Rentals"; "24/7" is one tag).
 */
export const splitTags = (cell: string) =>
  cell
    .split(cell.includes('|') ? '|' : cell.includes(';') ? ';' : cell.includes(',') ? ',' : TAG_SLASH)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '')

/** A web address field's cell as the API takes it ("@cyclehub", "example.com"); any other field's as it is. */
export function webAddress(cell: string, field: string): string {
  const bare = URL_FIELDS.get(field)
  return bare ? withProtocol(withProfile(cell, field), bare) : cell
}

/**
 * An id cell as the id it names: this service's ids have no capitals, so "LOC_…" is loc_… in
 * lower case, and hold no invisible characters, so a pasted zero-width space is let go; any other as it is.
 */
export function idCell(cell: string): string {
  const text = withoutFormatChars(cell).trim()
  return LOCATION_ID_ANY_CASE.test(text) ? text.toLowerCase() : cell
}

/** Between the numbers of a cell of several (Google's "Additional phones": "+44 131 496 0000, +44 7700 900100"). */
const PHONES_APART = /\s*[,;|\n]\s*/

/**
 * The phone a cell of several numbers gives (its first), and what is said of the others, which
 * are not imported: a location keeps one phone. `dropped` is null when the cell holds one.
 */
export function firstPhone(cell: string, header: string): { phone: string; dropped: string | null } {
  const [phone = '', ...others] = cell.split(PHONES_APART).filter((p) => p !== '')
  if (others.length === 0) return { phone, dropped: null }
  const rest = others.map((p) => JSON.stringify(p)).join(', ')
  return {
    phone,
    dropped: `The ${JSON.stringify(header)} cell holds ${others.length + 1} numbers, and a location keeps one phone: the first, ${JSON.stringify(phone)}, is imported; ${rest} ${others.length === 1 ? 'is' : 'are'} not. To show ${others.length === 1 ? 'it' : 'them'}, add ${others.length === 1 ? 'it' : 'them'} to the description or to a custom field.`,
  }
}

/** A yes and a no of a column of flags, as sheets write them. */
const FLAG_YES = [...YES, 'y', 'x', '1']
const FLAG_NO = [...NO, 'n', '0']

/** A delete cell's yes: the row deletes its store. */
const DELETE_YES = new Set([...FLAG_YES, 'delete'])
/** A delete cell's no: the row is read as any other. */
const DELETE_NO = new Set(['', ...FLAG_NO])

/**
 * A "Closed" cell's yes or no (Yext's true or false) as the status it means: a store closed for
 * good is hidden from the locator, a draft; one not closed is published.
 */
export const CLOSED_STATUSES = new Map([
  ...FLAG_YES.map((w) => [w, 'draft'] as const),
  ...FLAG_NO.map((w) => [w, 'published'] as const),
])

/**
 * Danish Excel's TRUE, and an English word ("Sand"): read as yes only in a Danish file
 * (Header.danish), so that no word in a yes/no column deletes or hides a store.
 */
export const DANISH_TRUE = 'sand'
/** Danish Excel's FALSE: a yes/no column that holds it was saved by a Danish Excel. */
export const DANISH_FALSE = 'falsk'

/** What a yes/no cell of Danish Excel's TRUE says in a file that is not Danish; `write`: what to write instead. */
export const notDanish = (cell: string, header: string, write: string) =>
  `${JSON.stringify(cell)} in the ${JSON.stringify(header)} column is Danish Excel's TRUE only in a Danish file, whose yes/no columns also hold FALSK or are named in Danish ("Slet", "Lukket"); here it may be a word, so it is not read. ${write}`

/**
 * Whether a delete cell deletes its row's store; a problem's message for a cell neither yes nor
 * no. `danish`: whether the file reads SAND as yes (DANISH_TRUE).
 */
export function deleteCell(cell: string, header: string, danish: boolean): boolean | string {
  const word = cell.toLowerCase()
  if (word === DANISH_TRUE && !danish)
    return notDanish(cell, header, 'Write yes to delete the store, or leave the cell empty to keep it.')
  if (DELETE_YES.has(word)) return true
  if (DELETE_NO.has(word)) return false
  return `"${cell}" in the "${header}" column is neither yes nor no: write yes to delete the store, or leave the cell empty to keep it.`
}

/**
 * The problem of a filled if_updated_at cell on a row that does not delete: the condition is a
 * delete's alone, and an update made unguarded would go over the change it guards against.
 */
export function conditionRefused(cell: string, columns: readonly { header: string; field: string | null }[]): string {
  const header = columns.find((c) => c.field === 'if_updated_at')!.header
  return `${JSON.stringify(cell)} in the "${header}" column is the condition of a row that deletes its store, and this row does not delete: a row that keeps its store is written whatever changed since. Empty the cell, or write yes in the delete column to delete the store.`
}
