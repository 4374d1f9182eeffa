// `storeloc doctor`: what is wrong with a database and its service's data, each problem with what
// to do about it. It only reads: it never migrates, repairs or builds anything.
import { join, resolve } from 'node:path'
import { shellWord } from '../core/shell'
import {
  type DatabaseFacts,
  databaseFacts,
  foreignKeyViolations,
  integrityProblems,
  openExisting,
  openUnwritable,
} from '../store/backup-file'
import { type LocatorFacts, locatorFacts, MAX_LISTED, publishedHours, unreadableRows } from '../store/doctor-facts'
import { byAppointment } from '../core/hours'
import { unreadHourTexts } from '../locations/opening'
import { COARSE_PRECISIONS } from '../locations/placement'
import { REVERSE_SOURCE } from '../locations/town'
import { requireDatabaseFile } from './backup'
import { isCorruptError } from '../store/damage'
import { storageFault, storageFaultText } from '../store/db'
import { storageCheck } from './storage-check'
import { folderNotFile, walWithoutShm } from './file-owner'
import { cliCommand, geodataCommand } from '../core/cli-command'

/** A key expiring within this many days is a problem: whatever still uses it is about to get 401. */
export const EXPIRY_WARNING_DAYS = 14

/** The precisions an import warns of (locations/placement.ts): only the town's point, or coarser. */

export type Problem = { problem: string; fix: string }

/**
 * One check: what it looked at (`subject`), what it found sound (`summary`), its problems, and
 * its notes: what could be better but is no fault (exit 0 all the same), such as the points the
 * built-in geocoder gives, which are no finer than a town's for most addresses.
 */
export type Check = { check: string; subject: string; summary: string; problems: Problem[]; notes?: Problem[] }

/** The embedded geocoder's data file as the geocode layer reads it (the operator layer may not). */
export type GeodataFacts = {
  path: string
  used: boolean
  version: string | null
  current: string
  /** What quick_check found wrong with a file of the current version (null: nothing). */
  damage: string | null
  /** With GEODATA_PATH unset and no data at `path`: a geocoder data file beside the database, or null. */
  beside?: string | null
  /** With GEODATA_PATH unset and data at `path`: another geocoder data file beside the database, or null. */
  other?: string | null
  /** GEODATA_PATH unset: `path` is the default, under this command's folder, which need not be the service's. */
  unset?: { besideDatabase: string }
  /** No data read at `path`, but a folder or a file of some bytes there: the start refuses it. */
  there?: 'folder' | 'other' | null
  /** A file on the way to `path` (`file.db/../g.sqlite`): the sentence naming it (fileOnTheWay), or null. */
  unreached?: string | null
  /** A link at `path` the start refuses to build at (through a file, into no folder, a loop): its sentence, or null. */
  link?: string | null
}

export type DoctorReport = { database: string; checks: Check[]; notChecked: string[]; problems: number }

/** Published locations whose hours text could not be read: how many, and the first few with their days. */
type UnreadHours = { count: number; first: string[] }
/** Unread hours split: texts not read at all (problems), and days open by appointment (notes). */
type HoursFound = { unread: UnreadHours; byAppointment: UnreadHours }

function schemaProblems(facts: DatabaseFacts, path: string): Problem[] {
  if (facts.kind !== 'storeloc') {
    return [
      {
        problem: `${path} is not a storeloc database (${facts.kind === 'empty' ? 'it has no tables' : `tables ${facts.tables.join(', ')}`}).`,
        fix: "Set DATABASE_PATH to the service's database file.",
      },
    ]
  }
  if (facts.version > facts.current) {
    return [
      {
        problem: `The schema (version ${facts.version}) is newer than this program's (version ${facts.current}): this program cannot serve it.`,
        fix: 'Run the doctor of the storeloc version that serves it, or upgrade this one.',
      },
    ]
  }
  if (facts.version < facts.current) {
    return [
      {
        problem: `The schema is version ${facts.version}; this program's is ${facts.current}: the service running on it is older, or was not restarted since the upgrade.`,
        fix: `Take a backup (${cliCommand('backup FILE')}), then restart the service with this version: its start applies the migrations.`,
      },
    ]
  }
  return []
}

function integrity(db: ReturnType<typeof openExisting>, path: string): Check {
  const damage = integrityProblems(db)
  const orphans = damage.length === 0 ? foreignKeyViolations(db) : 0
  const problems: Problem[] = []
  const fix = `Stop the service and restore the last good backup (${cliCommand('restore FILE')}).`
  if (damage.length > 0)
    problems.push({ problem: `${path} is damaged: integrity_check says ${damage.join('; ')}.`, fix })
  if (orphans > 0)
    problems.push({
      problem: `${orphans} row(s) name a locator or filter group that is not there (foreign_key_check).`,
      fix,
    })
  return { check: 'integrity', subject: path, summary: 'integrity_check ok, foreign keys ok', problems }
}

/** The geocoder data's build script, run by this very Bun: an npm-only install has no \`bun\` on PATH, and the doctor may run from any directory. */
const BUILD_SCRIPT = join(import.meta.dir, '../geocode/embedded/build.ts')

/**
 * The check of the data at `path`; with other data beside the database, a note naming both: the
 * service reads the file its own GEODATA_PATH names, which may be that other one.
 */
function geodataCheck(g: GeodataFacts): Check {
  const found = geodataFound(g)
  if (!g.used || !g.other) return found
  const problem = `GEODATA_PATH is not set, so this command checked ${g.path} under ${process.cwd()}. The database's folder has other data: ${g.other}. The service reads the file its own GEODATA_PATH names.`
  const fix = `Run it as ${geodataCommand(g.other, 'doctor')} to check that one.`
  return { ...found, notes: [...(found.notes ?? []), { problem, fix }] }
}

/** GEODATA_PATH is not set: `g.path` is the default one, under the folder this runs in. */
const unset = (g: GeodataFacts) => g.unset !== undefined

function geodataFound(g: GeodataFacts): Check {
  const check = { check: 'geocoder data', subject: g.path }
  if (!g.used) return { ...check, summary: 'not used (GEOCODER=none)', problems: [] }
  const command = [process.execPath, BUILD_SCRIPT, resolve(g.path)].map(shellWord).join(' ')
  if (g.version === g.current && g.damage !== null) {
    const problem = `The embedded geocoder's data file ${g.path} is damaged: quick_check says ${g.damage}. Addresses and places cannot all be looked up; the database of stores is not affected.`
    const fix = `Build it again: ${command} (up to 25 s; the service reads the new file at its next start).`
    return { ...check, summary: '', problems: [{ problem, fix }] }
  }
  if (g.version === g.current)
    return { ...check, summary: `version ${g.version}, current, quick_check ok`, problems: [] }
  if (g.version === null && g.beside) {
    const problem = `GEODATA_PATH is not set, so this command looked for the geocoder's data at ${g.path} under ${process.cwd()}, where there is none. The database's folder has one: ${g.beside}.`
    return {
      ...check,
      summary: '',
      problems: [{ problem, fix: `Run it as ${geodataCommand(g.beside, 'doctor')}, the service's setting.` }],
    }
  }
  if (g.unreached) {
    const problem = unset(g)
      ? `${g.unreached} That is where the geocoder's data goes when GEODATA_PATH is not set (under the folder this runs in, ${process.cwd()}): a service run here does not start (exit 3), as it cannot build the data there.`
      : `${g.unreached} The service does not start with it (exit 3): it cannot build the geocoder's data there.`
    const fix = unset(g)
      ? "Move that file away, or run this in the service's folder, or set GEODATA_PATH as the service's is; or set GEOCODER=none to run without the data."
      : 'Set GEODATA_PATH to a file by a path through folders only (the start builds it there), or set GEOCODER=none to run without it.'
    return { ...check, summary: '', problems: [{ problem, fix }] }
  }
  if (g.link) {
    const problem = `${g.link} The service does not start with it (exit 3): it builds the data only where the link leads.`
    const fix = 'Mend the link, or set GEODATA_PATH to the file it should lead to (the start builds it there).'
    return { ...check, summary: '', problems: [{ problem, fix }] }
  }
  if (g.there === 'folder' && unset(g)) {
    const problem = `${g.path}, where the geocoder's data goes when GEODATA_PATH is not set (under the folder this runs in, ${process.cwd()}), is a folder: a service run here does not start (exit 3), as it builds the geocoder's data only where no file is.`
    const fix = "Move that folder away, or run this in the service's folder, or set GEODATA_PATH as the service's is."
    return { ...check, summary: '', problems: [{ problem, fix }] }
  }
  if (g.there === 'folder') {
    const problem = `GEODATA_PATH names ${g.path}, a folder: the service does not start (exit 3), as it builds the geocoder's data only where no file is.`
    const fix = `Set GEODATA_PATH to a file in it, such as ${join(resolve(g.path), 'geocoder.sqlite')} (the start builds it there), or to the service's data file.`
    return { ...check, summary: '', problems: [{ problem, fix }] }
  }
  if (g.there === 'other') {
    const problem = `${g.path} is not the geocoder's data, or this user may not read it: the service does not start (exit 3), as it replaces no file that is not its data.`
    const fix = `If it is the geocoder's data, let the service's user read it; else set GEODATA_PATH to a file of its own (the start builds it there), or delete ${g.path} if it is an old copy.`
    return { ...check, summary: '', problems: [{ problem, fix }] }
  }
  if (g.version === null && g.unset) {
    // The default path is under this command's folder; building there helps no service that runs elsewhere.
    const problem = `GEODATA_PATH is not set, so this command looked for the geocoder's data at ${g.path} under ${process.cwd()}, where there is none, and beside the database (${g.unset.besideDatabase}), where there is none either. The service reads it at its own GEODATA_PATH (data/geocoder.sqlite under the folder it runs in when unset), which this command cannot know.`
    const fix =
      "Run it again with GEODATA_PATH set as the service's is (the systemd unit and the image set it beside the database): it then checks that file, and says how to build it there if it is missing."
    return { ...check, summary: '', problems: [{ problem, fix }] }
  }
  const build = `Start the service once (its first start builds it, in up to 25 s), or build it now: ${command}`
  const problem =
    g.version === null
      ? `The embedded geocoder's data file ${g.path} is missing or unreadable: the next start spends up to 25 s building it, and addresses cannot be placed offline until then.`
      : `The embedded geocoder's data file ${g.path} is of version ${g.version}; this program needs version ${g.current}: the next start rebuilds it, in up to 25 s.`
  return { ...check, summary: '', problems: [{ problem, fix: build }] }
}

/**
 * The locator's published locations with a day or date whose hours text is not read, days open by
 * appointment apart. Locations of a chain share their texts, so each pair of texts is read once.
 */
function unreadHoursOf(db: ReturnType<typeof openExisting>, locatorId: string): HoursFound {
  // Each pair of texts read once: its days to list, and whether they all say by appointment.
  const seen = new Map<string, { listed: string[]; appointed: boolean }>()
  const found = noHoursFound()
  for (const row of publishedHours(db, locatorId)) {
    const key = `${row.hours}\n${row.special_hours}`
    let read = seen.get(key)
    if (read === undefined) {
      let hours: Record<string, string>
      let specialHours: Record<string, string>
      try {
        hours = JSON.parse(row.hours)
        specialHours = JSON.parse(row.special_hours)
      } catch {
        continue // not JSON: a row the service did not write, told by unreadableRows
      }
      const unread = unreadHourTexts({ hours, specialHours })
      // A location with any text not read is a problem, named by those; one whose unread days all say by appointment, a note.
      const notRead = unread.filter((u) => !byAppointment(u.text))
      const listed = (notRead.length > 0 ? notRead : unread).map(({ key, text }) => `${key} ${JSON.stringify(text)}`)
      read = { listed, appointed: notRead.length === 0 }
      seen.set(key, read)
    }
    if (read.listed.length === 0) continue
    const out = read.appointed ? found.byAppointment : found.unread
    if (++out.count <= MAX_LISTED) out.first.push(`${row.id} (${row.name}: ${read.listed.join(', ')})`)
  }
  return found
}

/** No hours found unread, nor open by appointment. */
const noHoursFound = (): HoursFound => ({ unread: { count: 0, first: [] }, byAppointment: { count: 0, first: [] } })

/** Locations whose JSON columns hold other text: each answer that includes one is a 500. */
function unreadableProblem(rows: ReturnType<typeof unreadableRows>): Problem[] {
  if (rows.count === 0) return []
  const listed = rows.first.map((r) => `${r.id} (${r.columns.join(', ')})`).join(', ')
  const more = rows.count > rows.first.length ? ` and ${rows.count - rows.first.length} more` : ''
  return [
    {
      problem: `${rows.count} location(s) hold text that is not JSON where the service writes JSON: ${listed}${more}. The service did not write it (a hand edit, another program): a Management API answer that includes one is a 500, and its locator's index may not build.`,
      fix: `Delete each with the Management API (POST /admin/v1/locations/{id}/delete, which does not read it) and send it again, or restore the last good backup (${cliCommand('restore FILE')}).`,
    },
  ]
}

function locatorCheck(l: LocatorFacts, hours: HoursFound, now: number, unreadable: Problem[] = []): Check {
  const { unread, byAppointment: appointed } = hours
  const check = { check: 'locator', subject: `${l.id} "${l.name}"` }
  if (!l.active) return { ...check, summary: 'switched off (--active off): not checked', problems: [] }
  const problems: Problem[] = [...unreadable]
  // A locator with nothing published yet (a new database's first) has nothing to show.
  if (!l.queryApiEnabled && l.publishedLocations > 0) {
    problems.push({
      problem: `The Query API is off: its public token gets 403 API_NOT_ENABLED, so no store finder can show its ${l.publishedLocations} published location(s).`,
      fix: cliCommand(`locator set ${l.id} --query-api on`),
    })
  }
  const notes: Problem[] = []
  // A note, not a problem: the finder works, its tags as they are under one heading.
  const ungrouped = l.filterGroups === 0 && l.taggedLocations > 0
  if (ungrouped) {
    notes.push({
      problem: `No filter groups: the tags of its ${l.taggedLocations} tagged location(s) are all shown under "Other" (_default), labelled by their raw values.`,
      fix: `${cliCommand(`filters set ${l.id} --file FILTERS.json`)} (see docs/cli.md, Filters)`,
    })
  }
  for (const k of l.keys) {
    if (k.exposedAt !== null) {
      problems.push({
        problem: `Key ${k.id} (${k.prefix}) was seen in a public request at ${k.exposedAt} and still works: anyone who read that page can write to this locator.`,
        fix: cliCommand(`key rotate ${k.id} --grace-hours 0`),
      })
    } else if (k.expiresAt !== null) {
      const days = Math.ceil((Date.parse(k.expiresAt) - now) / 86_400_000)
      problems.push({
        problem: `Key ${k.id} (${k.prefix}) expires at ${k.expiresAt}, within ${days} day(s): whatever still uses it gets 401 then.`,
        fix: `${cliCommand(`key rotate ${k.id}`)}, and give the new key to whatever uses this one (already rotated: switch them over before it expires).`,
      })
    }
  }
  if (l.coarseCount > 0) {
    const listed = l.coarse.map((c) => `${c.id} (${c.name}, ${c.precision})`).join(', ')
    const more = l.coarseCount > l.coarse.length ? ` and ${l.coarseCount - l.coarse.length} more` : ''
    notes.push({
      problem: `${l.coarseCount} location(s) were placed by the geocoder only at city level or coarser: ${listed}${more}. The Query API gives their town's centre, marked coordinates.approximate: the widget and store pages send directions to their address, but maps and distances use that point.`,
      // Not "stores.csv": the name README gives the operator's own spreadsheet, which `>` would replace.
      fix: `Send their own coordinates: ${cliCommand(`locations export ${l.id} --format csv${excelSeparator(l)}`)} > stores-export.csv, correct lat and lng in those rows, and import that file back.`,
    })
  }
  if (unread.count > 0) {
    const more = unread.count > unread.first.length ? ` and ${unread.count - unread.first.length} more` : ''
    problems.push({
      problem: `${unread.count} published location(s) have opening hours that cannot be read: ${unread.first.join('; ')}${more}. Such a day counts as unknown: open_now is null, and open_now=true leaves the location out.`,
      fix: `Write those days as times, such as 09:00-18:00, closed or 24 hours (docs/management-api.md, Opening hours): ${cliCommand(`locations export ${l.id}`)} > stores.json, correct them, and import the file back.`,
    })
  }
  if (appointed.count > 0) notes.push(appointmentNote(l.id, appointed))
  const api = l.queryApiEnabled ? 'Query API on' : 'Query API off, nothing published yet'
  const hoursSound = appointed.count > 0 ? null : 'opening hours'
  const sound = [ungrouped ? null : 'filter groups', 'keys', l.coarseCount > 0 ? null : 'placements', hoursSound]
    .filter((part) => part !== null)
    .join(', ')
    .replace(/, ([^,]+)$/, ' and $1')
  return { ...check, summary: `${api}, ${sound} ok`, problems, notes }
}

/** Excel in the languages shipped besides English splits a CSV line on ';' (their decimal comma takes ','). */
const excelSeparator = (l: LocatorFacts): string =>
  l.language !== null && l.language !== 'en' ? " --separator ';'" : ''

/** A note, not a problem: a store may well open only by appointment; the import says the same. */
function appointmentNote(locatorId: string, appointed: UnreadHours): Problem {
  const more = appointed.count > appointed.first.length ? ` and ${appointed.count - appointed.first.length} more` : ''
  return {
    problem: `${appointed.count} published location(s) open by appointment on some days, with no hours: ${appointed.first.join('; ')}${more}. Such a day counts as unknown: open_now is null, and open_now=true leaves the location out.`,
    fix: `None if they open only by appointment. To show those days as open or closed, write them as times or closed: ${cliCommand(`locations export ${locatorId}`)} > stores.json, correct them, and import the file back.`,
  }
}

/** Why SQLite could not read the database: a damaged file, or its storage (a full disk, where its -shm cannot be made). */
function unreadable(e: unknown, path: string): Problem {
  const fault = storageFault(e, path)
  if (fault !== null)
    return { problem: `SQLite cannot read ${path} (${(e as Error).message}).`, fix: storageFaultText(fault, path) }
  // A WAL database whose -shm cannot be made (a read-only folder or file system) is not opened at all.
  if (String((e as { code?: unknown }).code).startsWith('SQLITE_CANTOPEN'))
    return {
      problem: `SQLite cannot open ${path} (${(e as Error).message}).`,
      fix:
        folderNotFile(path) ??
        walWithoutShm(path) ??
        'This user must read the file and write its folder, where SQLite makes its -wal and -shm files: see the storage check.',
    }
  if (!isCorruptError(e)) throw e
  return {
    problem: `SQLite cannot read ${path} (${(e as Error).message}): it is no database, or a damaged one.`,
    fix: `Stop the service and restore the last good backup (${cliCommand('restore FILE')}).`,
  }
}

/** A database as the store opens it. */
type Db = ReturnType<typeof openExisting>

/**
 * The database at `path` and its schema's facts: opened read-write, as the service opens it;
 * where its storage refuses that (a read-only folder, file or mount), read as it stands
 * (openUnwritable), the storage check telling what refused. Throws the read-write open's error.
 */
function openToExamine(path: string): { db: Db; facts: DatabaseFacts } {
  let db: Db | null = null
  try {
    db = openExisting(path, 'live')
    return { db, facts: databaseFacts(db) }
  } catch (e) {
    db?.close()
    const code = String((e as { code?: unknown }).code)
    if (storageFault(e, path) !== 'readonly' && !code.startsWith('SQLITE_CANTOPEN')) throw e
    let read: Db | null = null
    try {
      const opened = openUnwritable(path)
      read = opened.db
      const facts = databaseFacts(read)
      return { db: read, facts: opened.immutable ? { ...facts, journalMode: 'wal' } : facts }
    } catch {
      read?.close()
      throw e
    }
  }
}

/** Every check of the database at `databasePath` and of the geocoder's data; `geodata` as the CLI read it. */
export function examine(databasePath: string, geodata: GeodataFacts, now = new Date()): DoctorReport {
  requireDatabaseFile(databasePath)
  const checks: Check[] = []
  const notChecked: string[] = []
  let db: Db | null = null
  try {
    let facts: DatabaseFacts | null = null
    let schema: Problem[]
    try {
      ;({ db, facts } = openToExamine(databasePath))
      schema = schemaProblems(facts, databasePath)
    } catch (e) {
      schema = [unreadable(e, databasePath)]
    }
    checks.push({
      check: 'database',
      subject: databasePath,
      summary: facts === null ? '' : `schema version ${facts.version} (current), journal mode ${facts.journalMode}`,
      problems: schema,
    })
    checks.push(storageCheck(databasePath))
    // Past a schema this program does not know, or damage, the rest would read wrong or fail.
    const sound = schema.length === 0 && db !== null ? integrity(db, databasePath) : null
    if (sound !== null) checks.push(sound)
    checks.push(geodataCheck(geodata))
    if (sound?.problems.length === 0) {
      const soon = new Date(now.getTime() + EXPIRY_WARNING_DAYS * 86_400_000).toISOString()
      const read = db!
      for (const l of locatorFacts(read, now.toISOString(), soon, COARSE_PRECISIONS, REVERSE_SOURCE))
        checks.push(
          l.active
            ? locatorCheck(l, unreadHoursOf(read, l.id), now.getTime(), unreadableProblem(unreadableRows(read, l.id)))
            : locatorCheck(l, noHoursFound(), now.getTime()),
        )
    } else {
      notChecked.push(`${sound === null ? 'integrity and ' : ''}locators: not until the database's problems are solved`)
    }
  } finally {
    db?.close()
  }
  return { database: databasePath, checks, notChecked, problems: checks.reduce((n, c) => n + c.problems.length, 0) }
}
