// A command that only reads, on a database this user may not write beside: opened read-only,
// its reads take no lock, so they are made again until no other process wrote meanwhile.
import { OperatorError } from '../operator'
import { openStore, type Store } from '../store'

/** How many times a read-only command reads a file written meanwhile before it gives up. */
const READ_TRIES = 3

/**
 * Runs a command that only reads on the database opened read-only (openStore's readOnly), and
 * returns its output, held until the reads are known whole: opened immutable, the reads take no
 * lock, and a process that wrote the file meanwhile may have made them torn, or failed them as
 * damage. Then the command runs again.
 */
export async function readAlone(
  path: string,
  command: (store: Store, print: (text: string) => void) => Promise<void>,
): Promise<string[]> {
  for (let tries = 1; ; tries++) {
    const store = openStore(path, true, false, true)
    const held: string[] = []
    try {
      await command(store, (text) => held.push(text))
      if (!store.changedSinceOpen()) return held
    } catch (e) {
      if (!store.changedSinceOpen()) throw e
    } finally {
      store.close()
    }
    if (tries === READ_TRIES)
      throw new OperatorError(
        `${path} was written by another process each time this command read it, ${READ_TRIES} times: opened read-only with no -wal file beside it, its reads take no lock. Run it again once the writes stop, or as the service's user, whose reads wait for the writes.`,
      )
  }
}
