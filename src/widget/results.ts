// The result list: one item per store, numbered as its marker on the map. The list is the
// keyboard's way through the stores: Tab reaches each store's button, arrow keys move between them.
import type { CustomField, Location } from './api'
import { h } from './dom'
import { directionsUrl, mailtoUrl, shortUrl, telUrl } from '../core/directions'
import { parseDayHours } from '../core/hours'
import { hoursText } from '../core/hours-text'
import { slugOf } from '../core/slug'
import { type Lang, labelled } from '../core/languages'
import { distanceText, openText, safeUrl } from './format'
import type { Texts } from './i18n'
import type { Options } from './options'

export type ListContext = {
  texts: Texts
  lang: Lang
  /** The language of the store pages without ?lang= (the locator's); null: not known yet. */
  pagesLang: Lang | null
  options: Options
  onSelect: (id: string) => void
  /** The search as the finder page's URL parameters, with the store `id` picked: its page's link back keeps it. */
  search: (id: string) => string
}

/** A link, opening a new tab when `external`; `named` when many stores' links would read the same. */
type Link = (href: string | null, text: string, cls: string, external: boolean, named?: boolean) => HTMLElement | null

/**
 * Links of the store `name`. Read out, not shown, after a link's text: the store's name when
 * `named`, and that the link opens a new tab. The name read starts with the text shown.
 */
function links(texts: Texts, name: string): Link {
  return (href, text, cls, external, named = false) => {
    if (!href) return null
    const unseen = `${named ? `, ${name}` : ''}${external ? ` (${texts.newTab})` : ''}`
    const label = unseen ? `${text}${unseen}` : null
    const target = external ? '_blank' : null
    return h('a', { href, class: cls, target, rel: external ? 'noopener' : null, 'aria-label': label }, text)
  }
}

/**
 * The text colour that reads best on a badge of `color` (#RRGGBB or #RGB): white, or the widget's dark
 * text (#1d2329) on a light colour such as yellow; null for any other form of colour (white).
 */
export function badgeText(color: string): string | null {
  const hex = /^#[0-9a-f]{3}$/i.test(color) ? color.replace(/[0-9a-f]/gi, '$&$&') : color
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex)
  if (m === null) return null
  // Each channel of sRGB as WCAG's relative luminance counts it.
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((x) => {
    const c = parseInt(x, 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  const lum = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
  const onWhite = 1.05 / (lum + 0.05)
  const onDark = (lum + 0.05) / (0.0163 + 0.05)
  return onWhite >= onDark ? '#fff' : '#1d2329'
}

/** A custom field as a badge, a link or a line of text. */
function customField(field: CustomField, link: Link, lang: Lang): HTMLElement | null {
  const { type, value } = field
  if (type === 'badge')
    return h(
      'span',
      {
        class: 'sl-badge',
        style: field.color ? `--sl-badge:${field.color};--sl-badge-text:${badgeText(field.color) ?? '#fff'}` : null,
        title: field.name,
      },
      field.label || value,
    )
  if (type === 'button') return link(safeUrl(value), field.label || field.name, 'sl-button sl-link-button', true, true)
  // A link on a line of its own, as a text field's: links of two fields side by side read as one.
  const line = (a: HTMLElement | null) => (a === null ? null : h('p', { class: 'sl-field-link' }, a))
  if (type === 'url') return line(link(safeUrl(value), field.name, 'sl-link', true, true))
  // A phone with no digit to dial reads as a text field's line, as the store page shows it.
  if (type === 'phone' && telUrl(value))
    return line(link(telUrl(value), labelled(lang, field.name, value), 'sl-link', false))
  if (type === 'email') return line(link(mailtoUrl(value), labelled(lang, field.name, value), 'sl-link', false))
  return h('p', { class: 'sl-field-text' }, labelled(lang, field.name, value))
}

/** One store's item; `n` is its number on the map. */
export function storeItem(ctx: ListContext, location: Location, n: number): HTMLLIElement {
  const { texts, lang, options } = ctx
  const open = openText(texts, lang, location)
  // The hours of the store's own date: a holiday's special hours on that day. Left out when open
  // past midnight on a day closed: "Open now · closes at 3:00" beside "Today: closed" contradicts.
  const today =
    location.open_now === true && parseDayHours(location.hours_today).kind === 'closed' ? null : location.hours_today
  const { phone, website, email } = location.contact
  const link = links(texts, location.name)
  const fields = location.customFields ?? []
  const shown = (keep: (f: CustomField) => boolean) => fields.filter(keep).map((f) => customField(f, link, lang))
  const badges = shown((f) => f.type === 'badge')
  const buttons = shown((f) => f.type === 'button')
  const lines = shown((f) => f.type !== 'badge' && f.type !== 'button')
  // The store's page in the widget's language, at its own address (with its slug: no redirect),
  // and the search, which its link back to the finder page takes up. Its language is named unless
  // it is the pages' own: a page without ?lang= is in its locator's language.
  const query = [lang === ctx.pagesLang ? '' : `lang=${lang}`, ctx.search(location.id)]
    .filter((p) => p !== '')
    .join('&')
  const page = options.storePages
    ? `${options.api}/l/${encodeURIComponent(options.token)}/${location.id}/${encodeURIComponent(slugOf(location.name))}${query && `?${query}`}`
    : null
  const pick = h(
    'button',
    { type: 'button', class: 'sl-name', onclick: () => ctx.onSelect(location.id) },
    location.name,
  )
  return h(
    'li',
    { class: 'sl-item', 'data-id': location.id },
    h('span', { class: 'sl-num', 'aria-hidden': 'true' }, String(n)),
    h(
      'div',
      { class: 'sl-body' },
      h(`h${options.headingLevel}` as 'h3', { class: 'sl-title' }, pick),
      location.distance
        ? h('p', { class: 'sl-distance' }, distanceText(lang, location.distance.value, location.distance.unit))
        : null,
      h('p', { class: 'sl-address' }, location.address.formatted),
      open ? h('p', { class: location.open_now ? 'sl-open sl-is-open' : 'sl-open' }, open) : null,
      today
        ? h('p', { class: 'sl-today' }, labelled(lang, texts.today, hoursText(lang, today, location.address.country)))
        : null,
      badges.length > 0 ? h('p', { class: 'sl-badges' }, badges) : null,
      lines,
      h(
        'p',
        { class: 'sl-actions' },
        link(directionsUrl(options.directions, location), texts.directions, 'sl-button', true, true),
        // A phone with no digit to dial is shown as written, as the store page shows it.
        phone ? (link(telUrl(phone), `${texts.call} ${phone}`, 'sl-link', false) ?? phone) : null,
        link(safeUrl(website), website ? labelled(lang, texts.website, shortUrl(website)) : '', 'sl-link', true),
        email ? link(mailtoUrl(email), texts.email, 'sl-link', false, true) : null,
        link(page, texts.details, 'sl-link', false, true),
        buttons,
      ),
    ),
  )
}

/** Marks `id`'s item selected (and no other), and returns it. */
export function markSelected(list: HTMLElement, id: string | null): HTMLElement | null {
  let found: HTMLElement | null = null
  for (const item of list.querySelectorAll<HTMLElement>('.sl-item')) {
    const on = item.dataset.id === id
    item.classList.toggle('sl-selected', on)
    // The current store, not a pressed toggle: pressing it again keeps it, as a pin pressed again does.
    if (on) item.querySelector('.sl-name')?.setAttribute('aria-current', 'true')
    else item.querySelector('.sl-name')?.removeAttribute('aria-current')
    if (on) found = item
  }
  return found
}

/** Up and Down (Home, End) move the focus between the stores' buttons. */
export function listKeys(list: HTMLElement): void {
  list.addEventListener('keydown', (e) => {
    const target = e.target as HTMLElement
    if (!target.classList.contains('sl-name')) return
    const buttons = [...list.querySelectorAll<HTMLButtonElement>('.sl-name')]
    const i = buttons.indexOf(target as HTMLButtonElement)
    const to =
      e.key === 'ArrowDown'
        ? i + 1
        : e.key === 'ArrowUp'
          ? i - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? buttons.length - 1
              : -2
    if (to === -2) return
    e.preventDefault()
    buttons[Math.max(0, Math.min(buttons.length - 1, to))]?.focus()
  })
}
