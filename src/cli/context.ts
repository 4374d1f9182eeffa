// What every command is given: the store, the settings, and how to print its answer.
import type { Config } from '../core/config'
import type { Store } from '../store'

/** Prints `data` as JSON with --json, else `text`. */
export type Emit = (json: boolean, data: unknown, text: string) => void

export type Context = {
  store: Store
  config: Config
  print: (text: string) => void
  emit: Emit
  /** emit, inside the transaction that made a secret key: an output that fails undoes it all. */
  emitSecret: Emit
}

/** One command: `rest` is what follows its two words. */
export type Command = (context: Context, rest: string[]) => void | Promise<void>
