// The service's entry (`npm start`, `storeloc serve`), and the script each worker runs.
import { serve } from './server/main'

// `npm start -- serve --port 4000` is what `storeloc serve --port 4000` reads as, written here.
const args = process.argv.slice(2)
await serve(args[0] === 'serve' ? args.slice(1) : args, import.meta.path)
