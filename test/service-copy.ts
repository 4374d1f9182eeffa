// A copy of the service's sources in a folder of its own, run as a real server: a test edits one
// of its files to bring about what the service's own files never do (a build that waits, a file
// that is missing).
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..')

/** Copies package.json, tsconfig.json and src/ to `folder`, node_modules linked. */
export function serviceCopy(folder: string) {
  for (const part of ['package.json', 'tsconfig.json', 'src'])
    cpSync(join(ROOT, part), join(folder, part), { recursive: true })
  symlinkSync(join(ROOT, 'node_modules'), join(folder, 'node_modules'))
  return {
    /** Rewrites the copy's `file` (a path from its root) with what `change` makes of it. */
    edit(file: string, change: (source: string) => string): void {
      const path = join(folder, file)
      writeFileSync(path, change(readFileSync(path, 'utf8')))
    },
    /** The command that starts the copy's server, for startOnFreePort. */
    command: () => [process.execPath, join(folder, 'src/main.ts')],
  }
}
