// storeloc locations import's progress on standard error: plain lines on a pipe, one redrawn line
// on a terminal, and the last state shown when an import ends refused.
import { beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { runWithSlowStderr } from '../slow-stderr'
import { dbPath, file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Importer').locator.id
})

describe('import progress', () => {
  test('--progress shows plain lines on a pipe, and one redrawn line on a terminal', async () => {
    const text =
      'external_id,name,address\nP1,Paris,"1 Rue de Rivoli, 75001 Paris"\nP2,Lyon,"1 Place Bellecour, 69002 Lyon"\n'
    const piped = storeloc('locations', 'import', locatorId, '--file', file('p.csv', text), '--progress', '--dry-run')
    expect(piped.code).toBe(0)
    const lines = piped.stderr.split('\n').filter((l) => l !== '')
    expect(lines[0]).toBe('2 rows read')
    expect(lines.at(-1)).toBe('2 rows read, 2 of 2 addresses looked up, nothing written (dry run)')
    expect(piped.stderr).not.toContain('\r')
    // Without --progress, nothing but progress on standard error: an import past a second prints
    // it, which cliRunner leaves out, as how long a run takes is the machine's.
    expect(storeloc('locations', 'import', locatorId, '--file', file('p.csv', text), '--dry-run').stderr).toBe('')

    let seen = ''
    const decoder = new TextDecoder()
    const proc = Bun.spawn(
      [
        process.execPath,
        join(import.meta.dir, '../../src/cli/main.ts'),
        'locations',
        'import',
        locatorId,
        '--file',
        file('t.csv', text),
        '--progress',
      ],
      {
        env: { ...process.env, DATABASE_PATH: dbPath },
        terminal: { cols: 200, rows: 20, data: (_t, data) => (seen += decoder.decode(data, { stream: true })) },
      },
    )
    expect(await proc.exited).toBe(0)
    expect(seen).toContain('\r2 rows read\x1b[K')
    expect(seen).toContain('\r2 rows read, 2 of 2 addresses looked up, 2 written\x1b[K')
    expect(seen).toContain('2 created, 0 updated, 0 unchanged, 0 deleted.')
  })
  test('a refused import ends its progress on what was done: every address looked up, those not placed counted', () => {
    const text = 'external_id,name,address\nL1,Lost,Qqzx Xyzzy Vvw\nL2,Lost too,Vvw Qqzx Xyzzy\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('l.csv', text), '--progress', '--dry-run')
    expect(r.code).toBe(1)
    const lines = r.stderr.split('\n')
    expect(lines[lines.findIndex((l) => l.startsWith('storeloc:')) - 1]).toBe(
      '2 rows read, 2 of 2 addresses looked up, 2 not placed',
    )
    const one = 'external_id,name,address\nL1,Lost,Qqzx Xyzzy Vvw\n'
    const single = storeloc('locations', 'import', locatorId, '--file', file('o.csv', one), '--progress', '--dry-run')
    expect(single.stderr).toStartWith('1 row read\n1 row read, 1 of 1 address looked up, 1 not placed\nstoreloc:')
  })
  test('a supervisor reading a non-blocking stderr late gets the progress whole and before the refusal', async () => {
    // Refused at once, without geocoding: every line is written while the pipe is full.
    const text = 'external_id,name,address,lat,lng\nL1,North,1 Main St,200,3\nL2,South,2 Main St,-95,3\n'
    const argv = ['locations', 'import', locatorId, '--file', file('n.csv', text), '--progress', '--dry-run']
    const piped = storeloc(...argv)
    expect(piped.stderr).toStartWith('2 rows read\n')
    const late = await runWithSlowStderr([process.execPath, join(import.meta.dir, '../../src/cli/main.ts'), ...argv], {
      env: { ...process.env, DATABASE_PATH: dbPath },
    })
    expect([late.code, late.stderr]).toEqual([1, piped.stderr])
  })
  test('the progress counts the locations written: a row left unchanged is not', () => {
    const text =
      'external_id,name,address,lat,lng\nS1,One,"1 Rue de Rivoli, 75001 Paris",48.8556,2.3581\nS2,Two,"2 Rue de Rivoli, 75004 Paris",48.8557,2.3582\n'
    const first = storeloc('locations', 'import', locatorId, '--file', file('s.csv', text), '--progress')
    expect(
      first.stderr
        .split('\n')
        .filter((l) => l !== '')
        .at(-1),
    ).toBe('2 rows read, 2 written')
    const changed = text.replace('Two', 'Deux')
    const again = storeloc('locations', 'import', locatorId, '--file', file('s.csv', changed), '--progress')
    expect(
      again.stderr
        .split('\n')
        .filter((l) => l !== '')
        .at(-1),
    ).toBe('2 rows read, 1 written')
    expect(again.stdout).toContain('0 created, 1 updated, 1 unchanged, 0 deleted.')
    const same = storeloc('locations', 'import', locatorId, '--file', file('s.csv', changed), '--progress')
    expect(
      same.stderr
        .split('\n')
        .filter((l) => l !== '')
        .at(-1),
    ).toBe('2 rows read, 0 written')
  })
})
