// The geocoder's data file, opened read-only with every statement guarded: a damaged page there
// is the data file's fault, never the store database's, so it is reported under its own name
// (GeodataDamagedError, with no SQLite code) and the store's damage watch does not take it up.
import type { Database } from 'bun:sqlite'
import { isCorruptError } from '../../store/damage'
import { openToRead } from '../../store/read-open'

/** The data file is damaged: places and addresses cannot be looked up until it is built again. */
export class GeodataDamagedError extends Error {}

/** The first damage met in this process (its message), or null; whether a request's answer has logged it. */
let met: string | null = null
let logged = false
export const geodataDamage = (): string | null => met

/** True once per process: for the first answer refused by a damaged data file, the one to log it. */
export function firstToLogDamage(): boolean {
  if (logged || met === null) return false
  logged = true
  return true
}

/** A damage met reading the file in another thread (the place search's warm-up), as if met here. */
export function metElsewhere(message: string): GeodataDamagedError {
  met ??= message
  return new GeodataDamagedError(message)
}

/** What to do about a damaged data file at `path`; `found` is what SQLite said. */
export const geodataDamageText = (path: string, found: string) =>
  `The offline geocoder's data file ${path} is damaged (${found}). The database of stores is not affected. Stop the service, delete ${path}, and start it again: the start builds the file again (about 15 seconds).`

function guarded(path: string, error: unknown): unknown {
  if (!isCorruptError(error)) return error
  const damaged = new GeodataDamagedError(geodataDamageText(path, (error as Error).message))
  met ??= damaged.message
  return damaged
}

/** `run()`, a corruption it meets thrown as GeodataDamagedError. */
function guard<T>(path: string, run: () => T): T {
  try {
    return run()
  } catch (e) {
    throw guarded(path, e)
  }
}

/** A statement whose methods throw GeodataDamagedError for a damaged page, iterate()'s steps too. */
function guardedStatement<S extends object>(path: string, statement: S): S {
  return new Proxy(statement, {
    get(target, key) {
      const value = Reflect.get(target, key, target)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        const out = guard(path, () => value.apply(target, args))
        return isIterator(out) ? guardedSteps(path, out) : out
      }
    },
  })
}

const isIterator = (value: unknown): value is Iterator<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as Iterator<unknown>).next === 'function'

/** The rows an iterate() gives, each step guarded: a damaged page is met while stepping. */
function* guardedSteps<T>(path: string, steps: Iterator<T>): Generator<T> {
  for (;;) {
    const step = guard(path, () => steps.next())
    if (step.done) return
    yield step.value
  }
}

/** The data file at `path`, read-only, making nothing beside it (openToRead); its statements (query, prepare) are guarded. */
export function openGeodata(path: string): Database {
  const db = guard(path, () => openToRead(path).db)
  return new Proxy(db, {
    get(target, key) {
      const value = Reflect.get(target, key, target)
      if (typeof value !== 'function') return value
      if (key === 'query' || key === 'prepare')
        return (...args: unknown[]) =>
          guardedStatement(
            path,
            guard(path, () => value.apply(target, args)),
          )
      return (...args: unknown[]) => guard(path, () => value.apply(target, args))
    },
  })
}

/** What SQLite's quick_check finds wrong with the data file at `path` (about 0.2 s), or null when nothing. */
export function geodataDamageOf(path: string): string | null {
  try {
    const db = openToRead(path).db
    try {
      const rows = db.query<{ quick_check: string }, []>('PRAGMA quick_check(3)').all()
      const found = rows.map((r) => r.quick_check)
      return found.join('') === 'ok' ? null : found.join('; ').replace(/\s*\n\s*/g, ' ')
    } finally {
      db.close()
    }
  } catch (e) {
    if (isCorruptError(e)) return (e as Error).message
    throw e
  }
}
