// Commands the benches run on the machine: a command's outcome, Debian packages installed when
// missing (PostgreSQL and PostGIS for the peers, wrk for the HTTP bench), so `npm run bench` needs
// nothing installed by hand on a Debian machine where it runs as root, and what every bench's
// results record of the code and the machine they were measured on; and how a bench reads its
// command line.
import { cpus, platform, release, totalmem } from 'node:os'
import { resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')

export type Spawned = { ok: boolean; out: string }

/** Runs a command to its end (as `asUser` through runuser when given), in the C locale. */
export function run(cmd: string[], asUser: string | null = null): Spawned {
  const full = asUser ? ['runuser', '-u', asUser, '--', ...cmd] : cmd
  const p = Bun.spawnSync(full, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, LC_ALL: 'C' } })
  return { ok: p.exitCode === 0, out: `${p.stdout.toString()}${p.stderr.toString()}`.trim() }
}

/** A command's output's last line that is not blank (what a failure says). */
export const lastLine = (s: string) =>
  s
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-1)[0] ?? s

/**
 * Installs Debian packages with apt-get (without their recommends), running `apt-get update` and
 * trying again when the first try fails. Only as root where apt-get exists. Returns null once
 * installed, else why not.
 */
export function aptInstall(pkgs: string[], log: (line: string) => void): string | null {
  if (process.getuid?.() !== 0) return `not running as root, so apt-get cannot install ${pkgs.join(' ')}`
  if (!Bun.which('apt-get')) return `there is no apt-get here to install ${pkgs.join(' ')} with`
  log(`installing ${pkgs.join(' ')} with apt-get`)
  const t = performance.now()
  const install = () => run(['apt-get', 'install', '-y', '--no-install-recommends', ...pkgs])
  let r = install()
  if (!r.ok) {
    run(['apt-get', 'update'])
    r = install()
  }
  if (!r.ok) return `apt-get install ${pkgs.join(' ')} failed: ${lastLine(r.out)}`
  log(`installed ${pkgs.join(' ')} in ${((performance.now() - t) / 1000).toFixed(1)} s`)
  return null
}

export type Provenance = {
  /** When the bench started (ISO 8601, UTC). */
  date: string
  /** HEAD's commit (`git rev-parse HEAD`), or "unknown" outside a git checkout. */
  commit: string
  /**
   * Whether the working tree differed from HEAD (changed or new files), bench/results/ aside: the
   * suite writes its files there between its steps. null outside a git checkout.
   */
  dirty: boolean | null
  machine: { cpu: string; cores: number; memoryGB: number; os: string }
}

/** The code and the machine a bench measures, taken when it starts. */
export function provenance(started: Date): Provenance {
  const git = (...args: string[]) => Bun.spawnSync(['git', ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  const head = git('rev-parse', 'HEAD')
  const status = git('status', '--porcelain', '--', '.', ':(exclude)bench/results')
  const cpu = cpus()
  return {
    date: started.toISOString(),
    commit: head.exitCode === 0 ? head.stdout.toString().trim() : 'unknown',
    dirty: status.exitCode === 0 ? status.stdout.toString().trim() !== '' : null,
    machine: {
      cpu: cpu[0]?.model ?? 'unknown',
      cores: cpu.length,
      memoryGB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
      os: `${platform()} ${release()}`,
    },
  }
}

/** A report's first line: when, which commit (and whether uncommitted changes were measured), the machine. */
export function provenanceLine(p: Provenance): string {
  const m = p.machine
  const code =
    p.commit === 'unknown'
      ? 'commit unknown'
      : `commit ${p.commit.slice(0, 7)}${p.dirty ? ' with uncommitted changes' : ''}`
  return `${p.date.slice(0, 16).replace('T', ' ')} UTC · ${code} · ${m.cpu}, ${m.cores} cores, ${m.memoryGB} GB · ${m.os}`
}

/**
 * Reads a bench's command line option by option: `take` is given each option with readers of its
 * value and of a whole number of at least `min` (underscores allowed: 100_000), and answers false
 * for an option it does not know. A missing value, a bad number or an unknown option is refused
 * with the usage.
 */
export function readOptions(
  argv: string[],
  usage: string,
  take: (option: string, value: () => string, int: (min: number) => number) => boolean,
): void {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const value = () => {
      const x = argv[++i]
      if (x === undefined) throw new Error(`${a} needs a value\n${usage}`)
      return x
    }
    const int = (min: number) => {
      const raw = value()
      const n = Number(raw.replace(/_/g, ''))
      if (!Number.isInteger(n) || n < min) throw new Error(`${a}: a whole number >= ${min}; got ${JSON.stringify(raw)}`)
      return n
    }
    if (!take(a, value, int)) throw new Error(`unknown option ${a}\n${usage}`)
  }
}
