// Another process that holds a database's write lock: a start that needs it waits, answering its
// starting answers meanwhile (src/server/starting-answers.ts).
import { expect } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'

/** Another process (hold-lock.ts, written in `dir`) that takes the write lock of the database at `path`, says "held", and lets go when `release()` is called. */
export async function holdLock(dir: string, path: string) {
  const script = join(dir, 'hold-lock.ts')
  await Bun.write(
    script,
    `import { Database } from 'bun:sqlite'
const db = new Database(process.argv[2])
db.exec('PRAGMA journal_mode = WAL')
db.exec('BEGIN IMMEDIATE')
console.log('held')
for await (const _ of Bun.stdin.stream()) break
db.exec('COMMIT')
db.close()
`,
  )
  const proc = Bun.spawn([process.execPath, script, path], { stdin: 'pipe', stdout: 'pipe' })
  const { value } = await proc.stdout.getReader().read()
  expect(new TextDecoder().decode(value)).toContain('held')
  return Object.assign(proc, {
    release: () => {
      proc.stdin.write('go\n')
      proc.stdin.end()
    },
  })
}

/** holdLock on a new, empty database file at `path`, as a start making its first locator meets it; WAL mode: the lock has its -shm to live in. */
export async function holdNewDatabase(dir: string, path: string) {
  const made = new Database(path, { create: true })
  made.exec('PRAGMA journal_mode = WAL')
  made.close()
  return holdLock(dir, path)
}
