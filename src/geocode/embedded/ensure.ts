// Makes sure the offline geocoder's data is at its path, at GEODATA_VERSION, before the start
// goes on: checks the file there, refuses one that is not the geocoder's data, and else runs
// build.ts's buildGeodata in a worker thread (build-worker.ts), telling its steps as they come.
// Either way, the files of builds killed midway beside it are removed.
import { existsSync, statSync } from 'node:fs'
import { realPathToBe } from '../../core/config'
import { fileOnTheWay, spellsPath } from '../../core/typed-in'
import { isSqliteFile, openToRead } from '../../store/read-open'
import { DEFAULT_GEODATA_PATH, GEODATA_STEPS, GEODATA_VERSION, type GeodataStats } from './build'
import { buildTarget, folderInTheWay, type KeptBuild, removeOwnBuild, removeStaleBuilds } from './build-files'

/** The version of the file at `path`, or null when it is absent or unreadable. */
export function geodataVersion(path: string): string | null {
  if (!existsSync(path)) return null
  try {
    const db = openToRead(path).db
    try {
      return db.query<{ value: string }, []>("SELECT value FROM meta WHERE key = 'version'").get()?.value ?? null
    } finally {
      db.close()
    }
  } catch {
    return null
  }
}

/** The geocoder's data cannot be used or made at GEODATA_PATH: the start stops, saying so in one line. */
export class GeodataPathError extends Error {
  constructor(
    message: string,
    /** GEODATA_PATH, for main to tell a full disk (may pass) from a file or folder to mend. */
    readonly path: string,
  ) {
    super(message)
  }
}

/** Whether the file at `path` begins as a SQLite file does, but SQLite cannot read its tables. */
function unreadableSqlite(path: string): boolean {
  // false also for a folder, or a file this user may not read: not one SQLite could not read
  if (!isSqliteFile(path)) return false
  try {
    const db = openToRead(path).db
    try {
      db.query('SELECT count(*) FROM sqlite_master').get()
      return false
    } finally {
      db.close()
    }
  } catch {
    return true
  }
}

/**
 * Whether the file at `path` is the geocoder's data, of any version: a SQLite file with its
 * tables. A file that is not (a storeloc database, a backup, any other file) is never replaced.
 */
function isGeodata(path: string): boolean {
  try {
    const db = openToRead(path).db
    try {
      const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all()
      const names = new Set(tables.map((t) => t.name))
      return ['meta', 'places', 'place_names', 'postcodes'].every((t) => names.has(t))
    } finally {
      db.close()
    }
  } catch {
    return false
  }
}

/**
 * The calls of ensureGeodata under way in this process, by the data's real path: one at a time a
 * path, however spelt (through a linked folder too), as its builds share their file's name.
 */
const building = new Map<string, Promise<void>>()

/**
 * Builds the data at `path` unless it is there at GEODATA_VERSION, in a worker thread (the
 * caller's requests are answered meanwhile). Refuses a file that is there but not the geocoder's
 * data: GEODATA_PATH may name a database or a backup by mistake. `say` is told that it starts,
 * each step, and the result, a line each; `sayInPlace`, when given (a terminal), is told the
 * steps instead, each to be written over the last. A call while this process builds the data at
 * that path waits for that build (its builds share their file's name), then looks again.
 */
export async function ensureGeodata(
  path: string = DEFAULT_GEODATA_PATH,
  say: (line: string) => void = () => {},
  sayInPlace?: (text: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  const key = realPathToBe(path)
  for (let first = building.get(key); first !== undefined; first = building.get(key)) {
    say(`Waiting for the offline geocoder data this process is preparing in ${path}...`)
    await untilAborted(
      first.catch(() => {}),
      signal,
    )
  }
  const run = ensureOnce(path, say, sayInPlace, signal)
  building.set(key, run)
  try {
    await run
  } finally {
    // Its own entry only: one set by another call, once this one's was gone, stays.
    if (building.get(key) === run) building.delete(key)
  }
}

/** `done`, or its rejection by `signal`'s reason once aborted first. */
function untilAborted(done: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return done
  signal.throwIfAborted()
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason)
    signal.addEventListener('abort', abort, { once: true })
    done.then(() => {
      signal.removeEventListener('abort', abort)
      resolve()
    })
  })
}

/** ensureGeodata's work, no other call of this process under way for `path`. */
async function ensureOnce(
  path: string,
  say: (line: string) => void,
  sayInPlace: ((text: string) => void) | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  signal?.throwIfAborted()
  const folder = folderInTheWay(path)
  if (folder !== null) throw new GeodataPathError(inTheWay(path, folder), path)
  const unreached = fileOnTheWay(path)
  if (unreached !== null)
    throw new GeodataPathError(
      spellsPath(path, DEFAULT_GEODATA_PATH)
        ? `Could not build the offline geocoder data at ${path}, GEODATA_PATH's default, under the folder this runs in (${process.cwd()}): ${unreached} Move that file away, run this in the service's folder, or set GEODATA_PATH to a file elsewhere (or set GEOCODER=none to run without it).`
        : `Could not build the offline geocoder data at ${path}: ${unreached} GEODATA_PATH says where it goes: point it at a file by a path through folders only (or set GEOCODER=none to run without it).`,
      path,
    )
  let out: string
  try {
    out = buildTarget(path)
  } catch (e) {
    throw new GeodataPathError((e as Error).message, path)
  }
  const outFolder = out === path ? null : folderInTheWay(out)
  if (outFolder !== null) throw new GeodataPathError(inTheWay(out, outFolder), path)
  const current = geodataVersion(path) === GEODATA_VERSION
  // An empty file holds nothing to keep (made by touch, or a build stopped before its first page).
  // Refused before leftovers are removed: beside a file not the data, none named like one is a build's.
  if (!current && existsSync(path) && statSync(path).size > 0 && !isGeodata(path))
    throw new GeodataPathError(
      unreadableSqlite(path)
        ? `${path} is a SQLite file that cannot be read (damaged, or cut short), so it is left as it is. If it is the geocoder's data, delete it: the start builds it again. Else point GEODATA_PATH at a file of its own (by default ${DEFAULT_GEODATA_PATH}).`
        : `${path} is not the offline geocoder's data, so it is left as it is. Point GEODATA_PATH at a file of its own (by default ${DEFAULT_GEODATA_PATH}), or delete that file if it is an old copy.`,
      path,
    )
  // A build killed midway beside data made since (by another start) is no build to wait for.
  // Beside a link and beside its target: a build killed at either name is looked at.
  const kept: KeptBuild[] = []
  for (const beside of new Set([path, out])) {
    try {
      kept.push(...removeStaleBuilds(beside))
    } catch {
      // a folder this user may not read: its leftovers stay; the data is read, or built, as it is
    }
  }
  for (const { file, code } of kept) say(keptBuild(file, code))
  if (current) return
  const where = out === path ? path : `${out} (where ${path} leads)`
  say(`Preparing the offline geocoder data in ${where} (once, about 15 seconds; longer on a busy machine)...`)
  const t0 = performance.now()
  const stats = await buildInWorker(
    out,
    (index) => {
      const text = `  step ${index + 1} of ${GEODATA_STEPS.length}: ${GEODATA_STEPS[index]} (${((performance.now() - t0) / 1000).toFixed(0)} s)`
      ;(sayInPlace ?? say)(text)
    },
    signal,
  )
  if (sayInPlace) sayInPlace('')
  say(
    `Offline geocoder ready: ${stats.places} places, ${stats.names} names, ${stats.postcodes} postcodes in ${(stats.ms / 1000).toFixed(1)} s.`,
  )
}

/** Runs build.ts's buildGeodata for `path` in a worker thread, `step` told each step's index. */
function buildInWorker(path: string, step: (index: number) => void, signal?: AbortSignal): Promise<GeodataStats> {
  return new Promise<GeodataStats>((resolve, reject) => {
    const worker = new Worker(new URL('./build-worker.ts', import.meta.url))
    // A caller that stops waiting ends the build: its worker, then (the worker ended, so writing
    // it no more) the file it was writing.
    const abandon = () => {
      worker.addEventListener(
        'close',
        () => {
          removeOwnBuild(path)
          reject(signal!.reason)
        },
        { once: true },
      )
      worker.terminate()
    }
    signal?.addEventListener('abort', abandon, { once: true })
    worker.onmessage = (event: MessageEvent<BuildMessage>) => {
      const m = event.data
      if (m.kind === 'step') return step(m.index)
      worker.terminate()
      signal?.removeEventListener('abort', abandon)
      if (m.kind === 'done') resolve(m.stats)
      else reject(unbuilt(path, m.message))
    }
    worker.onerror = (event) => {
      worker.terminate()
      signal?.removeEventListener('abort', abandon)
      reject(unbuilt(path, event.message))
    }
    worker.postMessage(path)
  })
}

/** What to do about `folder`, a folder where the data at `path`, or a file of its build, goes. */
const inTheWay = (path: string, folder: string) =>
  folder === path
    ? `${path} is a folder, not the offline geocoder's data, so it is left as it is. Point GEODATA_PATH at a file (by default ${DEFAULT_GEODATA_PATH}), or move that folder away.`
    : `${folder} is a folder, where the offline geocoder's data at ${path} needs a file of that name, so it is left as it is. Move it away, or point GEODATA_PATH at a folder of its own.`

/** What to do about `file`, a stopped build's this user may not remove (`code` says why, as KeptBuild). */
const keptBuild = (file: string, code: KeptBuild['code']) =>
  code === 'EPERM'
    ? `${file} is a stopped build's file this user may not remove (another user's, in a shared folder): it takes as much room as the data; remove it as its owner or as root.`
    : `${file} is a stopped build's file this user may not remove (its folder is not this user's to write): it takes as much room as the data; remove it as a user who may write that folder, or as root.`

/** A build that failed (a folder this user cannot write, a full disk): one line, no stack trace. */
const unbuilt = (path: string, why: string) =>
  new GeodataPathError(
    `Could not build the offline geocoder data at ${path}: ${why}. GEODATA_PATH says where it goes: point it at a folder this user can write, with about 70 MB free (or set GEOCODER=none to run without it).`,
    path,
  )

/** What build-worker.ts posts back. */
export type BuildMessage =
  | { kind: 'step'; index: number }
  | { kind: 'done'; stats: GeodataStats }
  | { kind: 'failed'; message: string }
