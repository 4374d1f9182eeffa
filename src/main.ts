// Entry point: reads the settings and starts this process in its role. WORKERS=1 (the default):
// one process does everything (src/server/single.ts). WORKERS=N > 1: a primary and N workers,
// each this file again (src/server/workers.ts).
import { readConfig } from './server/options'
import { StartError } from './server/listen'
import { runSingle } from './server/single'
import { runPrimary, runWorker } from './server/workers'

async function main(): Promise<void> {
  const config = readConfig()
  try {
    if (config.worker) return await runWorker(config)
    if (config.workers > 1) return await runPrimary(config, import.meta.path)
    return await runSingle(config)
  } catch (e) {
    if (!(e instanceof StartError)) throw e
    console.error(e.message)
    process.exit(1)
  }
}

await main()
