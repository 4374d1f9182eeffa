// examples/sync.ts's command line and environment, checked before anything is read: what the sync
// is asked to do, and the client it does it with. A wrong one exits 2, saying what to give.
import { StorelocClient } from 'storeloc/client'
import { writeStderr } from '../src/core/write-whole'
import { CHUNK } from './sync-parts'
import { countingFetch } from './sync-tries'

/** What the sync is asked to do, and the client it asks the service with. */
export type Command = {
  file: string
  dryRun: boolean
  /** --max-delete: the most stores to delete; null when not given. */
  maxDelete: number | null
  /** --encoding: a CSV file's, null for UTF-8. */
  encoding: string | null
  /** The most rows a request sends (STORELOC_SYNC_CHUNK). */
  size: number
  client: StorelocClient
}

const USAGE =
  'usage: STORELOC_URL=... STORELOC_KEY=sk_... bun examples/sync.ts FILE.csv|FILE.tsv|FILE.json [--dry-run] [--max-delete N] [--encoding NAME]'

/** What --help prints: the usage, the options, the environment's variables and the exit codes, as the script's head says them. */
const HELP = `${USAGE}

Mirrors the store list FILE into the locator STORELOC_KEY writes: creates, updates and deletes
stores, matched by their store code (external_id).

  --dry-run        check the whole list and say what would change, writing nothing
  --max-delete N   refuse, writing nothing, when more than N stores would be deleted
  --encoding NAME  a CSV file's encoding when it is not UTF-8, such as windows-1252

Environment:
  STORELOC_URL           the service's address, such as http://127.0.0.1:3000 (or its /admin/v1)
  STORELOC_KEY           a secret key (sk_...) of the locator to write
  STORELOC_SYNC_CHUNK    the most rows, or deletes, a request sends: 1 to ${CHUNK} (${CHUNK} when not set)
  STORELOC_STARTUP_WAIT  seconds to wait for a service that is starting (120 when not set, 0: none)

Exit 0 in step, 1 when the list has problems or the service cannot be used (nothing written),
2 for a wrong command line, 3 when it failed while writing (run it again) or when another write
changed the locator while it ran: up to a store's delete, the list is written and no store it
lacks deleted but those it names; in its look once its writes and deletes are done, the list is
written but the locator not in step with it. Run it again once that write is done.
130 on Ctrl-C, 143 on SIGTERM.`

/**
 * A line of progress or a notice on standard error, plain (Bun's console.error draws its lines red
 * on a terminal) and in order with console.error's lines: a slow reader delays it, and a reader
 * gone loses it, but neither stops the sync.
 */
export const progress = (line: string) => writeStderr(`${line}\n`)

export function usage(message: string): never {
  console.error(`${message}\n${USAGE}`)
  process.exit(2)
}

/** `--name N` or `--name=N`, once: its value (null when not given) and the places of the arguments it takes. */
function valueOf(args: string[], name: string): { value: string | null; at: number[] } {
  const places = args.flatMap((a, i) => (a === name || a.startsWith(`${name}=`) ? [i] : []))
  if (places.length > 1) usage(`Give ${name} once.`)
  const at = places[0]
  if (at === undefined) return { value: null, at: [] }
  const arg = args[at]!
  return arg === name ? { value: args[at + 1] ?? '', at: [at, at + 1] } : { value: arg.slice(name.length + 1), at: [at] }
}

/**
 * A host (a name, "_" in it as a docker service's, an IPv4 or a bracketed IPv6 address), an
 * optional port, then a path or nothing.
 */
const HOST_FIRST =
  /^(?<host>\[[\da-f:.]+\]|[a-z\d]([\w-]*[a-z\d])?(\.[a-z\d]([\w-]*[a-z\d])?)*)(?<port>:\d{1,5})?(\/(?!\/)|$)/i

/**
 * Whether `address` is a host typed without its scheme. A scheme's name ("http:3000") is no host,
 * nor a name with "_" but no port ("sk_live_abc", a pasted key).
 */
function hostFirst(address: string): boolean {
  const { host, port } = HOST_FIRST.exec(address)?.groups ?? {}
  if (host === undefined || /^https?$/i.test(host)) return false
  return (port !== undefined || !host.includes('_')) && URL.canParse(`http://${address}`)
}

/** The command line `args` and the environment as the sync reads them: usage() for a wrong one. */
export function commandLine(args: string[]): Command {
  const limit = valueOf(args, '--max-delete')
  const encoding = valueOf(args, '--encoding')
  const taken = [...limit.at, ...encoding.at]
  // An option's value (`--max-delete --help`) is no request for help, as the CLI reads it.
  if (args.some((a, i) => (a === '--help' || a === '-h') && !taken.includes(i))) {
    console.log(HELP)
    process.exit(0)
  }
  const dryRun = args.includes('--dry-run')
  if (limit.value !== null && !/^\d+$/.test(limit.value)) usage('--max-delete takes a whole number: the most stores to delete.')
  const maxDelete = limit.value === null ? null : Number(limit.value)
  // A blank name is none (UTF-8), as the CLI reads it; the option with nothing after it is a slip.
  if (encoding.at.length === 2 && args[encoding.at[1]!] === undefined)
    usage('--encoding takes the name of an encoding, such as windows-1252.')
  const files = args.filter((a, i) => a !== '--dry-run' && !taken.includes(i))
  const option = files.find((a) => a.startsWith('-'))
  if (option !== undefined)
    usage(`Unknown option ${option}: the options are --dry-run, --max-delete N and --encoding NAME.`)
  if (files.length !== 1) usage('Give one file.')
  const baseUrl = process.env.STORELOC_URL
  const apiKey = process.env.STORELOC_KEY
  if (!baseUrl || !apiKey) usage('Set STORELOC_URL and STORELOC_KEY.')
  if (!/^https?:\/\/[^/]/i.test(baseUrl) || !URL.canParse(baseUrl)) {
    // A host and port typed without the scheme ("127.0.0.1:3000"): give it back with one. A scheme
    // mistyped ("http:/host", "http//host"), a path alone or a pasted key is no host.
    const bare = hostFirst(baseUrl.trim())
    usage(
      `STORELOC_URL must be the service's address, such as http://127.0.0.1:3000; got ${JSON.stringify(baseUrl)}${bare ? `: give "http://${baseUrl.trim()}"` : ''}.`,
    )
  }
  // The public token is the one a newcomer has at hand (the finder's address shows it), but it only reads.
  if (apiKey.startsWith('pk_'))
    usage(
      'STORELOC_KEY holds a public token (pk_...): the sync writes, so it needs a secret key (sk_...). `storeloc key create LOCATOR_ID` makes one.',
    )
  const chunkSize = process.env.STORELOC_SYNC_CHUNK ?? String(CHUNK)
  if (!/^\d+$/.test(chunkSize) || Number(chunkSize) < 1 || Number(chunkSize) > CHUNK)
    usage(`STORELOC_SYNC_CHUNK takes the most rows a request sends, 1 to ${CHUNK} (${CHUNK} when not set); got ${JSON.stringify(chunkSize)}.`)
  const startupWait = process.env.STORELOC_STARTUP_WAIT ?? '120'
  if (!/^\d+$/.test(startupWait))
    usage(
      `STORELOC_STARTUP_WAIT takes a whole number of seconds: how long to wait for a service that is starting (120 when not set); got ${JSON.stringify(startupWait)}.`,
    )
  // A first start builds the geocoder's data (15 s to a minute or more): the client waits for it,
  // and the wait is said once, not once a try.
  // The client's rule reads the address (the Management API's is the service's; a route's, a query
  // or a password is refused): its refusal is said by the variable's name.
  let client: StorelocClient
  try {
    client = new StorelocClient({
      baseUrl,
      apiKey,
      startupWaitMs: Number(startupWait) * 1000,
      // A refusal after several tries of a write may follow one that made it (sync-tries.ts).
      fetch: countingFetch,
      onStarting: ({ startupWaitMs }) =>
        progress(`sync: the service is starting, waiting up to ${startupWaitMs / 1000} s for it...`),
    })
  } catch (e) {
    const said = (e as Error).message.replace(/^StorelocClient: (baseUrl|apiKey)/, (_, option) =>
      option === 'baseUrl' ? 'STORELOC_URL' : 'STORELOC_KEY',
    )
    usage(said)
  }
  return { file: files[0]!, dryRun, maxDelete, encoding: encoding.value?.trim() || null, size: Number(chunkSize), client }
}
