// examples/sync.ts run every day on one list: a postcode given back its leading zero is said of
// the rows it writes, and of the rows left unchanged once, with their count.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { syncServer } from './sync-server'

const ROOT = join(import.meta.dir, '..', '..')
const served = syncServer()

function sync(text: string) {
  const file = join(served.dir, 'stores.csv')
  writeFileSync(file, text)
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), file], {
    cwd: ROOT,
    env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: served.key },
  })
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() }
}

test('a postcode given back its leading zero is said of rows written, and counted once for rows unchanged', () => {
  const list = (name: string) =>
    'Store Code,Name,Straße,PLZ,Ort,Land,lat,lng\n' +
    `Z1,${name},Markt 1,4109,Leipzig,DE,51.3397,12.3731\nZ2,Leipzig 2,Markt 2,4109,Leipzig,DE,51.3398,12.3732\n`
  const note = 'The postcode 4109 was read as 04109: Excel drops leading zeros; format the "PLZ" column as text.'
  const first = sync(list('Leipzig 1'))
  expect(first.stderr).toBe('')
  expect(first.stdout).toContain(`check line 2: ${note}`)
  expect(first.stdout).toContain(`check line 3: ${note}`)
  const again = sync(list('Leipzig Markt'))
  expect(again.stdout).toContain(
    '1 unchanged row (line 3) carries the same postcode warning as before: its postcode lost its leading zero in Excel and was read with it, as stored. Format the "PLZ" column as text to stop this warning.',
  )
  expect(again.stdout).toContain(`check line 2: ${note}`)
  expect(again.stdout).not.toContain(`check line 3`)
}, 30_000)
