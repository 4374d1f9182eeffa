// The commands on the database as a whole: backup, restore, doctor. Each opens the files itself,
// never through openStore, which would migrate the database or make an empty one; each returns
// its exit code.
import { existsSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import { byteSize } from '../core/byte-size'
import type { Config } from '../core/config'
import { GEODATA_VERSION } from '../geocode/embedded/build'
import { linkRefusal } from '../geocode/embedded/build-files'
import { geodataVersion } from '../geocode/embedded/ensure'
import { geodataDamageOf } from '../geocode/embedded/open'
import { backupDatabase, sameFile } from '../operator/backup'
import { type Check, type DoctorReport, examine } from '../operator/doctor'
import { restoreDatabase } from '../operator/restore'
import type { CopyFacts } from '../store/backup-file'
import type { Emit } from './context'
import { besideDatabase, geodataOf } from './geodata-path'
import { args } from './output'
import { cliCommand } from '../core/cli-command'
import { fileOnTheWay } from '../core/typed-in'

export type OpsContext = { config: Config; emit: Emit }

/** One command: `rest` is what follows its word; the result is the exit code. */
export type OpsCommand = (context: OpsContext, rest: string[]) => number

const copyJson = (facts: CopyFacts) => ({
  schema_version: facts.version,
  bytes: facts.bytes,
  locators: facts.locators,
  locations: facts.locations,
  keys: facts.keys,
  integrity_check: 'ok',
})

/** A database's counts, as the backup, restore and replaced-file lines say them. */
const counts = (c: { locators: number; locations: number; keys: number }) =>
  `${c.locators} locator(s), ${c.locations} location(s), ${c.keys} key(s)`

const contents = (f: CopyFacts) => `${counts(f)}, schema version ${f.version}; ${byteSize(f.bytes)}, integrity_check ok`

/**
 * The lines naming what killed `copies` left, which this run removed, and which it kept though
 * unchanged for 10 minutes, as a process of its id runs here whose start its name or /proc does
 * not give (none: no line): beside `path`, or in the folder the link at `path` leads into.
 */
function removedNote(
  copies: string,
  facts: { removedPartials: string[]; leftPartials: string[]; partialsFolder: string | null },
  path: string,
): string {
  const { removedPartials: removed, leftPartials: left, partialsFolder: folder } = facts
  const where = folder === null ? 'beside it' : `in ${folder}, where ${path} leads`
  const names = (paths: string[]) => paths.map((p) => basename(p)).join(', ')
  const gone = removed.length === 0 ? '' : `\nRemoved what killed ${copies} left ${where}: ${names(removed)}.`
  const kept =
    left.length === 0
      ? ''
      : `\nKept what ${copies} may be writing ${where}, though unchanged for over 10 minutes: ${names(left)}. A process of the id in each name runs here, and this run cannot tell whether it writes it: the name gives no start (an older version's), or /proc does not show that process's start to this user. Remove ${left.length === 1 ? 'it' : 'them'} by hand once no ${copies.replace(/s$/, '')} runs.`
  return gone + kept
}

function doctorText(report: DoctorReport): string {
  const line = (c: Check) => {
    const head = `${c.check} ${c.subject}`
    const notes = (c.notes ?? []).map((n) => `\nnote     ${head}: ${n.problem}\n         fix: ${n.fix}`).join('')
    if (c.problems.length === 0) return `ok       ${head}: ${c.summary}${notes}`
    return c.problems.map((p) => `PROBLEM  ${head}: ${p.problem}\n         fix: ${p.fix}`).join('\n') + notes
  }
  const verdict =
    report.problems === 0
      ? 'No problems found.'
      : `${report.problems} problem(s) found: fix them, then run ${cliCommand('doctor')} again.`
  return [...report.checks.map(line), ...report.notChecked.map((n) => `not checked: ${n}`), verdict].join('\n')
}

const doctorJson = (report: DoctorReport) => ({
  database: report.database,
  healthy: report.problems === 0,
  problems: report.problems,
  checks: report.checks.map((c) => ({
    check: c.check,
    subject: c.subject,
    ok: c.problems.length === 0,
    summary: c.summary,
    problems: c.problems,
    notes: c.notes ?? [],
  })),
  not_checked: report.notChecked,
})

export const OPS_COMMANDS: Record<string, OpsCommand> = {
  backup: ({ config, emit }, rest) => {
    const { values, positionals } = args(rest, { force: { type: 'boolean' } }, 1)
    const file = positionals[0]!
    const facts = backupDatabase(config.databasePath, file, !!values.force)
    const removed = facts.removedPartials
    const note = removedNote('backups', facts, file)
    emit(
      !!values.json,
      {
        database: config.databasePath,
        file,
        ...copyJson(facts),
        removed_partials: removed,
        left_partials: facts.leftPartials,
      },
      `Backed up ${config.databasePath} to ${file}: ${contents(facts)}.${note}`,
    )
    return 0
  },
  restore: ({ config, emit }, rest) => {
    const { values, positionals } = args(rest, { force: { type: 'boolean' } }, 1)
    const file = positionals[0]!
    const facts = restoreDatabase(config.databasePath, file, !!values.force)
    const migrated =
      facts.version < facts.current
        ? ` Its schema is migrated to version ${facts.current} when the service starts.`
        : ''
    const { replaced } = facts
    const removed = facts.removedPartials
    const note = removedNote('restores', facts, config.databasePath)
    const counted = replaced?.counts
    const was =
      replaced === null
        ? ''
        : ` It replaced ${counted ? counts(counted) : 'a file that could not be read as a storeloc database'}, last written at ${replaced.modifiedAt}.`
    emit(
      !!values.json,
      {
        database: config.databasePath,
        file,
        ...copyJson(facts),
        migrated_at_start: facts.version < facts.current,
        replaced: replaced === null ? null : { ...(counted ?? {}), modified_at: replaced.modifiedAt },
        removed_partials: removed,
        left_partials: facts.leftPartials,
      },
      `Restored ${file} into ${config.databasePath}: ${contents(facts)}.${was}${migrated} Start the service to serve it.${note}`,
    )
    return 0
  },
  doctor: ({ config, emit }, rest) => {
    const { values } = args(rest, {}, 0)
    const used = config.geocoder.provider !== 'none'
    // The file geocode and locations import read: the default, else the data beside the database.
    const path = used ? geodataOf(config, () => {}) : config.geocoder.dataPath
    const version = geodataVersion(path)
    const damage = used && version === GEODATA_VERSION ? geodataDamageOf(path) : null
    const guess = besideDatabase(config.databasePath)
    const there = guess !== null && geodataVersion(guess) !== null
    const beside = there && version === null ? guess : null
    // Data here and other data there: the doctor checked one, the service may read the other.
    const other = there && version !== null && !sameFile(path, guess) ? guess : null
    const unset = guess === null ? undefined : { besideDatabase: guess }
    const geodata = {
      path,
      used,
      version,
      current: GEODATA_VERSION,
      damage,
      beside,
      other,
      unset,
      there: foundAt(path, version),
      unreached: used ? fileOnTheWay(path) : null,
      link: used ? linkRefusal(path) : null,
    }
    const report = examine(config.databasePath, geodata)
    emit(!!values.json, doctorJson(report), doctorText(report))
    return report.problems === 0 ? 0 : 1
  },
}

/** What is at a GEODATA_PATH holding no data this user can read: the start builds only where no file (or an empty one) is. */
function foundAt(path: string, version: string | null): 'folder' | 'other' | null {
  if (version !== null || !existsSync(path)) return null
  const stat = statSync(path)
  return stat.isDirectory() ? 'folder' : stat.size > 0 ? 'other' : null
}
