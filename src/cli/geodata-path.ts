// Where a command finds the embedded geocoder's data with GEODATA_PATH left out (cron, a shell
// elsewhere than the service's folder): the default is under the command's folder, while the
// service's data is most likely beside its database (the systemd unit and the image put it there).
import { lstatSync, readlinkSync, realpathSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type { Config } from '../core/config'
import { createGeocoder, type GeocoderStack } from '../geocode'
import { GEODATA_VERSION } from '../geocode/embedded/build'
import { geodataVersion } from '../geocode/embedded/ensure'
import type { Store } from '../store'
import { realPathIfThere } from '../store/read-open'

/**
 * The geocoder's data file beside the database at `databasePath`, whole (a service reads a
 * relative GEODATA_PATH under its own folder, not this command's); null when GEODATA_PATH is set,
 * or for a database in memory, which has no folder. A database reached through symbolic links has
 * a folder at each: its real file's (a shortcut to the service's folder), or a link's (the
 * service's own DATABASE_PATH linked to another disk). The first of them, real file first, that
 * holds data of this version, else any data, else the real file's.
 */
export function besideDatabase(databasePath: string): string | null {
  if (process.env.GEODATA_PATH || databasePath === ':memory:') return null
  const files = linkedFiles(databasePath).map((file) => join(dirname(file), 'geocoder.sqlite'))
  const beside = [...new Set(files.reverse())]
  return (
    beside.find((file) => geodataVersion(file) === GEODATA_VERSION) ??
    beside.find((file) => geodataVersion(file) !== null) ??
    beside[0]!
  )
}

/** `path` whole, then each link it leads through, then its real file (where it names one). */
function linkedFiles(path: string): string[] {
  const files = [resolve(path)]
  for (let hops = 0; hops < 40; hops++) {
    const file = files.at(-1)!
    let target: string
    try {
      if (!lstatSync(file).isSymbolicLink()) break
      target = readlinkSync(file)
    } catch {
      break // a link to nothing: its folders so far
    }
    files.push(resolve(realPathIfThere(dirname(file)), target)) // a relative target is read from the link's real folder
  }
  try {
    files.push(realpathSync.native(path)) // a `..` after a link read as the system reads it
  } catch {
    // a dangling link or no file yet: the paths it names
  }
  return files
}

/**
 * The data file a command reads: GEODATA_PATH's, else the default; but where the default holds no
 * data of this version and the file beside the database does, that one, said with `say` in one
 * line: a usable copy is read, never a second one built under this folder.
 */
export function geodataOf(config: Config, say: (line: string) => void): string {
  const path = config.geocoder.dataPath
  const beside = besideDatabase(config.databasePath)
  if (beside === null || geodataVersion(path) === GEODATA_VERSION || geodataVersion(beside) !== GEODATA_VERSION)
    return path
  say(
    `GEODATA_PATH is not set and ${path} under ${process.cwd()} holds no geocoder data of this version: reading the database's folder's, ${beside}.`,
  )
  return beside
}

/** The configured geocoder of a command, its data found by geodataOf; what it says (a build's steps) on standard error. */
export function cliGeocoder(config: Config, store: Store): Promise<GeocoderStack> {
  const say = (line: string) => console.error(line)
  if (config.geocoder.provider === 'none') return createGeocoder(config.geocoder, store, say)
  return createGeocoder({ ...config.geocoder, dataPath: geodataOf(config, say) }, store, say)
}
