// What every operator command shares: its error, the lookups it refuses with, how it reads text
// and JSON files.
import { readFileSync } from 'node:fs'
import { jsonFault } from '../core/json-fault'
import { unprintableChar } from '../core/text'
import { trimStrings } from '../core/validation'
import type { Store } from '../store'
import type { ApiKey } from '../store/keys'
import type { Locator } from '../store/locators'
import { cliCommand } from '../core/cli-command'

/** What a refusal carries beyond its message: `lines` printed under it as they are; with --json, `code` and `details`. */
export type Refusal = { code?: string; details?: Record<string, string[]>; lines?: string[] }

/** A refused operator command: its message says what to do; nothing was written. */
export class OperatorError extends Error {
  constructor(
    message: string,
    readonly refusal: Refusal = {},
  ) {
    super(message)
  }
}

export function requireLocator(store: Store, id: string): Locator {
  const locator = store.locators.get(id)
  if (locator) return locator
  // The public token is what the finder's address shows, so it is what a newcomer has at hand.
  const owner = id.startsWith('pk_') ? store.locators.byToken(id) : null
  if (owner)
    throw new OperatorError(
      `${id} is the public token of the locator ${owner.id} (${JSON.stringify(owner.name)}): commands take the locator id, ${owner.id}.`,
    )
  // So is its name, which the finder's title shows; two of one name leave the choice to `locator list`.
  const named = id.startsWith('lct_') ? [] : store.locators.list().filter((l) => l.name === id.trim())
  if (named.length === 1)
    throw new OperatorError(
      `${JSON.stringify(id)} is the name of the locator ${named[0]!.id}: commands take the locator id, ${named[0]!.id}.`,
    )
  throw new OperatorError(`No locator ${JSON.stringify(id)}. \`${cliCommand('locator list')}\` shows them.`)
}

/**
 * `write` in a write transaction, refused as an unknown locator when the locator is gone by then
 * (deleted by another process since it was read): its rows would fail their foreign key.
 */
export function writeFor<T>(store: Store, locatorId: string, write: () => T): T {
  return store.write(() => {
    requireLocator(store, locatorId)
    return write()
  })
}

export function requireKey(store: Store, id: string): ApiKey {
  const key = store.keys.get(id)
  if (!key)
    throw new OperatorError(
      `No API key record ${JSON.stringify(id)}. \`${cliCommand('key list LOCATOR_ID')}\` shows them.`,
    )
  return key
}

/** Why `text` may not be a name or label (it would break or disguise the CLI's tables and logs), or null. */
export function unprintable(text: string): string | null {
  const char = unprintableChar(text)
  return char === null
    ? null
    : `may not hold line breaks, tabs, other control characters or invisible format characters (such as bidi controls); it holds ${char}`
}

/** Text given on the command line as the Management API and the CLI's files take text: see trimStrings. */
export const cleanText = (text: string) => trimStrings(text) as string

export function printable(text: string, what: string): void {
  const problem = unprintable(text)
  if (problem !== null) throw new OperatorError(`${what} ${problem}.`)
}

/**
 * Shows a new secret key to the person who asked for it, inside the transaction that made it: if
 * it throws (the output could not be written), nothing is kept, so no key lives that nobody saw.
 */
export type Deliver<T> = (issued: T) => void

/** A file's bytes, or an OperatorError saying why it could not be read. */
export function readFileBytes(path: string): Uint8Array {
  try {
    return readFileSync(path)
  } catch (e) {
    const code = (e as { code?: string }).code
    if (code === 'ENOENT') throw new OperatorError(`No file ${path}.`)
    if (code === 'EISDIR') throw new OperatorError(`${path} is a directory, not a file.`)
    throw new OperatorError(`Cannot read ${path}: ${(e as Error).message}`)
  }
}

/**
 * How a JSON file is encoded: UTF-16 by its byte order mark, as Windows PowerShell's Out-File and
 * > write a file, or without one by a NUL beside its first character (a JSON text in UTF-8 holds
 * no NUL: "{" in UTF-16 LE is 7B 00); anything else UTF-8.
 */
function jsonEncoding(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | 'utf-8' {
  if (bytes.length < 2) return 'utf-8'
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] !== 0 && bytes[1] === 0)) return 'utf-16le'
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0 && bytes[1] !== 0)) return 'utf-16be'
  return 'utf-8'
}

/** A JSON file's content, or an OperatorError saying why it could not be read. */
export function readJsonFile(path: string): unknown {
  const bytes = readFileBytes(path)
  const text = new TextDecoder(jsonEncoding(bytes)).decode(bytes)
  try {
    // TextDecoder drops the byte order mark; one left (a mark written twice) is no JSON either.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  } catch (e) {
    // Only a text that opens as JSON does is searched: another (a CSV named .json) holds no JSON's faults.
    const fault = /^\s*[[{]/.test(text) ? jsonFault(text) : null
    throw new OperatorError(`${path} is not valid JSON: ${fault ?? (e as Error).message}`)
  }
}
