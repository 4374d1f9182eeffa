// Every relative link of README.md, docs/ and the folders' READMEs leads somewhere: its file is
// in the repository, and its #anchor is a heading (or an <a id>) of that file, spelt as GitHub
// spells heading anchors.
import { describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { anchorsOf, linksOf } from './docs-links'

const ROOT = join(import.meta.dir, '..')

/** Every file under `dir`, with its path. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  )
}

/** The pages people read: README.md, docs/, and the READMEs of the folders beside src/ (not bench's results). */
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...['bench', 'data', 'deploy', 'examples']
    .filter((dir) => existsSync(join(ROOT, dir)))
    .flatMap((dir) => filesUnder(join(ROOT, dir)))
    .map((file) => relative(ROOT, file))
    .filter((file) => file.endsWith('README.md') && !file.startsWith('bench/results/')),
]

/** Each Markdown file's anchors, read once. */
const anchorCache = new Map<string, Set<string>>()
function anchors(file: string): Set<string> {
  let found = anchorCache.get(file)
  if (!found) {
    found = anchorsOf(readFileSync(file, 'utf8'))
    anchorCache.set(file, found)
  }
  return found
}

/** What is wrong with one link of `page`, or null when it resolves. */
function fault(page: string, target: string): string | null {
  const hash = target.indexOf('#')
  const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash))
  const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1))
  const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path)
  if (!file.startsWith(ROOT)) return `${target}: leaves the repository`
  if (!existsSync(file)) return `${target}: no file ${relative(ROOT, file)}`
  if (anchor === null || statSync(file).isDirectory()) return null
  if (!file.endsWith('.md')) return /^L\d+(-L\d+)?$/.test(anchor) ? null : `${target}: not a line anchor`
  return anchors(file).has(anchor) ? null : `${target}: no heading #${anchor} in ${relative(ROOT, file)}`
}

describe('the links of the docs', () => {
  for (const page of PAGES) {
    test(`${page}: every relative link and #anchor resolves`, () => {
      const text = readFileSync(join(ROOT, page), 'utf8')
      const broken = linksOf(text)
        .filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
        .map(({ line, target }) => {
          const why = fault(page, target)
          return why === null ? null : `${page}:${line}: ${why}`
        })
        .filter((why) => why !== null)
      expect(broken).toEqual([])
    })
  }
})

describe("the service's texts", () => {
  test('name sections the docs have: "docs/FILE.md, Heading" is a heading of that file', () => {
    const named: string[] = []
    const broken: string[] = []
    for (const file of [...filesUnder(join(ROOT, 'src')), join(ROOT, 'examples', 'sync.ts')]) {
      if (!file.endsWith('.ts')) continue
      for (const m of readFileSync(file, 'utf8').matchAll(/docs\/([a-z-]+\.md), ([A-Z][^).\n]*)/g)) {
        const [, page, heading] = m as unknown as [string, string, string]
        const wanted = [...anchorsOf(`# ${heading}`)][0] as string
        named.push(`${page}#${wanted}`)
        if (!existsSync(join(ROOT, 'docs', page)) || !anchors(join(ROOT, 'docs', page)).has(wanted))
          broken.push(`${relative(ROOT, file)}: docs/${page}, ${heading}`)
      }
    }
    expect(named.length).toBeGreaterThan(0)
    expect(broken).toEqual([])
  })
})

describe('the link reader', () => {
  test('spells anchors as GitHub does: lower case, punctuation dropped, spaces as dashes, repeats numbered', () => {
    const page = [
      '# The `storeloc` command line',
      '## Backup, restore and doctor',
      '## POST /locations/bulk: many at once',
      "## The pages' language",
      '## Options',
      '## Options',
      '```',
      '## Not a heading',
      '```',
      '<a id="kept"></a>',
    ].join('\n')
    expect([...anchorsOf(page)]).toEqual([
      'the-storeloc-command-line',
      'backup-restore-and-doctor',
      'post-locationsbulk-many-at-once',
      'the-pages-language',
      'options',
      'options-1',
      'kept',
    ])
  })

  test('reads inline and reference links with their lines, not those in code', () => {
    const page = [
      'See [a](cli.md#keys) and [b](../src/x.ts "title").',
      '`[not](a-link.md)` and',
      '```sh',
      '[nor](this.md)',
      '```',
      '[ref]: operations.md#backups',
      '![image](shot.png)',
    ].join('\n')
    expect(linksOf(page)).toEqual([
      { line: 1, target: 'cli.md#keys' },
      { line: 1, target: '../src/x.ts' },
      { line: 6, target: 'operations.md#backups' },
      { line: 7, target: 'shot.png' },
    ])
  })
})
