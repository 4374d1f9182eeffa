// The temporary files a build of the geocoder's data writes beside its path, named by the process
// that writes them, and their removal once that process is gone: a start killed midway (a
// deploy, an OOM kill) leaves them, and each is as large as the data.
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

/** The file this process builds the data at `outPath` in, renamed to `outPath` once whole. */
export const buildFile = (outPath: string): string => `${outPath}.${process.pid}.tmp`

/**
 * Removes what builds stopped midway left beside `outPath`: their temporary files and journals,
 * by a process no longer running (or this one). A folder that is not there holds none.
 */
export function removeStaleBuilds(outPath: string): void {
  const dir = dirname(outPath)
  const name = basename(outPath)
  if (!existsSync(dir)) return
  for (const entry of readdirSync(dir)) {
    const pid = entry.startsWith(`${name}.`)
      ? /^(\d+)\.tmp(-journal)?$/.exec(entry.slice(name.length + 1))?.[1]
      : undefined
    if (pid !== undefined && (Number(pid) === process.pid || !running(Number(pid))))
      rmSync(join(dir, entry), { force: true })
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM' // someone else's: running
  }
}
