// One store finder in one element: the form, the result list and the map, kept in step with the
// visitor's search (and the page's URL), answered by the Query API.
import { type FiltersAnswer, type Location, type LocationsAnswer, type Place, queryWhenReady } from './api'
import { Browsing } from './browse'
import type { Single } from './clusters'
import { h } from './dom'
import { busyLine } from './busy'
import { sayFailure, sayFiltersFailed, sayUnusable, tryAgain } from './failures'
import { type Pages, searchPages } from './pages'
import { type CountBar, countBar, pastFilters } from './filter-count'
import { filterControls, type Filters, openWhereRoom, shownGroups } from './filters'
import { type Form, searchForm } from './form'
import { warmFormats } from './format'
import { fillForm, readForm, readPlace } from './form-state'
import { type Lang, langOf } from '../core/languages'
import { type Texts, textsFor } from './i18n'
import { locateSaying, positionShared } from './locate'
import type { StoreMap } from './map'
import { preloadMap, storeMap } from './map-load'
import type { Pressing } from './map-press'
import { type Options, radiusIn } from './options'
import { measureIn, unitOfLang } from './units'
import { type Area, leaveArea, takeAnswer } from './answered-place'
import { warnOfGroups } from './option-warnings'
import { SearchEntries } from './history'
import { markSelected, storeItem } from './results'
import { StoreList } from './store-list'
import { type ViewSwitch, viewSwitch } from './view-switch'
import { filterParams } from './search-params'
import { firstSearch, originOf, readState, type SearchState, searchQuery, urlPrefix } from './url-state'

/** How long a finder waits for its filters before it shows without them (they come in later). */
const SHOW_WITHIN_MS = 1000

export class Widget {
  readonly lang: Lang
  readonly #texts: Texts
  /** lang for places (GET /places, near=): with the region its tag names ("en-GB"). */
  readonly #placeLang: string
  readonly #state: SearchState
  /**
   * The search shown as it was asked, before its answer named its place: the entry pushed for it is
   * its own still, though the answer was written into a later one (another finder's).
   */
  #asked: SearchState | null = null
  #map: StoreMap | null = null
  #filters: Filters | null = null
  /** A region or country searched (answered-place.ts); null for any other place. */
  #area: Area | null = null
  /** The locator's default radius, from GET /filters' meta; null until it answers. */
  #defaultRadius: number | null = null
  /** The unit guessed (units.ts) till the locator's came over it: entries searched in it are converted. */
  #guess: 'km' | 'miles' | null = null
  /**
   * The filters waited for long enough to say the service is busy, and waited for still: whether a
   * 503 is being asked again (else unanswered); null: not.
   */
  #filtersBusy: boolean | null = null
  /** The language of the locator's store pages without ?lang=, from GET /filters' meta; null until it answers. */
  #pagesLang: Lang | null = null
  /** Whether a search was asked: the first, waiting on the filters, is not asked once another is. */
  #searched = false
  /** GET /filters, asked or answered; null again after a failure, so the next search asks again. */
  #defaults: Promise<void> | null = null
  /** No search yet: the map shows every store of its view, clustered. */
  readonly #browsing: Browsing
  readonly #form: Form
  /** Read out as it changes: the whole line when it is set, the words a wait adds after it alone (busy.ts). */
  readonly #status = h('p', { class: 'sl-status', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'false' })
  /** The `waiting` of a request: the status line says the service is busy (busy.ts). */
  readonly #busy = busyLine(this.#status, () => this.#texts)
  readonly #alert = h('p', { class: 'sl-error', role: 'alert' })
  readonly #stores: StoreList
  readonly #mapEl = h('div', { class: 'sl-map' })
  /** On a phone: the list or the map. */
  readonly #view: ViewSwitch
  /** On a phone, under the open filters: how many stores the list shows. */
  readonly #bar: CountBar
  /** Its search's requests for stores, and their count on the status line. */
  readonly #pages: Pages
  /** Its searches as entries of the browser's history. */
  readonly #entries: SearchEntries
  /** The host element's own lang attribute, given back by destroy(). */
  readonly #hostLang: string | null
  /** Aborted by destroy(): no request, listener or answer of this finder acts after it. */
  readonly #life = new AbortController()
  readonly #options: Options
  readonly #element: HTMLElement
  /** What it shows in its element, once shown: its form, status line, alert, list and map. */
  readonly #parts: HTMLElement[]

  constructor(
    element: HTMLElement,
    options: Options,
    /** Its URL parameters' prefix (url-state.ts), its own among the page's finders. */
    urlKeys = urlPrefix(1),
    /** The search it takes up, as another finder in its place had it; else the URL's, else the options'. */
    given: SearchState | null = null,
  ) {
    ;[this.#element, this.#options] = [element, options]
    const { lang, texts, placeLang } = textsFor(options.lang)
    this.lang = lang
    this.#texts = texts
    this.#placeLang = placeLang
    this.#browsing = new Browsing(options, () => filterParams(this.#state), this.#busy.replacing)
    this.#state =
      given ??
      (options.urlState ? readState(location.href, urlKeys) : null) ??
      firstSearch(options.place, options.radius)
    // The URL's unit over the page's: the radius it holds is in it.
    this.#state.unit ??= options.unit
    this.#form = searchForm(texts, options, {
      suggest: (q, signal) => this.#suggest(q, signal),
      pick: (p) => void this.#commit({ origin: originOf(p) }, true),
      locate: () => this.#locate(true),
      change: () => void this.#searchIfAny(),
      submit: (e) => {
        e.preventDefault()
        this.#form.place.close()
        if (readPlace(this.#form, this.#state, this.#texts)) void this.#commit({}, true)
        else this.#locate(true)
      },
    })
    this.#stores = new StoreList(
      texts,
      options.label ?? texts.list,
      (l, n) => this.#item(l, n),
      (any) => this.#view.found(any),
      (since) => this.#pages.more(since),
    )
    element.classList.add('sl-root')
    // Its texts' language, for screen readers' voices, whatever the page's is.
    this.#hostLang = element.getAttribute('lang')
    element.lang = lang
    this.#entries = new SearchEntries(urlKeys, this.#life.signal)
    this.#bar = countBar(element, texts)
    this.#pages = searchPages(
      this.#state,
      options,
      [texts, lang, placeLang],
      this.#stores,
      [this.#status, this.#alert],
      this.#bar,
      this.#busy,
      () => this.#map,
      () => void this.search(),
      this.#life.signal,
    )
    // The list shown again under its map: its entry takes the search as it stands (a filter changed on the map).
    const keep = { searches: this.#entries, settle: () => this.#keepInUrl(true) }
    const refit = () => this.#map?.refit()
    this.#view = viewSwitch(
      element,
      texts,
      this.#stores.box,
      this.#mapEl,
      refit,
      this.#life.signal,
      options.urlState ? keep : null,
    )
    // After the switch's: Back from the map alone finds the address its search's.
    if (options.urlState)
      this.#entries.follow(
        () => [this.#state, this.#asked ?? this.#state],
        (s, only) => this.#restore(s, only),
      )
    const parts = (this.#parts = [
      this.#form.element,
      this.#status,
      this.#alert,
      h(
        'div',
        { class: options.map ? 'sl-main' : 'sl-main sl-no-map' },
        options.map ? this.#view.element : null,
        this.#stores.box,
        options.map ? this.#mapEl : null,
      ),
    ])
    this.#fillForm()
    const defaults = this.#loadDefaults()
    // A unit guessed (units.ts) is taken up by the locator's first. Searched meanwhile (by the
    // visitor, or again in the locator's unit): that search is the first. With no unit, search()
    // waits for the locator's itself, saying so meanwhile.
    const first = this.#state.guessed
      ? defaults.then(() => (this.#searched ? undefined : this.search()))
      : this.search()
    // Shown with its filters in place: filters that came later would push the list and map down.
    // Made again with a search (finder.ts), with its answer too: the finder it replaces shows till then.
    const ready = given === null ? defaults : Promise.all([defaults, first])
    const shown = Promise.race([ready, new Promise((resolve) => setTimeout(resolve, SHOW_WITHIN_MS))]).then(() => {
      if (!this.destroyed) element.replaceChildren(...parts)
    })
    // A page opened on a store picked (the link back from its page, a reload): that store in sight.
    void Promise.allSettled([first, shown]).then(() => {
      const picked = this.#stores.list.querySelector('.sl-selected')
      if (picked && !this.destroyed) this.#view.toList(picked)
    })
    if (this.#state.locate) {
      delete this.#state.locate
      void first.then(() => this.#locateIfShared())
    }
    // The browser's date data loads while the first answer is on its way; the map starts once the
    // first results are painted (a frame, then a task after it).
    warmFormats(this.lang)
    if (options.map) {
      preloadMap(options.api)
      void Promise.allSettled([first, shown]).then(() =>
        requestAnimationFrame(() => setTimeout(() => this.#startMap(), 0)),
      )
    }
  }

  /** Whether destroy() was called: the finder then does nothing more. */
  get destroyed(): boolean {
    return this.#life.signal.aborted
  }

  /** Searches again, with these parts of the search changed. */
  async search(change: Partial<SearchState> = {}): Promise<void> {
    if (this.destroyed) return
    // A failure said is the last search's, not this one's (Back to no search among them); before the
    // first, one of the token said while the filters loaded stays.
    if (this.#searched) this.#alert.textContent = ''
    this.#searched = true
    // Its filters, its stores and the nearest beyond its radius: one wait for the service, bounded once.
    const since = Date.now()
    this.#readForm()
    Object.assign(this.#state, change)
    this.#area = leaveArea(this.#state, this.#area)
    this.#fillForm()
    this.#asked = { ...this.#state }
    void this.#loadDefaults()
    const [state, texts] = [this.#state, this.#texts]
    if (this.#pages.params(0) === null) {
      // A search still on its way is not this one's answer, nor the nearest stores it asks next.
      this.#pages.stop()
      this.#stores.clear(false)
      this.#status.textContent = texts.prompt
      this.#keepInUrl(true)
      // From a search back to none (Back, the place cleared): the map as the page opened, no pin
      // of that search left, fitted to every store again.
      if (!this.#browsing.on) {
        this.#map?.show([], null, true)
        this.#browsing.again()
      }
      this.#browsing.on = true
      // Nothing to list yet: the map takes the list's room too (widget.css).
      this.#element.classList.add('sl-browsing')
      void this.#browse()
      return
    }
    // Clusters on their way, or waited for while the service starts, are not this search's.
    this.#browsing.on = false
    this.#browsing.stop()
    this.#element.classList.remove('sl-browsing')
    this.#status.textContent = texts.loading
    this.#bar.stale()
    // An entry as it is asked, answered or not: Back during its wait, or after its failure, returns to the one before.
    this.#keepInUrl(true)
    // No radius without its unit: GET /locations measures in miles unless told. The filters name the
    // locator's, or fail and the page's language implies one (units.ts).
    if (this.#state.unit === null) {
      // The filters, waited for past the time to say so before this search: said now.
      if (this.#filtersBusy !== null) this.#sayWaiting(this.#filtersBusy)
      await this.#loadDefaults()
    }
    let answer: LocationsAnswer | null
    try {
      answer = await this.#pages.fetch(0, since)
    } catch {
      if (this.destroyed) return
      // The alert says why; the last search's stores are not this one's answer.
      this.#stores.clear(true)
      this.#bar.count(null)
      this.#map?.show([], null, true)
      this.#keepInUrl(true, true)
      return
    }
    if (answer === null || this.destroyed) return
    const q = answer.meta.query ?? {}
    this.#state.unit = q.unit ?? this.#state.unit
    // The radius asked: the one sent, else the locator's default the service took.
    const sent = state.radius ?? this.#options.radius
    const asked = sent ?? this.#defaultRadius
    const taken = takeAnswer(state, q, sent, asked, this.#area)
    this.#area = taken.area
    if (taken.label !== null) this.#form.place.setText(taken.label)
    this.#fillForm()
    const stores = this.#stores
    this.#pages.center = q.center ?? null
    stores.show(answer.data)
    this.#status.textContent = this.#pages.count()
    this.#bar.count(stores.total)
    if (stores.total === 0 && state.origin !== null) void this.#pages.beyond(since)
    if (state.selected && !stores.stores.some((l) => l.id === state.selected)) state.selected = null
    this.#map?.show(stores.stores, this.#pages.center, true)
    markSelected(stores.list, state.selected)
    this.#map?.select(state.selected)
    this.#keepInUrl(true)
    this.#fire('search', {
      query: Object.fromEntries(this.#pages.params(0) ?? []),
      total: stores.total,
      locations: stores.stores,
    })
  }

  /** The places the text typed may be (GET /places); none once destroyed. A newer question's `signal` ends its wait. */
  async #suggest(q: string, signal: AbortSignal): Promise<Place[]> {
    if (this.destroyed) return []
    const p: [string, string][] = [
      ['q', q],
      ['lang', this.#placeLang],
    ]
    const [{ api, token }, waiting] = [this.#options, this.#busy.replacing(signal)]
    const answer = await queryWhenReady<{ data: { places: Place[] } }>(api, token, 'places', p, signal, waiting)
    return answer.data.places
  }

  /** The search as it stands, for a finder mounted in its place. */
  searched(): SearchState {
    return { ...this.#state, tags: [...this.#state.tags] }
  }

  /** Marks a store selected in the list and on the map; null: none. `told`: storeloc:select says it (a pick, not Back to one). */
  select(id: string | null, fromMap = false, told = true): void {
    if (this.destroyed) return
    this.#state.selected = id
    const item = markSelected(this.#stores.list, id)
    this.#map?.select(id)
    if (item && fromMap) this.#view.toList(item)
    this.#keepInUrl()
    const chosen = this.#stores.stores.find((l) => l.id === id)
    if (chosen && told) this.#fire('select', { location: chosen })
  }

  /**
   * A search waiting a while for the service (starting): the status line says so, over "Searching…"
   * alone, and that it tries again over its "still waiting".
   */
  readonly #sayWaiting = (retrying: boolean) => {
    const [texts, now] = [this.#texts, this.#status.textContent]
    if (now === texts.loading || (retrying && now === texts.stalled))
      this.#status.textContent = retrying ? texts.waiting : texts.stalled
  }

  /** Empties the element and stops the finder; its search stays in the page's URL for the next one mounted there. */
  destroy(): void {
    if (this.destroyed) return
    this.#life.abort()
    this.#pages.stop()
    this.#form.place.close()
    this.#browsing.stop()
    // A map still starting is removed as it comes (startMap).
    this.#map?.destroy()
    this.#map = null
    this.#element.replaceChildren()
    this.#element.classList.remove('sl-root', 'sl-browsing')
    if (this.#hostLang === null) this.#element.removeAttribute('lang')
    else this.#element.setAttribute('lang', this.#hostLang)
  }

  #item(location: Location, n: number) {
    const ctx = {
      texts: this.#texts,
      lang: this.lang,
      pagesLang: this.#pagesLang,
      options: this.#options,
      onSelect: (id: string) => this.select(id),
      // Not when the host keeps the address to itself.
      search: (id: string) => (this.#options.urlState ? searchQuery({ ...this.#state, selected: id }) : ''),
    }
    return storeItem(ctx, location, n)
  }

  #fire(name: string, detail: unknown) {
    this.#element.dispatchEvent(new CustomEvent(`storeloc:${name}`, { detail, bubbles: true }))
  }

  /** The form's fields as the search stands. */
  #fillForm() {
    const chosen = this.#state.radius ?? this.#options.radius ?? this.#defaultRadius
    fillForm(this.#form, this.#state, this.#texts, this.lang, chosen)
  }

  #readForm() {
    readForm(this.#form, this.#state, this.#filters?.selected() ?? null)
  }

  #startMap() {
    if (this.destroyed) return
    // A store alone on the map before a search: the stores around it, it picked.
    // By keyboard, the dot pressed goes with the map's redraw: the focus goes on to the store in the list.
    const aroundStore = (one: Single, byKeyboard: boolean) =>
      void this.#commit({
        origin: { kind: 'place', label: one.name, lat: one.lat, lng: one.lng },
        selected: one.id,
      }).then(() => byKeyboard && this.#stores.list.querySelector<HTMLElement>('.sl-selected .sl-name')?.focus())
    const pressing: Pressing = {
      options: this.#options,
      filters: () => filterParams(this.#state),
      signal: () => this.#browsing.pressed(),
      // Browsing in the page: one destroyed or taken out of it takes up no answer of the map's.
      browsing: () => this.#browsing.on && !this.destroyed && this.#element.isConnected,
      around: aroundStore,
      browse: () => void this.#browse(),
      failed: (e, again) => sayFailure(this.#alert, this.#texts, e, '', tryAgain(this.#alert, this.#status, again)),
      say: (key) => void (this.#status.textContent = key && this.#texts[key]),
      waiting: this.#busy.searching(),
    }
    // The scale in the unit the finder measures in, once the locator's is known (both till then).
    const { unit, guessed } = this.#state
    const options = unit === null || guessed ? this.#options : { ...this.#options, unit }
    void storeMap(this.#mapEl, options, this.#texts, this.lang, (id) => this.select(id, true), pressing)
      .then((m) => {
        if (this.destroyed) return m.destroy()
        this.#map = m
        const { stores } = this.#stores
        if (stores.length > 0) {
          m.show(stores, this.#pages.center, true)
          m.select(this.#state.selected)
        } else void this.#browse()
        m.onMoved(() => void this.#browse())
        m.onTouched(() => this.#browsing.touched())
      })
      .catch(() => {
        this.#mapEl.hidden = true
      })
  }

  /** The locator's filter groups (unless data-filters is none), default radius and unit. */
  #loadDefaults(): Promise<void> {
    const options = this.#options
    const [{ api, token }, signal] = [options, this.#life.signal]
    const waiting = (retrying: boolean) => void ((this.#filtersBusy = retrying), this.#sayWaiting(retrying))
    this.#defaults ??= queryWhenReady<FiltersAnswer>(api, token, 'filters', [], signal, waiting)
      .finally(() => (this.#filtersBusy = null))
      .then((answer) => {
        if (this.destroyed) return
        this.#form.filterSlot.replaceChildren() // a failure said before is past, filters to show or not
        this.#readForm() // what the visitor typed meanwhile stays
        const [meta, unit] = [answer.meta, this.#state.unit]
        if (meta && (unit === null || this.#state.guessed)) {
          this.#guess = unit
          this.#state.guessed = false
          measureIn(this.#state, this.#area, meta.unit)
        }
        this.#defaultRadius = meta ? radiusIn(meta.radius, meta.unit, this.#state.unit ?? meta.unit) : null
        this.#pagesLang = langOf(meta?.language)
        this.#fillForm()
        // A search in the unit guessed (answered, or on its way): in the locator's now.
        if (unit !== null && this.#state.unit !== unit && this.#pages.params(0) !== null) void this.search()
        if (options.filters === 'none') return
        warnOfGroups(answer.data.filters, options.filters)
        const groups = shownGroups(answer.data.filters, options.filters)
        if (groups.length === 0) return
        const onChange = () => void this.#searchIfAny()
        this.#filters = filterControls(this.#texts, groups, this.#state.tags, onChange, this.#life.signal)
        const { element: box } = this.#filters
        this.#form.filterSlot.replaceChildren(...pastFilters(this.#element, box, this.#texts, this.#bar))
        openWhereRoom(this.#filters.element, this.#element, this.#state.tags.length > 0, this.#life.signal)
      })
      .catch((e) => {
        this.#defaults = null
        if (!this.destroyed && (this.#state.unit === null || this.#state.guessed)) {
          // Searched and said in the unit the page's language implies, till the locator's is known.
          this.#readForm()
          this.#state.guessed = true
          measureIn(this.#state, this.#area, unitOfLang(options.lang, navigator.language))
          this.#fillForm()
        }
        // Said before any search: a token that is wrong or not enabled shows at once.
        if (this.destroyed || sayUnusable(this.#parts, this.#alert, this.#texts, e) || options.filters === 'none')
          return
        sayFiltersFailed(this.#form.filterSlot, this.#status, this.#texts, e, () => void this.#loadDefaults())
      })
    return this.#defaults
  }

  /** A changed filter: the search again, for the place the box shows, or before any search the map's clusters. */
  #searchIfAny(): Promise<void> {
    readPlace(this.#form, this.#state, this.#texts)
    if (this.#state.origin || this.#form.keyword.value.trim()) {
      this.#entries.changed()
      return this.search()
    }
    this.#readForm()
    return this.#browse()
  }

  /** `searched`: a search's answer (`failed`: its failure), a new entry of the browser's history when the visitor committed it. */
  #keepInUrl(searched = false, failed?: boolean) {
    // Out of the page (a route left without destroy()), its search is no longer the address's.
    if (this.#options.urlState && !this.destroyed && this.#element.isConnected)
      this.#entries.write(this.#state, searched ? (this.#asked ?? this.#state) : undefined, failed)
  }

  /**
   * A search the visitor made (Enter, a place picked, their position): Back comes back to the one
   * before. `fromBox`: made in the place box, which a touch screen leaves once answered (its
   * keyboard would cover the stores), for the status line that reads their count.
   */
  async #commit(change: Partial<SearchState> = {}, fromBox = false): Promise<void> {
    this.#entries.commit()
    await this.search(change)
    // Not after a failure: the alert says to type again.
    const typing = document.activeElement === this.#form.place.input && this.#alert.textContent === ''
    if (fromBox && typing && matchMedia('(pointer: coarse)').matches) {
      // Focus on the status line, which says how the search goes; not a Tab stop.
      this.#status.tabIndex = -1
      this.#status.focus()
    }
  }

  /** Back or Forward to another search of its own (`only`: its store alone): taken up as it was, with no new entry. */
  #restore(to: SearchState | null, only?: boolean) {
    if (!this.#element.isConnected) return
    if (only) return this.select(to?.selected ?? null, false, false)
    const s = to ?? firstSearch(this.#options.place, this.#options.radius)
    // Near the visitor (sl_geo): the position shown, else the browser's if it gives it without asking.
    if (s.locate && this.#state.origin?.kind === 'geo') s.origin = this.#state.origin
    const locate = s.locate && s.origin === null
    delete s.locate
    s.unit ??= this.#state.unit
    // An entry searched in the unit guessed, the locator's known since: in the locator's.
    if (this.#guess) measureIn(s, null, this.#state.unit!)
    this.#area = null
    Object.assign(this.#state, s)
    this.#form.place.setText('')
    this.#filters?.choose(s.tags)
    this.#fillForm()
    const searched = this.search()
    if (locate) void searched.then(() => this.#locateIfShared())
  }

  #browse(): Promise<void> {
    return this.#browsing.show(this.#map)
  }

  /** Locates the visitor when the browser shares their position without asking (they allowed it before); else nothing. */
  #locateIfShared() {
    void positionShared().then((shared) => shared && this.#locate())
  }

  /** `commit`: the visitor asked, and the search near them is a new entry of the history. */
  #locate(commit = false) {
    if (this.destroyed) return
    locateSaying(this.#texts, this.#status, this.#alert, this.#life.signal, (origin) => {
      this.#form.place.setText(this.#texts.yourLocation)
      void (commit ? this.#commit({ origin }) : this.search({ origin }))
    })
  }
}
