// The look of the service's own pages (store pages, the directory, their 404 and error pages):
// all their style, in each page, and the short page that says what is not there or went wrong.
import type { Lang } from '../../core/languages'
import { escapeHtml as esc, htmlResponse } from './html'

/**
 * The layout of the service's own pages (store pages, the directory, their 404 and error pages),
 * all of their style: they load no stylesheet, so nothing holds their first paint. Colours keep
 * 4.5:1 or more against their backgrounds. A word wider than the screen (an e-mail address, a
 * URL, a compound name) breaks where it must: a phone never scrolls sideways.
 */
export const PAGE_STYLE =
  '.slp-page{margin:0;font:16px/1.5 system-ui,sans-serif;color:var(--sl-text,#1f2328);background:var(--sl-bg,#fff);overflow-wrap:anywhere}' +
  '.slp-nav,.slp-main{max-width:48rem;margin:0 auto;padding:1rem}.slp-main h2{font-size:1.15rem;margin:1.5rem 0 .5rem}' +
  // A heading's lines set close; smaller on a phone, where a store's long name takes three lines.
  '.slp-main h1{font-size:clamp(1.5rem,1rem + 2.5vw,2rem);line-height:1.2}' +
  '.slp-page a{color:var(--sl-accent,#0b57d0)}.slp-page img{max-width:100%;height:auto;border-radius:.5rem}' +
  '.slp-page .slp-photo{display:block;width:100%;max-width:30rem;aspect-ratio:3/2;object-fit:scale-down;background:var(--sl-surface,#f6f8fa)}' +
  '.slp-hours th,.slp-hours td{text-align:left;padding:.25rem 1rem .25rem 0}.slp-range{white-space:nowrap}' +
  // A day's name or a date breaks between words only: a table narrows a column to its longest.
  '.slp-hours th{overflow-wrap:normal}' +
  '.slp-list{padding-left:1.25rem}' +
  '.slp-badges{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}' +
  '.slp-badge{display:inline-block;padding:.1rem .6rem;border:1px solid var(--sl-border,#8c959f);border-left-width:.4rem;border-radius:1rem;background:var(--sl-surface,#f6f8fa)}' +
  '.slp-fields dt{font-weight:600}.slp-fields dd{margin:0 0 .5rem}'

/** What a message page may load: nothing but its own style; nothing runs, no form is sent. */
const MESSAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

/**
 * A short page of `status` saying `title` and `text` in `lang`, then `more` (HTML: a link), laid
 * out as the store pages are; never indexed, never kept. `headers` add to its own (Retry-After);
 * `head` (HTML) to its head.
 */
export function messagePage(
  status: number,
  lang: Lang,
  title: string,
  text: string,
  more = '',
  headers: Record<string, string> = {},
  head = '',
): Response {
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">${head}<title>${esc(title)}</title><style>${PAGE_STYLE}</style></head><body class="slp-page"><main class="slp-main"><h1>${esc(title)}</h1><p>${esc(text)}</p>${more}</main></body></html>`
  return htmlResponse(html, status, {
    'cache-control': 'no-store',
    'content-security-policy': MESSAGE_POLICY,
    ...headers,
  })
}
