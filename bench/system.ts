// Commands the benches run on the machine: a command's outcome, and Debian packages installed when
// missing (PostgreSQL and PostGIS for the peers, wrk for the HTTP bench), so `npm run bench` needs
// nothing installed by hand on a Debian machine where it runs as root.

export type Spawned = { ok: boolean; out: string }

/** Runs a command to its end (as `asUser` through runuser when given), in the C locale. */
export function run(cmd: string[], asUser: string | null = null): Spawned {
  const full = asUser ? ['runuser', '-u', asUser, '--', ...cmd] : cmd
  const p = Bun.spawnSync(full, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, LC_ALL: 'C' } })
  return { ok: p.exitCode === 0, out: `${p.stdout.toString()}${p.stderr.toString()}`.trim() }
}

/** A command's output's last line that is not blank (what a failure says). */
export const lastLine = (s: string) => s.split('\n').filter((l) => l.trim() !== '').slice(-1)[0] ?? s

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
