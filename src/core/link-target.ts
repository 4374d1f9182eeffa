// Where a symbolic link leads, as the system reads it: a `..` in its target goes up from the real
// folder reached so far, which path.resolve's join of the target as text does not do once a
// folder on the way is itself a link. Also where following a path's links breaks (a link through
// a file, or to nothing).
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { fileInTheWay, typedPath } from './typed-in'

/**
 * The path the link at `link` names: the folders of its target resolved as the system does (links
 * followed, each `..` from the real folder it follows), its last part as named (it may be a link
 * too, for the caller to follow). From a part not there, the rest is appended as spelt; from a
 * file, as written (its `..` kept). Throws where `link` is no link or its folder cannot be read.
 */
export function linkTarget(link: string): string {
  const target = readlinkSync(link)
  const parts = target.split('/').filter((part) => part !== '' && part !== '.')
  let at = isAbsolute(target) ? '/' : realpathSync.native(dirname(link))
  for (const [i, part] of parts.entries()) {
    if (part === '..') at = dirname(at)
    else if (i === parts.length - 1) return join(at, part)
    else {
      try {
        at = realpathSync.native(join(at, part))
      } catch {
        return resolve(at, ...parts.slice(i))
      }
      // A file where a folder goes: the system stops there (ENOTDIR), before any `..` after it.
      if (!statSync(at).isDirectory()) return [at, ...parts.slice(i + 1)].join('/')
    }
  }
  return at
}

/**
 * When `path` is a link (or a chain of them) whose target goes through a file (ENOTDIR): that
 * target, as the system reads it, and the file; null otherwise.
 */
export function linkThroughFile(path: string): { target: string; file: string } | null {
  const end = linkWalkBreak(path)
  const file = end === null ? null : fileInTheWay(end.target)
  return file === null ? null : { target: end!.target, file }
}

/**
 * Where following `path`'s links (8 at most) breaks: `path` made whole, the target the walk could
 * not look at, and why; null when the walk ends at a part that is no link. Each link's target is
 * read as the system reads it (linkTarget): a `..` after a link leaves its target.
 */
export function linkWalkBreak(path: string): { whole: string; target: string; error: NodeJS.ErrnoException } | null {
  const whole = typedPath(process.cwd(), path)
  let target = whole
  for (let links = 0; links < 8; links++) {
    try {
      if (!lstatSync(target).isSymbolicLink()) return null
      target = linkTarget(target)
    } catch (e) {
      return { whole, target, error: e as NodeJS.ErrnoException }
    }
  }
  return null
}

/** The sentence for linkThroughFile's find; `instead`: what else to do than lead the link into a folder. */
export const throughFileSentence = (path: string, target: string, file: string, instead: string) =>
  `${path} leads to ${target}, but ${file} is a file, not a folder, so nothing is under it: make the link lead into a folder, or ${instead}.`

/** Whether reaching `path` meets a loop of symbolic links, or too many of them (ELOOP). */
export function loops(path: string): boolean {
  try {
    statSync(path, { throwIfNoEntry: false })
    return false
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ELOOP'
  }
}
