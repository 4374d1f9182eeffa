// widget.js: mounts a store finder on every element with data-storeloc="pk_...", and offers
// Storeloc.mount(element, options) to pages that make their own.
import { textsFor } from './i18n'
import { type Options, optionsOf } from './options'
import { urlPrefix } from './url-state'
import { Widget } from './widget'

// Read while the script runs: the service's address is where widget.js came from.
const script = document.currentScript as HTMLScriptElement | null
const scriptBase = script?.src ? script.src.replace(/\/widget\.js(?:[?#].*)?$/, '') : location.origin
const mounted = new WeakMap<HTMLElement, Widget>()
/** Each element's URL prefix, kept when it is mounted again: the page's first finder sl_, then sl2_... */
const prefixes = new WeakMap<HTMLElement, string>()
let finders = 0

/** An element or call that gives no public token. */
class NoToken extends Error {}

/** The widget's stylesheet from the service, once a page. */
function addStyles(api: string) {
  const href = `${api}/widget.css`
  if ([...document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')].some((l) => l.href === href)) return
  const link = document.createElement('link')
  link.rel = 'stylesheet'
  link.href = href
  document.head.appendChild(link)
}

/** A store finder in `el`; mounting the same element again first removes the one there. */
function mount(el: HTMLElement, given: Partial<Options> = {}): Widget {
  mounted.get(el)?.destroy()
  const options = optionsOf(el, given, scriptBase)
  if (!options.token) throw new NoToken('Storeloc.mount: no token. Set data-storeloc="pk_..." or pass { token }.')
  addStyles(options.api)
  let prefix = prefixes.get(el)
  if (prefix === undefined) {
    prefix = urlPrefix(++finders)
    prefixes.set(el, prefix)
  }
  const widget = new Widget(el, options, prefix)
  mounted.set(el, widget)
  return widget
}

/**
 * Every element marked on the page. One that cannot be mounted (data-storeloc="" from a template
 * that lost its token) says so to visitors in its place, in their language, and to the page's
 * developer in the console; the others still mount.
 */
function mountAll() {
  for (const el of document.querySelectorAll<HTMLElement>('[data-storeloc]')) {
    if (mounted.has(el)) continue
    try {
      mount(el)
    } catch (e) {
      console.error(e)
      const note = document.createElement('p')
      note.setAttribute('role', 'alert')
      const { texts } = textsFor(optionsOf(el, {}, scriptBase).lang)
      note.textContent = e instanceof NoToken ? texts.badToken : texts.failed
      el.replaceChildren(note)
    }
  }
}

;(window as unknown as { Storeloc: unknown }).Storeloc = { mount }
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mountAll)
else mountAll()
