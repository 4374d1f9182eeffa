// Preloaded before every test file (bunfig.toml): the embedded geocoder's data is built once here,
// as the first start of the server would, so no test pays for it inside its own time limit.
import { afterAll } from 'bun:test'
import { DEFAULT_GEODATA_PATH, ensureGeodata } from '../src/geocode/embedded'
import { stopRunning } from './started'

await ensureGeodata(DEFAULT_GEODATA_PATH, (line) => console.error(line))

// After the last file: a server a failed test left running is stopped, not left to outlive the run.
afterAll(stopRunning)
