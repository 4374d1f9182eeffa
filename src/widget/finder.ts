// The finder Storeloc.mount gives a page. One without a language of its own (lang, data-lang, a
// lang on its element) follows the page's: when <html lang> changes, as single-page apps switch
// it, its Widget is made again in the new language, with the search it had.
import { type Options, pageLang } from './options'
import type { SearchState } from './url-state'
import { Widget } from './widget'

// The page's object: a framework may hold it in a Proxy (Vue's reactive()), whose `this` reaches no
// private (#) member of the class, so its members are plain properties.
export class Finder {
  private widget: Widget
  private readonly langs: MutationObserver | null = null

  constructor(
    readonly element: HTMLElement,
    private options: Options,
    /** Its URL parameters' prefix (url-state.ts). */
    private readonly prefix: string,
    /** Whether its language is the page's, to follow. */
    followsPage: boolean,
  ) {
    this.widget = new Widget(element, options, prefix)
    if (!followsPage) return
    this.langs = new MutationObserver(() => this.follow())
    this.langs.observe(document.documentElement, { attributeFilter: ['lang'] })
  }

  get destroyed(): boolean {
    return this.widget.destroyed
  }

  get lang(): string {
    return this.widget.lang
  }

  search(change: Partial<SearchState> = {}): Promise<void> {
    return this.widget.search(change)
  }

  select(id: string | null): void {
    this.widget.select(id)
  }

  destroy(): void {
    this.langs?.disconnect()
    this.widget.destroy()
  }

  /** The page's language changed: texts, formats and places in it, the search kept. */
  private follow() {
    // Out of the page, its element's place says nothing of its language.
    const lang = this.element.parentElement ? pageLang(this.element.parentElement) : this.options.lang
    if (this.destroyed || lang === this.options.lang) return
    this.options = { ...this.options, lang }
    const [search, shown] = [this.widget.searched(), [...this.element.childNodes]]
    this.widget.destroy()
    // Shown until the new one has its filters and its answer (widget.ts): the page does not jump.
    this.element.replaceChildren(...shown)
    this.widget = new Widget(this.element, this.options, this.prefix, search)
  }
}
