// The service's entry (`npm start`, `storeloc serve`), and the script each worker runs.
import { serveTyped } from './server/main'

await serveTyped(process.argv.slice(2), import.meta.path)
