// Reads the links and heading anchors of a Markdown page, as GitHub renders it, for the docs' link
// check. Code (fenced blocks, inline spans) holds no links and no headings.

/** A link of a page: its target as written, and the line it starts on. */
export type Link = { line: number; target: string }

/** Blanks each fenced block's lines, keeping the line count, so line numbers stay the page's. */
function withoutFences(text: string): string {
  let fence: string | null = null
  return text
    .split('\n')
    .map((line) => {
      const mark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
      if (fence === null && mark) {
        fence = mark
        return ''
      }
      if (fence !== null) {
        if (mark && mark[0] === fence[0] && mark.length >= fence.length && line.trim() === mark) fence = null
        return ''
      }
      return line
    })
    .join('\n')
}

/** Replaces each inline code span (within one paragraph) by `x`, keeping its line breaks. */
function withoutCodeSpans(text: string): string {
  return text.replace(/(?<!`)(`+)(?!`)((?:(?!\n[ \t]*\n)[\s\S])*?)(?<!`)\1(?!`)/g, (_, _ticks, body: string) => {
    return `x${'\n'.repeat(body.split('\n').length - 1)}`
  })
}

/** The 1-based line of `offset` in `text`. */
const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length

/** Every inline link, image and reference definition outside code, in the page's order. */
export function linksOf(page: string): Link[] {
  const text = withoutCodeSpans(withoutFences(page))
  const found: { offset: number; target: string }[] = []
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    found.push({ offset: m.index, target: m[1] as string })
  }
  for (const m of text.matchAll(/^ {0,3}\[[^\]]+\]:[ \t]*<?([^\s>]+)>?/gm)) {
    found.push({ offset: m.index, target: m[1] as string })
  }
  for (const m of text.matchAll(/<a\s[^>]*href="([^"]+)"/g)) {
    found.push({ offset: m.index, target: m[1] as string })
  }
  return found.sort((a, b) => a.offset - b.offset).map(({ offset, target }) => ({ line: lineAt(text, offset), target }))
}

/** A heading's anchor as GitHub makes it: its text in lower case, punctuation but `-` and `_` dropped, spaces as dashes. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')
}

/** Every anchor of a page: its ATX headings' (a repeated one numbered -1, -2, ...) and its `<a id>`/`<a name>`. */
export function anchorsOf(page: string): Set<string> {
  const text = withoutFences(page)
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const m of text.matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm)) {
    const base = slug(m[1] as string)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  for (const m of text.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(m[1] as string)
  return anchors
}
