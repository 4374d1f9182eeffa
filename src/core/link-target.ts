// Where a symbolic link leads, as the system reads it: a `..` in its target goes up from the real
// folder reached so far, which path.resolve's join of the target as text does not do once a
// folder on the way is itself a link.
import { readlinkSync, realpathSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'

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
