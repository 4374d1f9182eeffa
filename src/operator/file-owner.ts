// Whose a database file is, when this process is not its owner: the usual reason a command an
// operator typed cannot open or write the service's database (run as themselves, not as the
// service's user, whose files are mode 0600).
import { readFileSync, statSync } from 'node:fs'

/** The user name of `uid` in /etc/passwd, or null (no such file or line). */
function userName(uid: number): string | null {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':')
      if (name && Number(id) === uid && id !== '') return name
    }
  } catch {
    // No /etc/passwd to read (another system, a sandbox): the uid alone is told.
  }
  return null
}

/**
 * When this process (not root) is not the owner of the file at `path`: a sentence saying whose it
 * is and to run the command as that user; null otherwise, or with no file there.
 */
export function otherOwner(path: string): string | null {
  const me = process.getuid?.()
  if (me === undefined || me === 0) return null
  const st = statSync(path, { throwIfNoEntry: false })
  if (st === undefined || st.uid === me) return null
  const name = userName(st.uid)
  const owner = name === null ? `uid ${st.uid}` : `${name} (uid ${st.uid})`
  const mode = (st.mode & 0o777).toString(8).padStart(4, '0')
  const as = name ?? `'#${st.uid}'`
  return `${path} belongs to ${owner}, mode ${mode}, and this command runs as uid ${me}: run it as ${name ?? 'that user'}, the service's user (sudo -u ${as} ...).`
}
