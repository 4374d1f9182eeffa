// The service's entry (`npm start`, `storeloc serve`), and the script each worker runs.
import { serve } from './server/main'

await serve(process.argv.slice(2), import.meta.path)
