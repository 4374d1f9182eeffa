// Removing a file that may not be there, saying the system's real reason where it cannot be.
import { unlinkSync } from 'node:fs'

/**
 * Removes the file at `path`; one not there is no error. Not rmSync: Bun's reports EPERM (another
 * user's file in a folder with the sticky bit) as EFAULT, "bad address", which names no cause.
 */
export function removeIfThere(path: string): void {
  try {
    unlinkSync(path)
  } catch (e) {
    if ((e as { code?: string }).code !== 'ENOENT') throw e
  }
}
