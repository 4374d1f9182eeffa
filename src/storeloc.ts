// `storeloc <command>`: `serve` starts the service; every other command is the operator's CLI.
// `--database FILE` may stand before either: for serve it is serve's own --database (DATABASE_PATH).
import { cli } from './cli/main'
import { commandFirst, servePaths } from './cli/paths'
import { serve } from './server/main'

const [command, ...rest] = commandFirst(process.argv.slice(2))
if (command === 'serve') await serve(servePaths(rest, process.env), new URL('./main.ts', import.meta.url).pathname)
else process.exit(await cli(process.argv.slice(2), process.env))
