// A database path with a `..` after a folder that is not there (./new/../y.db): the file is made
// where the `..` leads, and the folder, which would hold nothing, is not made, whether the
// command succeeds or fails.
import { expect, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { dir, shellEnv, useTempDatabase } from './temp-database'

useTempDatabase()

const root = join(import.meta.dir, '..', '..')
/** The CLI typed in the test's folder. */
const storeloc = (...argv: string[]) => {
  const p = Bun.spawnSync([process.execPath, join(root, 'src/storeloc.ts'), ...argv], { cwd: dir, env: shellEnv() })
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() }
}
const inDir = () => readdirSync(dir).sort()

test('--database ./new/../y.db makes y.db here and no folder new, after a success or a failure', () => {
  const made = storeloc('--database', './new/../y.db', 'locator', 'create', '--name', 'Shop')
  expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: '' })
  expect(inDir()).toEqual(['y.db'])
  const listed = storeloc('--database', './new/../y.db', 'locator', 'list', '--json')
  expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: '' })
  expect(JSON.parse(listed.stdout).map((l: { name: string }) => l.name)).toEqual(['Shop'])

  const refused = storeloc('--database', './new/../z.db', 'locator', 'create', '--name', '')
  expect(refused.code).toBe(2)
  expect(inDir()).toEqual(['y.db'])

  const saved = storeloc('--database', './new/../y.db', 'backup', 'y-copy.db')
  expect({ code: saved.code, stderr: saved.stderr }).toEqual({ code: 0, stderr: '' })
  const restored = storeloc('--database', './new/../sub/../r.db', 'restore', 'y-copy.db')
  expect({ code: restored.code, stderr: restored.stderr }).toEqual({ code: 0, stderr: '' })
  expect(inDir()).toEqual(['r.db', 'y-copy.db', 'y.db'])
})

test('serve --database ./new/../s.db makes s.db here and no folder new', async () => {
  const server = Bun.spawn([process.execPath, join(root, 'src/storeloc.ts'), '--database', './new/../s.db', 'serve'], {
    cwd: dir,
    env: { ...shellEnv(), PORT: '0', DEMO: '0' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  try {
    for (let tries = 0; tries < 300 && !existsSync(join(dir, 's.db')); tries++) await Bun.sleep(100)
  } finally {
    server.kill()
    await server.exited
  }
  expect(inDir()).toEqual(['s.db'])
}, 60_000)

test('GEODATA_PATH=./new/../g.sqlite builds the data here and makes no folder new', async () => {
  const server = Bun.spawn([process.execPath, join(root, 'src/storeloc.ts'), 'serve', '--database', 's.db'], {
    cwd: dir,
    env: { ...shellEnv(), GEOCODER: 'embedded', GEODATA_PATH: './new/../g.sqlite', PORT: '0', DEMO: '0' },
    stdout: 'ignore',
    stderr: 'ignore',
  })
  try {
    // Stopped once its build writes its file, its folder made first.
    for (let tries = 0; tries < 600 && !inDir().some((f) => f.startsWith('g.sqlite')); tries++) await Bun.sleep(50)
  } finally {
    server.kill('SIGKILL')
    await server.exited
  }
  const made = inDir()
  expect({ made, building: made.some((f) => f.startsWith('g.sqlite')) }).toEqual({ made, building: true })
  expect(made).not.toContain('new')
}, 60_000)
