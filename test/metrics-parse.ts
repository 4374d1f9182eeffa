// A parser of Prometheus's text format (0.0.4), strict where Prometheus is, and a reader of one
// sample: what the metrics tests check a scrape with.
export type Sample = { name: string; labels: Record<string, string>; value: number }
export type ParsedFamily = { type: string; help: string; samples: Sample[] }

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/

/** `{a="x",b="y\"z"}` from `text[at]` ("{"): the labels and where they end. */
function readLabels(text: string, at: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {}
  let i = at + 1
  while (text[i] !== '}') {
    const eq = text.indexOf('=', i)
    const name = text.slice(i, eq)
    if (!LABEL_NAME.test(name)) throw new Error(`bad label name ${JSON.stringify(name)}`)
    if (text[eq + 1] !== '"') throw new Error('label value not quoted')
    let value = ''
    for (i = eq + 2; text[i] !== '"'; i++) {
      if (i >= text.length) throw new Error('unterminated label value')
      if (text[i] !== '\\') value += text[i]
      else {
        const next = text[++i]
        if (next === 'n') value += '\n'
        else if (next === '\\' || next === '"') value += next
        else throw new Error(`bad escape \\${next}`)
      }
    }
    if (name in labels) throw new Error(`label ${name} twice`)
    labels[name] = value
    i++
    if (text[i] === ',') i++
  }
  return { labels, end: i + 1 }
}

/** The families of an exposition, by name; throws on anything Prometheus would refuse. */
export function parseExposition(text: string): Map<string, ParsedFamily> {
  if (!text.endsWith('\n')) throw new Error('the last line must end with a line feed')
  const families = new Map<string, ParsedFamily>()
  let current: { name: string; family: ParsedFamily } | null = null
  for (const line of text.slice(0, -1).split('\n')) {
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line)
    if (meta) {
      const [, kind, name, rest] = meta
      if (!NAME.test(name!)) throw new Error(`bad metric name ${name}`)
      let family = families.get(name!)
      if (family === undefined) {
        family = { type: 'untyped', help: '', samples: [] }
        families.set(name!, family)
      } else if (current?.name !== name) throw new Error(`${name} declared apart from its samples`)
      if (kind === 'TYPE') {
        if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(rest!))
          throw new Error(`bad type ${rest}`)
        if (family.samples.length > 0) throw new Error(`TYPE of ${name} after its samples`)
        family.type = rest!
      } else family.help = rest!
      current = { name: name!, family }
      continue
    }
    if (line.startsWith('#') || line === '') continue
    const brace = line.indexOf('{')
    const space = line.indexOf(' ')
    const nameEnd = brace !== -1 && brace < space ? brace : space
    const name = line.slice(0, nameEnd)
    let labels: Record<string, string> = {}
    let rest = line.slice(nameEnd)
    if (line[nameEnd] === '{') {
      const read = readLabels(line, nameEnd)
      labels = read.labels
      rest = line.slice(read.end)
    }
    const value = rest.trim()
    if (!/^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]Inf|NaN)$/.test(value)) throw new Error(`bad value ${value}`)
    if (current === null) throw new Error(`sample ${name} before any TYPE`)
    const base = current.family.type === 'histogram' ? name.replace(/_(bucket|sum|count)$/, '') : name
    if (base !== current.name) throw new Error(`sample ${name} within family ${current.name}`)
    current.family.samples.push({ name, labels, value: Number(value.replace('Inf', 'Infinity')) })
  }
  return families
}

/** The value of the one sample of `name` whose labels include `labels`; 0 when there is none. */
export function sampleValue(
  families: Map<string, ParsedFamily>,
  family: string,
  labels: Record<string, string> = {},
  name = family,
) {
  const found = families
    .get(family)
    ?.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
  if (found === undefined || found.length === 0) return 0
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`)
  return found[0]!.value
}
