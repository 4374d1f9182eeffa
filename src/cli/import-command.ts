// `locations import` and `locations export`: a locator's locations from and to JSON or CSV files;
// `locations delete`: some of them, by id or external id.
import { statSync } from 'node:fs'
import { extname } from 'node:path'
import { wholeNumber } from '../core/urlencoded'
import { cliCommand } from '../core/cli-command'
import type { GeocoderStack } from '../geocode'
import { type Geocoder, geocodeOffline, noGeocoder } from '../geocode/geocoder'
import { type BulkItem, type BulkProgress, type BulkReport, type BulkWords, bulkUpsert } from '../locations/bulk'
import { codeHolders, twinsOf } from '../locations/bulk-codes'
import { jsonListItems } from '../locations/bulk-problems'
import { type CsvRead, csvBulkItems, type NamedField, readLocationsCsv, separatorOfName } from '../locations/csv'
import { CsvWriteError, csvSeparator, PLAIN_CSV } from '../locations/csv-write'
import { CsvError } from '../locations/csv-records'
import { trimStrings } from '../core/validation'
import { LocationError } from '../locations/errors'
import { type ExportFormat, exportTo } from '../locations/export'
import { townsFrom, type TownSource } from '../locations/town'
import { guessFrom, type TownGuess } from '../locations/town-guess'
import { OperatorError, readFileBytes, readJsonFile, requireLocator } from '../operator'
import type { Store } from '../store'
import type { Command, Context } from './context'
import { cliGeocoder } from './geodata-path'
import { args, required, UsageError } from './output'
import { importSummary, problemLines, progressPrinter, readColumns, unreadColumns } from './import-report'

type Format = 'csv' | 'json'

/** --format, else the file's extension; a file with neither is refused saying what to give. */
function formatOf(file: string, given: string | undefined): Format {
  if (given !== undefined) {
    if (given !== 'csv' && given !== 'json')
      throw new OperatorError(`--format must be csv or json; got ${JSON.stringify(given)}.`)
    return given
  }
  const ext = extname(file).toLowerCase()
  if (ext === '.csv' || ext === '.tsv' || ext === '.txt') return 'csv'
  if (ext === '.json') return 'json'
  if (['.xlsx', '.xls', '.ods', '.numbers'].includes(ext))
    throw new OperatorError(
      `${file} is a spreadsheet workbook, which import does not read: save it as CSV (in Excel, "CSV UTF-8 (Comma delimited)") and import the .csv file.`,
    )
  throw new OperatorError(`Cannot tell the format of ${file} from its name: give --format csv or --format json.`)
}

/** The first character of a file's text but spaces and a byte order mark: `[` or `{` opens JSON. */
const opening = (bytes: Uint8Array) => /^[\s\uFEFF]*(.?)/.exec(new TextDecoder().decode(bytes.subarray(0, 256)))![1]

/** The import's options as the command line gives them, which a JSON file's fields must not contradict. */
type ImportOptions = { dryRun: boolean; deleteMissing: boolean; maxDelete: number | null }

/**
 * A bulk request's body saved as a file ({"dry_run": true, "locations": [...]}) is read for its
 * locations alone: an option it sets that the command line lacks is refused, or a dry run, or
 * a limit on deletions, would write for real. Those the command line gives too, and the
 * defaults (false, null), pass.
 */
function refuseFileOptions(file: string, body: Record<string, unknown>, options: ImportOptions): void {
  const asked: [string, unknown, unknown, string][] = [
    ['dry_run', body.dry_run, options.dryRun, '--dry-run'],
    ['delete_missing', body.delete_missing, options.deleteMissing, '--delete-missing'],
    ['max_delete', body.max_delete, options.maxDelete, `--max-delete ${body.max_delete}`],
  ]
  for (const [field, sent, given, flag] of asked) {
    if (sent === undefined || sent === null || sent === false || sent === given) continue
    throw new OperatorError(
      `${file} holds ${JSON.stringify(field)}: ${JSON.stringify(sent)}, which the import reads only as ${flag} on the command line: give ${flag}, or leave the field out of the file. Nothing was imported.`,
    )
  }
}

/** The items of a JSON file: an array of locations, or {"locations": [...]} as the API lists them. */
function jsonItems(file: string, options: ImportOptions): BulkItem[] {
  let json: unknown
  try {
    json = readJsonFile(file)
  } catch (e) {
    // Most often a CSV file saved with a .json name.
    const first = opening(readFileBytes(file))
    if (!(e instanceof OperatorError) || first === '[' || first === '{') throw e
    throw new OperatorError(`${e.message}. It is no JSON array of locations: if it is CSV, give --format csv.`)
  }
  const items = Array.isArray(json)
    ? json
    : json !== null && typeof json === 'object' && Array.isArray((json as { locations?: unknown }).locations)
      ? (json as { locations: unknown[] }).locations
      : null
  if (items === null)
    throw new OperatorError(
      `${file} must hold a JSON array of locations, or an object with one as "locations" (as GET /admin/v1/locations answers).`,
    )
  if (!Array.isArray(json)) refuseFileOptions(file, json as Record<string, unknown>, options)
  return jsonListItems(items, Array.isArray(json))
}

/** The items of a CSV file in `encoding` (UTF-8 when null), its header's columns, and the header cells that name no field. */
function csvItems(
  file: string,
  customFields: readonly NamedField[],
  encoding: string | null,
): Pick<CsvRead, 'columns' | 'unknown' | 'notes' | 'noStore'> & { items: BulkItem[] } {
  const bytes = readFileBytes(file)
  const first = opening(bytes)
  if (first === '[' || first === '{')
    throw new OperatorError(`Nothing was imported: ${file} holds JSON, not CSV: give --format json.`)
  try {
    const read = readLocationsCsv(bytes, customFields, { encoding, typedSeparator: separatorOfName(file) })
    return {
      items: csvBulkItems(read),
      columns: read.columns,
      unknown: read.unknown,
      notes: read.notes,
      noStore: read.noStore,
    }
  } catch (e) {
    if (e instanceof CsvError)
      throw new OperatorError(`Nothing was imported: ${file} cannot be read as CSV: ${e.message}`)
    throw e
  }
}

/**
 * The configured geocoder, made on the first address that needs it (the embedded one's data, an
 * HTTP provider), the reverse lookup of its place data, made when the writes begin, and the
 * guess of a misspelt town, made for an address that cannot be placed.
 */
function lazyGeocoder({ store, config }: Context): {
  geocoder: Geocoder
  towns: TownSource
  guess?: TownGuess
  close: () => Promise<void>
} {
  const made: { stack?: Promise<GeocoderStack> } = {}
  const stack = () => (made.stack ??= cliGeocoder(config, store))
  if (config.geocoder.provider === 'none')
    return { geocoder: noGeocoder, towns: async () => null, close: async () => {} }
  return {
    geocoder: {
      name: config.geocoder.provider,
      geocode: async (address) => (await stack()).geocoder.geocode(address),
      offline: async (address) => geocodeOffline((await stack()).geocoder, address),
    },
    towns: async () => townsFrom((await stack()).places)(),
    guess: async (address) => guessFrom((await stack()).places)(address),
    close: async () => (made.stack === undefined ? undefined : (await made.stack).close()),
  }
}

/**
 * Every problem of a refused import, one per line, under a line saying nothing was written; a dry
 * run's also names the columns read as another field, as its summary would: a problem names the
 * field ("give each external_id once") of a column the file calls otherwise ("ID").
 */
function refusal(
  file: string,
  e: LocationError,
  unknown: string[],
  columns: CsvRead['columns'],
  dryRun: boolean,
): OperatorError {
  const lines = problemLines(Object.values(e.details ?? {}).flat()).map((l) => `  ${l}`)
  const read = dryRun ? readColumns(columns) : null
  if (read !== null) lines.push(read)
  // A column read under no name is often why a field is missing ("Business name": no name).
  lines.push(...unreadColumns(unknown, columns))
  return new OperatorError(`Nothing was imported from ${file}: ${e.message}`, {
    code: e.kind,
    details: e.details,
    lines,
  })
}

/** Refusals of --delete-missing in the words a CLI user typed. */
/**
 * What --delete-missing leaves: the locations without an external_id the file does not name, which
 * no file can name by code (none: nothing said). Counted as a dry run finds them, and after a write.
 */
function keptWithoutCode(store: Store, locatorId: string, report: BulkReport): string[] {
  const coded = store.locations.externalIds(locatorId).length
  const uncoded = store.locations.count(locatorId, null) - coded
  // Those the file names (a delete item too, still stored in a dry run) are the file's, not left.
  const named = report.results.filter(
    (r) => r.id !== null && store.locations.get(locatorId, r.id)?.externalId === null,
  ).length
  const left = uncoded - named
  if (left <= 0) return []
  const them = left === 1 ? '1 location without an external_id is' : `${left} locations without an external_id are`
  return [
    `${them} left as ${left === 1 ? 'it is' : 'they are'}: --delete-missing deletes only locations the file could name by code.`,
  ]
}

const CLI_WORDS: BulkWords = {
  deleteMissing: '--delete-missing',
  maxDelete: '--max-delete',
  sent: 'the file',
  keepPoint: (id) =>
    `update it alone through the management API (POST /admin/v1/locations/${id} with the address and its coordinates)`,
  readAgain: (locatorId) => `${cliCommand(`locations export ${locatorId}`)} prints it`,
}

/** --max-delete N: the most locations --delete-missing may delete; null when not given. */
function maxDeleteOf(sent: string | undefined, deleteMissing: boolean): number | null {
  if (sent === undefined) return null
  if (!deleteMissing) throw new OperatorError('--max-delete is for --delete-missing: give both, or neither.')
  const n = wholeNumber(sent)
  if (n === null)
    throw new OperatorError(`--max-delete must be a whole number of 0 or more; got ${JSON.stringify(sent)}.`)
  return n
}

export const IMPORT_COMMANDS: Record<string, Command> = {
  'locations import': async (context, rest) => {
    const { store, emit } = context
    const spec = {
      file: { type: 'string' },
      format: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'delete-missing': { type: 'boolean' },
      'max-delete': { type: 'string' },
      progress: { type: 'boolean' },
      encoding: { type: 'string' },
    } as const
    const { values, positionals } = args(rest, spec, 1)
    const file = required(values, 'file')
    const dryRun = !!values['dry-run']
    const deleteMissing = !!values['delete-missing']
    const maxDelete = maxDeleteOf(values['max-delete'] as string | undefined, deleteMissing)
    const locator = requireLocator(store, positionals[0]!)
    // Said before its format: a folder, or a path with no file, has no format to tell.
    const stat = statSync(file, { throwIfNoEntry: false })
    if (stat === undefined) throw new OperatorError(`No file ${file}.`)
    if (stat.isDirectory()) throw new OperatorError(`${file} is a folder, not a file: give the CSV or JSON file in it.`)
    const format = formatOf(file, values.format as string | undefined)
    // A blank name names none, as an empty charset does over HTTP: UTF-8 is read.
    const encoding = (values.encoding as string | undefined)?.trim() || null
    // JSON is UTF-8 (RFC 8259): an encoding named for it would be ignored, so it is refused.
    if (format === 'json' && encoding !== null) throw new OperatorError('--encoding is for CSV files: JSON is UTF-8.')
    const { items, columns, unknown, notes, noStore } =
      format === 'csv'
        ? csvItems(file, store.customFields.list(locator.id), encoding)
        : {
            items: jsonItems(file, { dryRun, deleteMissing, maxDelete }),
            columns: [],
            unknown: [],
            notes: [],
            noStore: [],
          }
    const { geocoder, towns, guess, close } = lazyGeocoder(context)
    const progress = progressPrinter(items.length, !!values.json, !!values.progress, dryRun)
    let report: BulkReport
    // The points the addresses were placed at: fewer than the addresses when stores share one.
    const points = new Set<string>()
    try {
      report = await bulkUpsert({ store, geocoder, towns, guess }, locator.id, items, {
        dryRun,
        deleteMissing,
        maxDelete,
        noStore,
        words: CLI_WORDS,
        onProgress: (p: BulkProgress) => {
          if (p.at !== undefined) points.add(`${p.at.lat},${p.at.lng}`)
          progress.update(p)
        },
      })
    } catch (e) {
      if (e instanceof LocationError && e.details) throw refusal(file, e, unknown, columns, dryRun)
      if (e instanceof LocationError)
        throw new OperatorError(`Nothing was imported from ${file}: ${e.message}`, { code: e.kind })
      throw e
    } finally {
      progress.done()
      await close()
    }
    const left = deleteMissing ? keptWithoutCode(store, locator.id, report) : []
    const all = [...notes, ...(report.notes ?? []), ...left]
    emit(
      !!values.json,
      { success: true, ...report, unknown_columns: unknown, ...(all.length > 0 && { notes: all }) },
      importSummary(file, locator.id, items, report, unknown, columns, all, points.size),
    )
  },
  // Deletes by id or external id, all or none: a typo in one leaves every location in place.
  'locations delete': ({ store, emit }, rest) => {
    const { values, positionals } = args(rest, {}, [2])
    const [locatorArg, ...typed] = positionals as [string, ...string[]]
    const refs = typed.map((ref) => trimStrings(ref) as string) // as a write keeps an external_id
    const locator = requireLocator(store, locatorArg)
    const deleted = store.write(() => {
      // A store code as bulk matches it: one a store holds but for invisible characters is its.
      const holderOf = codeHolders(store, locator.id)
      const found = refs.map((ref) => ({
        ref,
        location: store.locations.get(locator.id, ref) ?? holderOf(ref).location,
      }))
      // A code several stores hold but for invisible characters names none of them alone.
      const shared = found.filter((f) => f.location === null && holderOf(f.ref).twins.length > 1)
      if (shared.length > 0)
        throw new OperatorError(
          `Nothing was deleted: ${shared.map((f) => `the external_id ${JSON.stringify(f.ref)} is ${twinsOf(holderOf(f.ref).twins)}.`).join(' ')} Give the id of the one to delete.`,
        )
      const unknown = found.filter((f) => f.location === null).map((f) => JSON.stringify(f.ref))
      if (unknown.length > 0)
        throw new OperatorError(
          `Nothing was deleted: ${locator.id} has no location with the id or external_id ${unknown.join(', ')}.`,
        )
      const locations = [...new Map(found.map((f) => [f.location!.id, f.location!])).values()]
      for (const l of locations) store.locations.remove(locator.id, l.id)
      return locations
    })
    emit(
      !!values.json,
      { success: true, deleted: deleted.map((l) => ({ id: l.id, external_id: l.externalId, name: l.name })) },
      [
        `Deleted ${deleted.length} location${deleted.length === 1 ? '' : 's'} of ${locator.id}:`,
        ...deleted.map(
          (l) => `  ${l.name} (${l.id}${l.externalId === null ? '' : `, external_id ${JSON.stringify(l.externalId)}`})`,
        ),
      ].join('\n'),
    )
  },
  'locations export': async ({ store, print }, rest) => {
    const spec = {
      status: { type: 'string' },
      format: { type: 'string' },
      separator: { type: 'string' },
      bom: { type: 'boolean' },
      'no-bom': { type: 'boolean' },
    } as const
    const { values, positionals } = args(rest, spec, [1])
    // `locations export lct_... stores.csv`: the output goes where the shell sends it.
    if (positionals.length > 1)
      throw new UsageError(
        `Unexpected argument ${positionals[1]}: export prints the locations; put them in a file with > ${positionals[1]}.`,
      )
    const locator = requireLocator(store, positionals[0]!)
    const status = values.status as string | undefined
    if (status !== undefined && status !== 'published' && status !== 'draft')
      throw new OperatorError(`--status must be published or draft; got ${JSON.stringify(status)}.`)
    const format = values.format ?? 'json'
    if (format !== 'csv' && format !== 'json')
      throw new OperatorError(`--format must be csv or json; got ${JSON.stringify(format)}.`)
    const asked = values.separator as string | undefined
    // The export is JSON unless --format says otherwise: an option of CSV's says how to ask for CSV.
    const csvOnly = ['separator', 'bom', 'no-bom'].find((name) => values[name] !== undefined)
    if (format === 'json' && csvOnly !== undefined)
      throw new OperatorError(
        values.format === undefined
          ? `--${csvOnly} is for a CSV export: add --format csv (without it, the export is JSON).`
          : `--${csvOnly} is for a CSV export, not --format json.`,
      )
    if (values.bom && values['no-bom']) throw new OperatorError('Give --bom or --no-bom, not both.')
    const text = async (as: ExportFormat) => {
      const pieces: Uint8Array[] = []
      await exportTo(store, locator.id, status ?? null, as, (piece) => pieces.push(piece))
      return Buffer.concat(pieces).toString()
    }
    if (format === 'json') return print(await text({ format, indent: 2 }))
    const separator = asked === undefined ? PLAIN_CSV.separator : csvSeparator(asked)
    if (separator === null)
      throw new OperatorError(`--separator must be ",", ";" or tab; got ${JSON.stringify(asked)}.`)
    let csv: string
    try {
      // A BOM by default: Excel reads a file without one in its code page, accents garbled.
      const style = { separator, bom: !values['no-bom'] }
      csv = await text({ format, style })
    } catch (e) {
      // A value that would not read back as written (a tag holding "|", the tags separator).
      if (!(e instanceof CsvWriteError)) throw e
      throw new OperatorError(`${e.message} Or export as JSON (--format json).`)
    }
    print(csv.replace(/\n$/, '')) // print ends the last line
  },
}
