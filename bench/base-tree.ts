// What the benches that compare with a base commit share: the commit a `--base` names, that
// commit's folders taken from git into a temporary folder, and the string literals of this
// tree's files the comparisons read. Git and tar run without a shell: a `--base` is a name only.
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
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

/**
 * This tree as "tree" and, with `base`, that commit's src/ in a temporary folder named by `prefix`,
 * first and named by its short hash: `use` reads them as [name, root], then the folder goes.
 */
export async function withTrees(
  base: string,
  prefix: string,
  use: (trees: [name: string, root: string][]) => Promise<void> | void,
): Promise<void> {
  const dir = base === '' ? '' : mkdtempSync(join(tmpdir(), prefix))
  try {
    const trees: [string, string][] = [['tree', ROOT]]
    if (base !== '') {
      const commit = commitOf(base)
      checkout(commit, dir, ['src'])
      trees.unshift([commit.slice(0, 8), dir])
    }
    await use(trees)
  } finally {
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * `runs` rounds of `command(root)` once for each tree in turn, a process apiece so that no run
 * warms another: each run's stdout as words, by tree.
 */
export function alternated(trees: [string, string][], runs: number, command: (root: string) => string[]): string[][][] {
  const said = trees.map((): string[][] => [])
  for (let r = 0; r < runs; r++)
    for (const [t, [, root]] of trees.entries()) {
      const args = command(root)
      const p = Bun.spawnSync(args, { stderr: 'inherit' })
      if (p.exitCode !== 0) throw new Error(`${args.join(' ')} exited ${p.exitCode}`)
      said[t]!.push(p.stdout.toString().trim().split(' '))
    }
  return said
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
