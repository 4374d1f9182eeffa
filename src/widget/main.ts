// widget.js: mounts a store finder on every element with data-storeloc="pk_...", and offers
// Storeloc.mount(element, options) to pages that make their own.
import { Finder } from './finder'
import { textsFor } from './i18n'
import { followMarked } from './marked'
import { warnOfOptions } from './option-warnings'
import { type Options, optionsOf } from './options'
import { inUnit, urlPrefix } from './url-state'

// Read while the script runs: the service's address is where widget.js came from.
const script = document.currentScript as HTMLScriptElement | null
const scriptBase = script?.src ? script.src.replace(/\/widget\.js(?:[?#].*)?$/, '') : location.origin
const mounted = new WeakMap<HTMLElement, Finder>()
/** The live finders by their URL prefix (sl_, sl2_...), and each element's last prefix. */
const byPrefix = new Map<string, Finder>()
const prefixes = new WeakMap<HTMLElement, string>()

/**
 * `el`'s URL prefix: the one it had, when no live finder holds it; else the first no live finder
 * holds. So an element mounted again reads its own search, and a new one (another route's) the
 * search of a finder destroyed before it.
 */
function prefixOf(el: HTMLElement): string {
  for (const [prefix, widget] of byPrefix) if (widget.destroyed) byPrefix.delete(prefix)
  const own = prefixes.get(el)
  if (own !== undefined && !byPrefix.has(own)) return own
  let n = 1
  while (byPrefix.has(urlPrefix(n))) n++
  return urlPrefix(n)
}

/** An element or call that gives no public token: a bad argument, named so (a class's own name is minified). */
class NoToken extends TypeError {
  override name = 'TypeError'
}

/** How long a finder waits, hidden, for its stylesheet: past this it shows as it is. */
const STYLES_WAIT_MS = 3000
const styles = new Map<string, Promise<void>>()

/** The widget's stylesheet from the service, once a page; resolves when it has loaded (or failed, or STYLES_WAIT_MS passed). */
function addStyles(api: string): Promise<void> {
  const href = `${api}/widget.css`
  const known = styles.get(href)
  if (known !== undefined) return known
  const had = [...document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')].find((l) => l.href === href)
  const link = had ?? document.createElement('link')
  const ready =
    had?.sheet != null
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          link.addEventListener('load', () => resolve())
          link.addEventListener('error', () => resolve())
          setTimeout(resolve, STYLES_WAIT_MS)
        })
  if (had === undefined) {
    link.rel = 'stylesheet'
    link.href = href
    document.head.append(link)
  }
  styles.set(href, ready)
  return ready
}

/** A store finder in `el`; mounting the same element again first removes the one there. */
function mount(el: HTMLElement, given: Partial<Options> | null = {}): Finder {
  if (el?.nodeType !== Node.ELEMENT_NODE) throw new TypeError('Storeloc.mount: the first argument is to be an element.')
  mounted.get(el)?.destroy()
  warnOfOptions(el, given ?? {})
  const options = optionsOf(el, given ?? {}, scriptBase)
  if (!options.token) throw new NoToken('Storeloc.mount: no token. Set data-storeloc="pk_..." or pass { token }.')
  // Hidden until its stylesheet is there: on a slow line the form would show as bare controls.
  // It mounts at once all the same, so its first requests are not held back.
  el.style.visibility = 'hidden'
  void addStyles(options.api).then(() => el.style.removeProperty('visibility'))
  const prefix = prefixOf(el)
  // A language of its own: given, data-lang, or its element's (the page's own, not one a finder set).
  const ownLang = given?.lang ?? el.dataset.lang ?? el.getAttribute('lang')
  const widget = new Finder(el, options, prefix, ownLang == null)
  byPrefix.set(prefix, widget)
  prefixes.set(el, prefix)
  mounted.set(el, widget)
  return widget
}

/**
 * A finder in `el` from its attributes. One that cannot be mounted (data-storeloc="" from a
 * template that lost its token) says so to visitors in its place, in their language, and to the
 * page's developer in the console: null. The page's others still mount.
 */
function mountMarked(el: HTMLElement): Finder | null {
  try {
    return mount(el)
  } catch (e) {
    console.error(e)
    // In the widget's alert style, as its other failures: the element takes the finder's class.
    const { lang, api } = optionsOf(el, {}, scriptBase)
    const note = document.createElement('p')
    note.className = 'sl-error'
    note.setAttribute('role', 'alert')
    note.textContent = e instanceof NoToken ? textsFor(lang).texts.badToken : textsFor(lang).texts.failed
    el.classList.add('sl-root')
    el.replaceChildren(note)
    void addStyles(api)
    return null
  }
}

/** `el`'s new data-unit over the one its search in the address holds, which would otherwise outrank it. */
function unitChanged(el: HTMLElement) {
  const { unit, urlState } = optionsOf(el, {}, scriptBase)
  const prefix = prefixes.get(el)
  if (unit === null || !urlState || prefix === undefined) return
  const href = inUnit(location.href, prefix, unit)
  if (href !== location.href) history.replaceState(history.state, '', href)
}

const start = () => followMarked({ mount: mountMarked, finderOf: (el) => mounted.get(el), unitChanged })

;(window as unknown as { Storeloc: unknown }).Storeloc = { mount }
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
else start()
