// `storeloc <command>`: `serve` starts the service; every other command is the operator's CLI.
import { cli } from './cli/main'
import { serve } from './server/main'

const [command, ...rest] = process.argv.slice(2)
if (command === 'serve') await serve(rest, new URL('./main.ts', import.meta.url).pathname)
else process.exit(await cli(process.argv.slice(2), process.env))
