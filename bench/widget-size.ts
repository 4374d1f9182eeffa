// What widget.js's gzipped bytes go to (`bun bench/widget-size.ts [--top N]`): its size as the
// service sends it (and map.js's, which it loads for a map), and each module's share, the bytes the gzipped bundle loses without it. The
// shares come from a build that keeps its line breaks (which name each module): about a tenth above
// the minified bundle's, and they overlap where modules repeat each other's text.
import { join, resolve } from 'node:path'
import { asset } from '../src/api/pages/assets'
import { widgetTexts } from '../src/api/pages/widget-texts'
import { readOptions } from './system'

const USAGE = 'usage: bun bench/widget-size.ts [--top N]'
let top = 15
readOptions(Bun.argv.slice(2), USAGE, (option, _value, int) => {
  if (option !== '--top') return false
  top = int(1)
  return true
})

const sent = await asset('widget.js')!
console.log(`widget.js: ${sent.gzip.length} B gzipped (budget ${30 * 1024}), ${sent.body.length} B whole`)
const map = await asset('map.js')!
console.log(`map.js, loaded with Leaflet for a map: ${map.gzip.length} B gzipped, ${map.body.length} B whole`)

const built = await Bun.build({
  entrypoints: [join(resolve(import.meta.dir, '..'), 'src/widget/main.ts')],
  minify: { identifiers: true, syntax: true, whitespace: false },
  target: 'browser',
  format: 'iife',
  plugins: [widgetTexts],
})
const text = await built.outputs[0]!.text()
const gzipped = (s: string) => Bun.gzipSync(Buffer.from(s), { level: 12, library: 'libdeflate' }).length
const whole = gzipped(text)
// Bun heads each module's code with a comment naming its file.
const parts = text.split(/(?=^ {2}\/\/ src\/)/m)
const shares = parts.map((part, i) => ({
  module: /^ {2}\/\/ (src\/\S+)/.exec(part)?.[1] ?? '(wrapper)',
  gzip: whole - gzipped(parts.filter((_, j) => j !== i).join('')),
  raw: part.length,
}))
shares.sort((a, b) => b.gzip - a.gzip)
console.log(`\nmodule shares (line-broken build: ${whole} B gzipped)\n   gzip    raw  module`)
for (const s of shares.slice(0, top))
  console.log(`${String(s.gzip).padStart(7)} ${String(s.raw).padStart(6)}  ${s.module}`)
