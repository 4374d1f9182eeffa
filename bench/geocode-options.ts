// The geocoding bench's command line: its options, their defaults and its usage.
import { join, resolve } from 'node:path'

export const ROOT = join(import.meta.dir, '..')
const REFERENCE_PATH = join(import.meta.dir, 'geocode', 'reference.json')

// ---------------------------------------------------------------- command line

export type Options = { geocoder: 'embedded' | 'none'; out: string; passes: number; data?: string; reference: string }

export class UsageError extends Error {}

export const USAGE = `usage: bun bench/geocode.ts [--geocoder embedded|none] [--out DIR] [--passes N] [--data PATH] [--reference PATH]
  --geocoder   which geocoder to measure (default: embedded)
  --out        where to write geocode.json and geocode.md (default: bench/results)
  --passes     timed passes after the warm-up pass (default: 5)
  --data       geodata file handed to the embedded geocoder (default: its own, data/geocoder.sqlite)
  --reference  reference set (default: bench/geocode/reference.json)`

export function parseArgs(argv: string[]): Options {
  const options: Options = {
    geocoder: 'embedded',
    out: join(ROOT, 'bench', 'results'),
    passes: 5,
    reference: REFERENCE_PATH,
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '-h' || arg === '--help') {
      console.log(USAGE)
      process.exit(0)
    }
    const eq = arg.indexOf('=')
    const name = eq >= 0 ? arg.slice(0, eq) : arg
    const value = (): string => {
      if (eq >= 0) return arg.slice(eq + 1)
      const next = argv[++i]
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${name} needs a value`)
      return next
    }
    switch (name) {
      case '--geocoder': {
        const v = value()
        if (v !== 'embedded' && v !== 'none')
          throw new UsageError(`--geocoder must be embedded or none, not ${JSON.stringify(v)}`)
        options.geocoder = v
        break
      }
      case '--out':
        options.out = resolve(value())
        break
      case '--passes': {
        const v = Number(value())
        if (!Number.isInteger(v) || v < 1 || v > 1000)
          throw new UsageError('--passes must be an integer from 1 to 1000')
        options.passes = v
        break
      }
      case '--data':
        options.data = resolve(value())
        break
      case '--reference':
        options.reference = resolve(value())
        break
      default:
        throw new UsageError(`unknown argument ${JSON.stringify(arg)}`)
    }
  }
  return options
}
