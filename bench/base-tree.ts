// What the benches that compare with a base commit share: the commit a `--base` names, that
// commit's folders taken from git into a temporary folder, and the string literals of this
// tree's files the comparisons read. Git and tar run without a shell: a `--base` is a name only.
import { readdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { readOptions } from './system'

const ROOT = resolve(import.meta.dir, '..')

/** The commit `ref` names, or an error a person can act on. */
export function commitOf(ref: string): string {
  // After --end-of-options a ref that begins with "-" is a name, never an option.
  const r = Bun.spawnSync(['git', 'rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`], {
    cwd: ROOT,
    stderr: 'pipe',
  })
  if (r.exitCode !== 0)
    throw new Error(`--base ${ref}: not a commit of this repository (${r.stderr.toString().trim()})`)
  return r.stdout.toString().trim()
}

/** The commit's `folders` (src/, bench/) in `dir`, with this tree's node_modules linked beside them. */
export function checkout(commit: string, dir: string, folders: string[]): void {
  const tar = join(dir, 'tree.tar')
  const archive = Bun.spawnSync(['git', 'archive', '--format=tar', '-o', tar, commit, ...folders], {
    cwd: ROOT,
    stderr: 'pipe',
  })
  if (archive.exitCode !== 0) throw new Error(`git archive ${commit}: ${archive.stderr.toString().trim()}`)
  const untar = Bun.spawnSync(['tar', '-xf', tar, '-C', dir], { stderr: 'pipe' })
  if (untar.exitCode !== 0) throw new Error(`tar: ${untar.stderr.toString().trim()}`)
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
}

/** The string literals, unescaped, of the files under `dirs` (.ts, .md), each once, sorted. */
export function literals(dirs: string[]): string[] {
  const found = new Set<string>()
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.(ts|md)$/.test(entry.name))
        for (const m of readFileSync(path, 'utf8').matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`([^`\n]*)`/g))
          found.add((m[1] ?? m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1'))
    }
  }
  for (const dir of dirs) walk(dir)
  return [...found].sort()
}

/** The `--base <commit>` and `--every N` a comparing bench is run with; the base is required. */
export function baseAndEvery(usage: string): { base: string; every: number } {
  let base = ''
  let every = 1
  readOptions(Bun.argv.slice(2), usage, (option, value, int) => {
    if (option === '--base') base = value()
    else if (option === '--every') every = int(1)
    else return false
    return true
  })
  if (base === '') throw new Error(usage)
  return { base, every }
}
