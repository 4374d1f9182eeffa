// The temporary files a build of the geocoder's data writes beside its path, named by the machine
// (and PID namespace) and the process that write them (its id, and when it started), and their
// removal once that process is gone (or its id is another program's, or, elsewhere on a folder of
// this machine's own disk, it holds the file's lock no more): a start killed midway (a deploy, an
// OOM kill) leaves them, and each is as large as the data. Also where a build writes: a linked
// path's target.
import { Database } from 'bun:sqlite'
import { existsSync, lstatSync, readdirSync, readlinkSync, statfsSync, statSync } from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { realPathToBe } from '../../core/config'
import { linkThroughFile, loops, throughFileSentence } from '../../core/link-target'
import { removeIfThere } from '../../core/remove-file'
import { processTag, running, startTicks } from '../../core/processes'
import { isFolder } from '../../core/typed-in'

/**
 * A file no process of this machine wrote, where its lock tells nothing (a network file system),
 * is a killed build's only once untouched this long: a running build writes to its file between
 * steps of seconds, or minutes on a loaded machine.
 */
export const FOREIGN_BUILD_IDLE_MS = 60 * 60 * 1000

/**
 * The file this process builds the data at `outPath` in, renamed to `outPath` once whole: named by
 * its machine and PID namespace, its id and, where /proc tells it, its start
 * ("host-pid4026531836.1234-56789.locked.tmp"). "locked": its builder holds SQLite's exclusive
 * lock on it from its first write until it is whole (lockBuildFile).
 */
export function buildFile(outPath: string): string {
  // Its start as another build of this PID namespace reads it (notWriting): by its id.
  return `${outPath}.${host()}.${processTag({ byId: true })}.locked.tmp`
}

/**
 * Makes `db`, a build file just opened, keep its lock from its first write until it is closed: a
 * process of another PID namespace or machine tells by it a running build from a killed one (the
 * kernel's fcntl locks are the file's, whatever namespace holds them). The first write waits for
 * a start that reads the file meanwhile (removeStaleBuilds).
 */
export function lockBuildFile(db: Database): void {
  db.exec('PRAGMA locking_mode = EXCLUSIVE')
  db.exec('PRAGMA busy_timeout = 10000')
}

/** Times a build file is made again when a start removes it before its first write. */
const OPEN_TRIES = 3

/**
 * Opens this process's build file for the data at `outPath` (buildFile), locked from `firstWrite`
 * on (lockBuildFile). Until that write it is empty and unlocked, which a start elsewhere removes
 * as a killed build's, holding its read lock meanwhile (removeStaleBuilds): the write then waits
 * for it and lands in the removed file (or fails, SQLite's journal finding no file beside it), so
 * one no longer at its name after that write is made again.
 */
export function openBuildFile(outPath: string, firstWrite: (db: Database) => void): { db: Database; file: string } {
  const file = buildFile(outPath)
  const there = () => (statSync(file, { throwIfNoEntry: false })?.size ?? 0) > 0
  for (let tries = 1; ; tries++) {
    const db = new Database(file, { create: true, strict: true })
    try {
      lockBuildFile(db)
      firstWrite(db)
    } catch (e) {
      db.close()
      if (existsSync(file)) {
        removeIfThere(file)
        throw e
      }
    }
    if (there()) return { db, file }
    db.close()
    if (tries === OPEN_TRIES)
      throw new Error(
        `${file} was removed as soon as it was made, ${tries} times (by starts sharing its folder, as a killed build's): start again`,
      )
  }
}

/**
 * Lets go of the lock lockBuildFile keeps, the file whole, before `db` closes: a statement not
 * finalized would keep the connection, and its lock, open past close(), on the data's path then.
 */
export function unlockBuildFile(db: Database): void {
  db.exec('PRAGMA locking_mode = NORMAL')
  db.query('SELECT count(*) FROM sqlite_master').get() // the next read lets go of it
}

/**
 * The first name the data at `outPath` and this process's build of it need for a file (the data,
 * its journal, the build file and that one's journal) that a folder holds instead, or null:
 * SQLite cannot make its file there, and a folder is no build's to remove.
 */
export function folderInTheWay(outPath: string): string | null {
  const own = buildFile(outPath)
  return [outPath, `${outPath}-journal`, own, `${own}-journal`].find((name) => isFolder(name)) ?? null
}

/** Removes the files of this process's build of the data at `outPath`, ended midway (its worker stopped). */
export function removeOwnBuild(outPath: string): void {
  const tmp = buildFile(outPath)
  for (const file of [tmp, `${tmp}-journal`]) removeIfThere(file)
}

/**
 * This machine's name as a file name's part, dots too replaced, with the PID namespace it sees
 * processes in (Linux): containers sharing one volume may have one hostname, but each sees only
 * its own processes, so a build file is judged by its process only where it was named alike.
 */
const host = (): string => `${machine()}${pidSpace()}`

const machine = (): string => hostname().replace(/[^\w-]/g, '_') || 'host'

/** "-pid4026531836": this process's PID namespace, by the inode /proc/self/ns/pid names; "" where there is none. */
function pidSpace(): string {
  try {
    const inode = /^pid:\[(\d+)\]$/.exec(readlinkSync('/proc/self/ns/pid'))?.[1]
    return inode === undefined ? '' : `-pid${inode}`
  } catch {
    return ''
  }
}

/**
 * Removes what builds stopped midway left beside `outPath`: their temporary files and journals,
 * by a process of this machine no longer running (or this one, or one whose id another program
 * took since: it started at another time than the name says), or by another PID namespace or
 * machine (a container started again, or made anew with a hostname of its own) whose file is
 * locked no more where the folder is on this machine's own disk (ownDisk), or else (or by an older
 * version, whose builder held no lock, or a system without /proc), untouched for
 * FOREIGN_BUILD_IDLE_MS. A folder that is not there holds none. Returns those this user may not
 * remove (removeLeftover).
 */
export function removeStaleBuilds(outPath: string): KeptBuild[] {
  const dir = dirname(outPath)
  const name = basename(outPath)
  const kept: KeptBuild[] = []
  if (!existsSync(dir)) return kept
  const lockTells = ownDisk(dir)
  for (const entry of readdirSync(dir)) {
    if (!entry.startsWith(`${name}.`)) continue
    const m = /^(?:([\w-]+)\.)?(\d+)(?:-(\d+))?(\.locked)?\.tmp(-journal)?$/.exec(entry.slice(name.length + 1))
    const file = join(dir, entry)
    // A build writes files only: anything else of such a name (a folder made by mistake) is not its.
    if (!m || !(lstatSync(file, { throwIfNoEntry: false })?.isFile() ?? false)) continue
    if (m[1] === host()) {
      if (notWriting(Number(m[2]), m[3], file)) removeLeftover(file, kept)
    } else if (m[1] !== undefined && m[4] !== undefined && lockTells) {
      removeUnlocked(m[5] === undefined ? file : file.slice(0, -'-journal'.length), kept)
    } else if (idleSince(file) > FOREIGN_BUILD_IDLE_MS) removeLeftover(file, kept)
  }
  return kept
}

/**
 * A killed build's file this user may not remove, and why: EPERM, another user's in a folder with
 * the sticky bit (or one made immutable); EACCES, a folder this user may not write.
 */
export type KeptBuild = { file: string; code: 'EPERM' | 'EACCES' }

/**
 * Removes `file`, a killed build's; one this user may not remove is added to `kept` and left:
 * this process builds in a file of its own name, so it is in no build's way, only taking room.
 */
function removeLeftover(file: string, kept: KeptBuild[]): void {
  try {
    removeIfThere(file)
  } catch (e) {
    const code = (e as { code?: string }).code
    if (code === 'EPERM' || code === 'EACCES') kept.push({ file, code })
    else throw e
  }
}

/**
 * statfs's types of the file systems on a machine's own disks (ext2-4, XFS, Btrfs, ZFS, F2FS,
 * tmpfs, overlayfs). Every process that locks a file on one runs on this machine's kernel, which
 * holds its locks; a network file system's locks may be kept apart on each host (NFS mounted
 * nolock, or local_lock), and then a build running elsewhere would look killed.
 */
const OWN_DISK_TYPES = new Set([0xef53, 0x58465342, 0x9123683e, 0x2fc12fc1, 0xf2f52010, 0x01021994, 0x794c7630])

/** Whether the folder `dir` is on one of this machine's own disks (OWN_DISK_TYPES): a build file's lock there tells whether its builder runs. */
function ownDisk(dir: string): boolean {
  try {
    return process.platform === 'linux' && OWN_DISK_TYPES.has(Number(statfsSync(dir).type))
  } catch {
    return false
  }
}

/**
 * Removes build file `file` (and its journal) unless a process holds its lock (lockBuildFile): a
 * running builder does, and the kernel drops a killed one's. Read under a read lock kept while it
 * is removed, so a builder that made it but has not written yet (an empty file, unlocked) waits,
 * then finds it gone (openBuildFile). A whole file (between its builder's close and its rename to
 * the data's path) holds none: it is a killed build's once untouched for FOREIGN_BUILD_IDLE_MS,
 * as is one this user may not read (another user's), whose lock it cannot take. Read only, so
 * nothing is written beside it.
 */
function removeUnlocked(file: string, kept: KeptBuild[]): void {
  const seen = lstatSync(file, { throwIfNoEntry: false })
  if (seen === undefined) {
    removeLeftover(`${file}-journal`, kept) // a journal left without its file
    return
  }
  if (!seen.isFile()) return // a folder made by mistake: no build's
  let db: Database | undefined
  let locked = false
  let byAge = false // whole or unreadable: a killed build's once untouched for FOREIGN_BUILD_IDLE_MS
  try {
    db = new Database(file, { readonly: true })
    db.exec('PRAGMA busy_timeout = 0')
    db.exec('BEGIN')
    byAge = db.query("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get() !== null
  } catch (e) {
    // Locked: a build running. Not to be opened (another user's, unreadable to this one): no
    // telling. Else not SQLite's, or a journal to roll back: a killed build's.
    const code = (e as { code?: string }).code
    locked = code === 'SQLITE_BUSY'
    byAge = code === 'SQLITE_CANTOPEN'
  }
  try {
    // Removed by its name, so only while that name leads to the file read: its builder, finding
    // it removed by another start meanwhile, makes a file of that name again (openBuildFile).
    const now = statSync(file, { throwIfNoEntry: false })
    const same = now !== undefined && now.ino === seen.ino && now.dev === seen.dev
    if (!locked && same && (!byAge || idleSince(file) > FOREIGN_BUILD_IDLE_MS))
      for (const f of [file, `${file}-journal`]) removeLeftover(f, kept)
  } finally {
    db?.close()
  }
}

/**
 * Whether `file`, named by this machine's process `pid` that started at `start` (clock ticks, as
 * startTicks; undefined when the name tells none), is no longer written: that process is this one
 * or not running, or the one running under its id started at another time. Where the start cannot
 * be compared, the file is a killed build's once untouched for FOREIGN_BUILD_IDLE_MS.
 */
function notWriting(pid: number, start: string | undefined, file: string): boolean {
  if (pid === process.pid || !running(pid)) return true
  const now = start === undefined ? null : startTicks(pid)
  return now === null ? idleSince(file) > FOREIGN_BUILD_IDLE_MS : now !== start
}

/** How long ago the file was last written; 0 for one gone meanwhile. */
function idleSince(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs
  } catch {
    return 0
  }
}

/**
 * Where the data at `path` is written: a link's target, so the link stays (the build renames its
 * file over the path it is given). Throws, in one line, where linkRefusal refuses the link.
 */
export function buildTarget(path: string): string {
  const refused = linkRefusal(path)
  if (refused !== null) throw new Error(`Could not build the offline geocoder data at ${path}: ${refused}`)
  return isLink(path) ? realPathToBe(path) : path
}

/**
 * Why the data is not built at the link at `path`, with what to do: it leads through a file, into
 * a folder that is not there (a disk not mounted: a folder made for it would hide that disk's), or
 * in a loop; null for any other path.
 */
export function linkRefusal(path: string): string | null {
  const instead = 'point GEODATA_PATH at another file (or set GEOCODER=none to run without it)'
  const through = linkThroughFile(path)
  if (through !== null) return throughFileSentence(path, through.target, through.file, instead)
  if (!isLink(path)) return null
  if (loops(path))
    return `${path} is a symbolic link that leads back to itself, or through more links than the system follows: make it lead to a file, or ${instead}.`
  const target = realPathToBe(path)
  if (isFolder(dirname(target))) return null
  return `${path} leads to ${target}, whose folder ${dirname(target)} is not there: mount the disk it is on, or make that folder, or ${instead}.`
}

/** Whether `path` itself is a symbolic link; false where it cannot be looked at (a closed folder: the build says why). */
function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}
