// Preloaded before every test file (bunfig.toml): the embedded geocoder's data is built once here,
// as the first start of the server would, so no test pays for it inside its own time limit.
import { afterAll } from 'bun:test'
import { DEFAULT_GEODATA_PATH, ensureGeodata } from '../src/geocode/embedded'
import { stopRunning } from './started'

// The build's first line names an idle machine's time; a test run loads the machine. Measured on
// 2 cores: 16 s at load 3, 68 to 75 s at load 21, 221 s with three CPU burners besides.
const PREPARING = `Preparing the offline geocoder data in ${DEFAULT_GEODATA_PATH} before the tests, once: 15 s on an idle machine, minutes on a loaded one...`
await ensureGeodata(DEFAULT_GEODATA_PATH, (line) =>
  console.error(line.startsWith('Preparing the offline geocoder data') ? PREPARING : line),
)

// After the last file: a server a failed test left running is stopped, not left to outlive the run.
afterAll(stopRunning)
