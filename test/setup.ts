// Preloaded before every test file (bunfig.toml): the embedded geocoder's data is built once here,
// as the first start of the server would, so no test pays for it inside its own time limit.
import { DEFAULT_GEODATA_PATH, ensureGeodata } from '../src/geocode/embedded'

await ensureGeodata(DEFAULT_GEODATA_PATH, (line) => console.error(line))
