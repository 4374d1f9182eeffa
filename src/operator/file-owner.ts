// Whose a database file and its folder are, when this process may not use them: the usual reason
// a command an operator typed cannot open or write the service's database. The service's user is
// taken to be the folder's owner when that is not root (systemd's StateDirectory makes
// /var/lib/storeloc its User='s, mode 0750); a file there of another owner (made by a command run
// as root) is one to give back to it, not a user to run as.
import { accessSync, constants, existsSync, lstatSync, readFileSync, statSync, type Stats } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { DEFAULT_DATABASE_PATH, realPathToBe } from '../core/config'
import { againCommand } from '../core/cli-command'
import { shellWord } from '../core/shell'
import { linkTarget, linkThroughFile, linkWalkBreak, loops, throughFileSentence } from '../core/link-target'
import { fileOnTheWay, isFolder, spellsPath, statOrNone, typedPath } from '../core/typed-in'
import { realPathIfThere } from '../store/read-open'
import { peopleUidsIn } from './login-defs'

/** A user's name, home and login shell, as the password database gives them. */
type PasswdEntry = { name: string; home: string; shell: string }

/** The entries looked up, by uid: a message asks for the same few uids many times. */
const entries = new Map<number, PasswdEntry | null>()

/** How long getent may take: a directory service that does not answer holds nss for longer. */
const GETENT_TIMEOUT_MS = 2000

/** `name:x:uid:gid:gecos:home:shell`'s name, home and shell, when it is `uid`'s. */
function entryOf(line: string, uid: number): PasswdEntry | null {
  const fields = line.split(':')
  return fields[0] && fields[2] !== '' && Number(fields[2]) === uid
    ? { name: fields[0], home: fields[5] ?? '', shell: fields[6] ?? '' }
    : null
}

/**
 * `uid`'s entry as the system looks users up (getent: /etc/passwd, and LDAP, sssd or systemd's
 * dynamic users as nsswitch.conf says); from /etc/passwd where there is no getent (macOS, a
 * slim image). Null for a uid no one names.
 */
function passwdEntry(uid: number): PasswdEntry | null {
  if (entries.has(uid)) return entries.get(uid)!
  let found: PasswdEntry | null | undefined
  const getent = Bun.which('getent')
  if (getent !== null) {
    try {
      const p = Bun.spawnSync([getent, 'passwd', String(uid)], { stderr: 'ignore', timeout: GETENT_TIMEOUT_MS })
      // Exit 2: no such user. Any other end (a line not uid's, a getent stopped): /etc/passwd below.
      if (p.exitCode === 0) found = entryOf(p.stdout.toString().split('\n')[0] ?? '', uid) ?? undefined
      else if (p.exitCode === 2) found = null
    } catch {
      // getent could not be run: /etc/passwd below.
    }
  }
  if (found === undefined) {
    found = null
    try {
      for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) found ??= entryOf(line, uid)
    } catch {
      // No /etc/passwd to read (another system, a sandbox): the uid alone is told.
    }
  }
  entries.set(uid, found)
  return found
}

/** The user name of `uid` (passwdEntry), or null: a uid no one names, told by its number. */
const userName = (uid: number): string | null => passwdEntry(uid)?.name ?? null

/**
 * How a command is given to run as `uid`: sudo -u its name where sudo is installed. With no name,
 * setpriv (run as root), since sudo refuses a uid in no password database (runas_allow_unknown_id
 * is off), by sudo where there is one. A named user with no sudo (a container, a slim host): by
 * runuser (util-linux), else su, run as root, when `reader` is root (who reads a sudo-less
 * system's service log runs commands as root); otherwise the command, said to be that user's.
 * `root`: the text that gives it says it is root's.
 */
function runAs(uid: number, gid: number, reader: 'root' | 'me'): { line: (command: string) => string; root: boolean } {
  const name = userName(uid)
  const sudo = Bun.which('sudo') !== null
  if (name === null) {
    const setpriv = `setpriv --reuid=${uid} --regid=${gid} --clear-groups`
    return sudo ? { line: (c) => `sudo ${setpriv} ${c}`, root: false } : { line: (c) => `${setpriv} ${c}`, root: true }
  }
  const user = shellWord(name)
  if (sudo) return { line: (c) => `sudo -u ${user} ${c}`, root: false }
  if (reader === 'me') return { line: (c) => `as ${name}: ${c}`, root: false }
  if (Bun.which('runuser') !== null) return { line: (c) => `runuser -u ${user} -- ${c}`, root: true }
  // su runs the command through a shell, as one word; -s, since a service's own shell is nologin.
  return { line: (c) => `su -s /bin/sh ${user} -c ${shellWord(c)}`, root: true }
}

/** Whether a line asMe gives is run as root, with no sudo before it: the text that gives it says so. */
export const asRootOnly = (line: string): boolean => /^(setpriv|runuser|su) /.test(line)

/** peopleUids' answer: login.defs is read once. */
let peopleRange: [number, number] | undefined

/** login.defs' UID_MIN and UID_MAX, the uids useradd gives people: 1000 to 60000 where it says none. */
function peopleUids(): [number, number] {
  if (peopleRange !== undefined) return peopleRange
  let text = ''
  try {
    text = readFileSync('/etc/login.defs', 'utf8')
  } catch {
    // No login.defs (macOS, a slim image): useradd's own defaults.
  }
  peopleRange = peopleUidsIn(text)
  return peopleRange
}

/**
 * Whether `uid` is a person's: named, with a shell to log in with (not nologin nor false), and a
 * uid useradd gives people or a home under /home (/Users on macOS). A service's user may have a
 * login shell (PostgreSQL's postgres has bash), but a system uid and its home elsewhere.
 */
function personUser(uid: number): boolean {
  const entry = passwdEntry(uid)
  if (entry === null || /\/(nologin|false)$/.test(entry.shell)) return false
  const [low, high] = peopleUids()
  return (uid >= low && uid <= high) || /^\/(home|Users)\//.test(entry.home)
}

/** Whether `uid` is a service's user: named, and not a person's. Not known for a uid of no name. */
const serviceUser = (uid: number): boolean => passwdEntry(uid) !== null && !personUser(uid)

/**
 * `command` as whoever reads the log runs it to use `path` (runAs: `sudo -u USER command`), when
 * this process alone may use `path`, so that it must run as this user: its folder is this user's
 * and closed to others (systemd's StateDirectory, mode 0750), or this user is a service's (not a
 * person's) and the database's files, its own, are closed to others (mode 0600, in a folder open
 * to all). A person's own files (a developer's data/) are for that person, who reads the log. As
 * root, `sudo command` when the folder or the files are closed to others, whoever's they are, and
 * sudo is installed: without it (a container), who reads the log is root already. `command` as it
 * is otherwise.
 */
export function asMe(path: string, command: string): string {
  const me = process.getuid?.()
  if (me === undefined) return command
  const folder = statOrNone(dirname(realDatabase(path)))
  if (folder === undefined) return command
  const folderClosed = (folder.mode & 0o005) === 0
  // Another user opens the files to read and write them, -wal and -shm too.
  const files = databaseFiles(path)
  const filesClosed = files.some(([, st]) => (st.mode & 0o006) !== 0o006)
  if (me === 0) return (folderClosed || filesClosed) && Bun.which('sudo') !== null ? `sudo ${command}` : command
  // A person's own closed folder (a developer's data/ under umask 077): who reads the log is them.
  const mine = folderClosed
    ? folder.uid === me && !personUser(me)
    : filesClosed && files.every(([, st]) => st.uid === me) && serviceUser(me)
  return mine ? runAs(me, process.getgid?.() ?? folder.gid, 'root').line(command) : command
}

/**
 * What a file's owner is called in a message, and in the commands it gives (runAs, chown), to the
 * person who typed the CLI's command: not root, whom no such message is given.
 */
function ownerOf(st: Stats) {
  const name = userName(st.uid)
  const as = runAs(st.uid, st.gid, 'me')
  return {
    text: name === null ? `uid ${st.uid}` : `${name} (uid ${st.uid})`,
    word: name ?? 'that user',
    /** `command` as this owner runs it. */
    run: (command: string) => (as.root ? `as root: ${as.line(command)}` : as.line(command)),
    chown: name === null ? `${st.uid}:${st.gid}` : `${shellWord(name)}:`, // chown refuses `4242:`
  }
}

/** `command` for root to run, by sudo where it is installed (this process is not root). */
const asRootBy = (command: string) => (Bun.which('sudo') === null ? `as root: ${command}` : `sudo ${command}`)

const modeOf = (st: Stats) => (st.mode & 0o777).toString(8).padStart(4, '0')

/**
 * The file SQLite opens for `path`: a link's target, beside which it makes the -wal and -shm
 * files, so the folder whose owner and modes count is the target's. `path` itself when missing.
 */
export const realDatabase = (path: string): string => resolve(realPathIfThere(path))

/**
 * When `path` is a folder (or a link to one), not a database file: a sentence saying so, which
 * SQLite's "unable to open database file" does not, then `todo`; null otherwise.
 */
export function folderNotFile(path: string, todo = 'set DATABASE_PATH to the database file.'): string | null {
  const real = realDatabase(path)
  if (!isFolder(real)) return null
  const what = real === resolve(path) ? `${path} is a folder` : `${path} leads to the folder ${real}`
  return `${what}, not a database file: ${todo}`
}

/**
 * When `path` is a link (or a chain of them) to a file whose folder is not there: a sentence naming
 * the folder and how to make it, which SQLite's "unable to open database file" does not; null
 * otherwise. Such a link is most often to a disk not mounted, so the folder is not made for it.
 * A link through a file (ENOTDIR) is databaseOnTheWay's, which every entry point asks first.
 */
export function linkToNoFolder(path: string): string | null {
  const end = linkWalkBreak(path)
  if (end === null) return null
  const { whole, target, error } = end
  if (target === whole) return underLinkToNothing(path, whole)
  if (error.code !== 'ENOENT') return null
  const folder = dirname(target)
  try {
    if (statSync(folder, { throwIfNoEntry: false }) !== undefined) return null
  } catch {
    return null // not to be searched: hiddenByFolder says whose it is
  }
  return noFolderSentence(path, target, folder)
}

const noFolderSentence = (path: string, target: string, folder: string) =>
  `${path} leads to ${target}, whose folder ${folder} is not there: mount the disk it is on, or make the folder (mkdir -p ${shellWord(folder)}) writable by the service's user, or set DATABASE_PATH to another file.`

/**
 * When the nearest part of `path` (made whole) that is there is a link to nothing (a disk not
 * mounted): the sentence of linkToNoFolder. Making the folders would stop at that link (EEXIST).
 */
function underLinkToNothing(path: string, whole: string): string | null {
  try {
    let at = dirname(whole)
    while (at !== '/' && lstatSync(at, { throwIfNoEntry: false }) === undefined) at = dirname(at)
    if (!lstatSync(at).isSymbolicLink()) return null
    statSync(at) // ENOENT: the link leads to nothing; ELOOP is linkLoop's
    return null
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return null
  }
  const target = realPathToBe(whole)
  return noFolderSentence(path, target, dirname(target))
}

/**
 * When `path` cannot be reached for its symbolic links (ELOOP: a link that leads back to itself,
 * or through others to it): a sentence naming the link and where it leads, which SQLite's
 * "unable to open database file" does not; null otherwise. `todo`: what to do about it.
 */
export function linkLoop(
  path: string,
  todo = 'Make the link lead to the database file or its folder, or set DATABASE_PATH to the file itself.',
): string | null {
  if (!loops(path)) return null
  // The first part of the path that cannot be reached is the link where the loop is. Parts are
  // joined as written: the system follows a link before a ".." after it, which resolve() drops.
  const full = typedPath(process.cwd(), path)
  let link = full
  let at = ''
  for (const part of full.split('/').slice(1)) {
    at = `${at}/${part}`
    if (loops(at)) {
      link = at
      break
    }
  }
  const chain = [link]
  for (let target = link; chain.length < 9; ) {
    try {
      target = linkTarget(target)
    } catch {
      break
    }
    chain.push(target)
    if (chain.indexOf(target) < chain.length - 1) break
  }
  const looped = chain.indexOf(chain.at(-1)!) < chain.length - 1
  const which = link === full ? 'it is a symbolic link' : `its folder ${link} is a symbolic link`
  const how = looped ? 'that leads back to itself' : 'that leads through more links than the system follows'
  return `${path} cannot be opened: ${which} ${how} (${chain.join(' -> ')}${looped ? '' : ' -> ...'}). ${todo}`
}

/** What is wrong with the path itself (a folder, a link into no folder or in a loop), or null: see folderNotFile, linkToNoFolder and linkLoop. */
export const wrongPath = (path: string): string | null => folderNotFile(path) ?? linkToNoFolder(path) ?? linkLoop(path)

/** The database file, its -wal and -shm, those that exist, with their stat. */
function databaseFiles(path: string): [string, Stats][] {
  const real = realDatabase(path)
  return [real, `${real}-wal`, `${real}-shm`].flatMap((f) => {
    const st = statOrNone(f)
    return st === undefined ? [] : [[f, st] as [string, Stats]]
  })
}

/**
 * When the database file at `path`, its -wal or its -shm is neither this process's (not root)
 * nor its folder's owner's (a non-root owner, the service's user): a sentence naming the first
 * such file and its owner, and the chown that gives them back. A service running as the folder's
 * owner cannot use the database until then.
 * `command` is what runs as that user (againCommand).
 */
export function ownerUnlikeFolder(path: string, command = againCommand()): string | null {
  const me = process.getuid?.()
  if (me === undefined || me === 0) return null
  const files = databaseFiles(path)
  const folder = dirname(realDatabase(path))
  const held = statOrNone(folder)
  if (held === undefined || held.uid === 0) return null
  const foreign = files.find(([, st]) => st.uid !== me && st.uid !== held.uid)
  if (foreign === undefined) return null
  const [file, st] = foreign
  const service = ownerOf(held)
  const link = file === realDatabase(path) && file !== resolve(path) ? `${path} leads to ${file}, which` : file
  const then = held.uid === me ? '' : `, then run the command as ${service.word} (${service.run(command)})`
  return `${link} belongs to ${ownerOf(st).text}, mode ${modeOf(st)}, but its folder ${folder} to ${service.text}, the service's user, who must own the file too: give it back (${asRootBy(`chown ${service.chown} ${files.map(([f]) => shellWord(f)).join(' ')}`)})${then}.`
}

/**
 * When a -wal file lies beside the database with no -shm, and this user may not write their
 * folder: a sentence saying so and what to do; null otherwise. A reader opens a WAL database
 * through its -shm, which it must make then. A -wal without a -shm is a crash's (SQLite removes
 * both at the last close, and keeps the -shm while any process has the file open).
 */
export function walWithoutShm(path: string, command = againCommand()): string | null {
  const real = realDatabase(path)
  const folder = dirname(real)
  if (statOrNone(`${real}-wal`) === undefined || statOrNone(`${real}-shm`) !== undefined) return null
  // Files this user may not read are the reason, whoever makes the -shm: otherOwner says whose.
  const may = (file: string, mode: number) => {
    try {
      accessSync(file, mode)
      return true
    } catch {
      return false
    }
  }
  if (!may(real, constants.R_OK) || !may(`${real}-wal`, constants.R_OK)) return null
  let readOnly: boolean
  try {
    accessSync(folder, constants.W_OK)
    return null
  } catch (e) {
    readOnly = (e as NodeJS.ErrnoException).code === 'EROFS'
  }
  const held = statOrNone(folder)
  if (held === undefined) return null
  const me = process.getuid?.()
  const owner = ownerOf(held)
  // Its owner (root too) may not write a read-only file system, nor a folder it took write from.
  const todo = readOnly
    ? 'The folder is on a read-only file system: mount it read-write and open the database once there (start the service, or run any command), or copy the database with its -wal to a folder this user may write and use the copy.'
    : held.uid === me
      ? `The folder is this user's own, mode ${modeOf(held)}: let it write there (chmod u+w ${shellWord(folder)}), then run this command again.`
      : `Open the database once as a user who may write there, which makes it: start the service, or run any command as ${owner.word} (${owner.run(command)}). Then run this command again.`
  return `${real}-wal was left by a process that stopped without closing the database (a crash, a kill -9), with no -shm file beside it: reading through it needs that file made in ${folder}, which this user${me === undefined ? '' : ` (uid ${me})`} may not write. ${todo}`
}

/**
 * When this process (not root) is not the owner of the file at `path`, or of its -wal or -shm: a
 * sentence saying whose it is and what to do (ownerUnlikeFolder's chown, or to run the command
 * as its owner); null otherwise, or with no file there.
 */
export function otherOwner(path: string, command = againCommand()): string | null {
  const me = process.getuid?.()
  if (me === undefined || me === 0) return null
  const unlike = ownerUnlikeFolder(path, command)
  if (unlike !== null) return unlike
  const st = statOrNone(path)
  if (st === undefined || st.uid === me) return null
  const owner = ownerOf(st)
  return `${path} belongs to ${owner.text}, mode ${modeOf(st)}, and this command runs as uid ${me}: run it as ${owner.word}, the service's user (${owner.run(command)}).`
}

/**
 * When `path` cannot be looked at because a folder on the way may not be searched by this process
 * (systemd's StateDirectory is mode 0750): a sentence naming that folder, its owner, and to run the
 * command as them; null otherwise. Without it, such a file reads as missing.
 */
export function hiddenByFolder(path: string, command = againCommand()): string | null {
  const closed = closedFolderOnTheWay(path)
  if (closed === null) return null
  const { folder, st, me } = closed
  // This user's own folder: its mode is what to mend, not a user to run as.
  if (st.uid === me)
    return `${path} cannot be seen by this command: its folder ${folder} is this user's own (uid ${me}), mode ${modeOf(st)}, which lets no one look into it: let it (chmod u+rwx ${shellWord(folder)}), then run this command again.`
  const owner = ownerOf(st)
  return `${path} cannot be seen by this command: its folder ${folder} belongs to ${owner.text}, mode ${modeOf(st)}, and this command runs as uid ${me}. Run it as ${owner.word}, the service's user (${owner.run(command)}).`
}

/**
 * When a folder on the way to a file that is not the database (a backup's FILE) may not be searched
 * by this process: a sentence naming that folder and its owner, then `todo`; null otherwise. The
 * system's EACCES names the file looked at, not the folder that hides it.
 */
export function fileHiddenByFolder(path: string, todo: string): string | null {
  const closed = closedFolderOnTheWay(path)
  if (closed === null) return null
  const { folder, st, me } = closed
  const whose = st.uid === me ? `is this user's own (uid ${me})` : `belongs to ${ownerOf(st).text}`
  return `${path} cannot be reached: its folder ${folder} ${whose}, mode ${modeOf(st)}, which this user (uid ${me}) may not look into. ${todo}`
}

/**
 * When this process (not root) may not write in `folder` by its mode (EACCES), where a file at
 * `path` is to be made (`done`: written, or replaced): a sentence naming that folder, its owner
 * and mode, then `todo`; null otherwise. The system's EACCES names the file it could not make.
 */
export function folderNotWritable(
  path: string,
  folder: string,
  todo: string,
  done: 'written' | 'replaced' = 'written',
): string | null {
  const me = process.getuid?.()
  if (me === undefined || me === 0) return null
  try {
    accessSync(folder, constants.W_OK)
    return null
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EACCES') return null
  }
  const st = statOrNone(folder)
  if (st === undefined) return null
  const whose = st.uid === me ? `is this user's own (uid ${me})` : `belongs to ${ownerOf(st).text}`
  return `${path} cannot be ${done}: its folder ${folder} ${whose}, mode ${modeOf(st)}, which this user (uid ${me}) may not write in. ${todo}`
}

/**
 * The first folder this process (not root) may not search on the way to `path`, which cannot be
 * looked at for it (EACCES), with its stat; null otherwise.
 */
function closedFolderOnTheWay(path: string): { folder: string; st: Stats; me: number } | null {
  const me = process.getuid?.()
  if (me === undefined || me === 0) return null
  try {
    statSync(path, { throwIfNoEntry: false })
    return null
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EACCES') return null
  }
  // From the root down: the first folder this user may not search, on the way to the path, then
  // to where its links lead (a link into the service's folder; a few, not a loop). Parts joined
  // as written and targets read by linkTarget: a `..` after a link leaves the link's target.
  let full = typedPath(process.cwd(), path)
  walk: for (let links = 0; links < 8; links++) {
    let at = ''
    const parts = dirname(full).split('/').filter(Boolean)
    for (const [i, part] of parts.entries()) {
      at = `${at}/${part}`
      try {
        accessSync(at, constants.X_OK)
      } catch {
        const st = statOrNone(at)
        if (st !== undefined) return { folder: realPathIfThere(at), st, me } // named as the system reaches it, without a `..`
        // A link to a folder behind a closed one: the folders of its target are walked instead.
        try {
          full = [linkTarget(at), ...parts.slice(i + 1), basename(full)].join('/')
        } catch {
          return null
        }
        continue walk
      }
    }
    try {
      full = linkTarget(full)
    } catch {
      return null // not a link: nothing on its way hides it
    }
  }
  return null
}

/**
 * A -wal, -shm or -journal path beside its database (a completion one tab too far), which SQLite
 * writes while the database is open: the line that names the database instead.
 */
export function sidecarOf(path: string): string | null {
  const [, database, suffix] = /^(.+)(-wal|-shm|-journal)$/.exec(path) ?? []
  if (database === undefined || !existsSync(database)) return null
  return `${path} is SQLite's ${suffix} file of the database ${database}, no database itself. Nothing was changed. Name the database: --database ${shellWord(database)} (or DATABASE_PATH).`
}

/**
 * When a file stands on the way to the database at `path` (fileOnTheWay, or a link's target
 * through one: linkThroughFile): that sentence and what to do instead. The default path is said as such, whether DATABASE_PATH is unset or names it,
 * however spelt (`./data//storeloc.db`).
 */
export function databaseOnTheWay(path: string): string | null {
  const unreached = fileOnTheWay(path)
  if (unreached === null) {
    // Refused before SQLite opens it: SQLite reads a link's `..` as text, past the file, and
    // would make a new database where the text leads.
    const through = linkThroughFile(path)
    return through === null
      ? null
      : throughFileSentence(path, through.target, through.file, 'set DATABASE_PATH to another file')
  }
  return spellsPath(path, DEFAULT_DATABASE_PATH)
    ? `${unreached} That is DATABASE_PATH's default, under the folder this runs in (${process.cwd()}): run this in the service's folder, or set DATABASE_PATH (or --database) to the database file.`
    : `${unreached} Set DATABASE_PATH to the database file by a path through folders only.`
}
