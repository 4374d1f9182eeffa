// HTTP benchmark: the real service (`bun src/main.ts`) under wrk on loopback, against a bare
// `Bun.serve` returning a static body of the same size, in the same run; plus sustained
// Management-API creates with synchronous=FULL, and the WORKERS=N gain when the build has it.
//
//   bun bench/http.ts [--size 100000] [--seed 42] [--runs 3] [--duration 10] [--slices 5] [--warmup 2]
//                     [--connections 50] [--workers 1,2] [--paths 400000] [--sample 2000] [--types radius_typical]
//                     [--write-connections 16] [--write-duration <duration>] [--no-writes]
//                     [--json path] [--entry src/main.ts] [--quick]
//   bun bench/http.ts --render <json>   (the report of a --json file, written again by this code)
//
// --quick: 10,000 locations, 1 run, 3 s per measurement, 1 s warm-up, 200,000 paths, 500 sampled (options given
// explicitly still win). Needs wrk (`apt-get install -y wrk`, run here as root when missing) and
// taskset (util-linux), 2+ cores; without them it prints "HTTP: skipped (<reason>)" and succeeds.
//
// The code, by job, in bench/http/: options.ts (options, the cores), processes.ts (children, /proc
// counters, cleanup), servers.ts (the service, the bare servers, the stand-ins), wrk.ts (the load
// generator), run.ts (the benchmark's steps), record.ts (what --json writes) and report.ts (the
// markdown). See bench/README.md, "HTTP benchmark".
import { parseArgs } from './http/options'
import { runCleanly } from './http/processes'
import { render } from './http/report'
import { log, runHttp } from './http/run'

async function main(): Promise<void> {
  const o = parseArgs(Bun.argv.slice(2))
  if (o.render) {
    console.log(render(o.render))
    return
  }
  await runHttp(o)
}

await runCleanly(main, log)
