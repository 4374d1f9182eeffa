// Geocoding benchmark: geocodes every address of bench/geocode/reference.json and reports, per
// country and overall, how many resolve, how far off they land (great-circle km), how many land in
// the wrong country, at which precision, and how long one lookup takes.
//
//   bun bench/geocode.ts [--geocoder embedded|none] [--out bench/results] [--passes 5] [--data path]
//
// Writes <out>/geocode.json (everything, machine-readable) and <out>/geocode.md (tables ready for
// a README) and prints the markdown. See bench/geocode/README.md.
//
// The code, by job: geocode-options.ts (the command line), geocode-measure.ts (the reference set,
// the geocoder, the passes) and geocode-report.ts (the statistics, geocode.json and geocode.md).
import { BenchError, loadReference, openGeocoder, run } from './geocode-measure'
import { parseArgs, USAGE, UsageError } from './geocode-options'
import { writeReport } from './geocode-report'

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2))
  const refs = loadReference(options.reference)
  const opened = await openGeocoder(options)
  let measured: Awaited<ReturnType<typeof run>>
  try {
    process.stderr.write(
      `geocode bench: ${refs.length} addresses, geocoder ${opened.geocoder.name}, 1 warm-up + ${options.passes} timed passes\n`,
    )
    measured = await run(opened.geocoder, refs, options.passes)
  } finally {
    opened.close()
  }
  writeReport(options, refs, opened, measured)
}

if (import.meta.main) {
  main().catch((e: unknown) => {
    if (e instanceof UsageError) {
      console.error(`geocode bench: ${e.message}\n${USAGE}`)
      process.exit(2)
    }
    console.error(
      `geocode bench: ${e instanceof BenchError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
    )
    process.exit(1)
  })
}
