// The locator's unit not known: GET /filters, which names it, failing. In a real browser against
// the demo data (a locator in miles), on a page of the business's own with the widget's snippet
// and no data-unit (the finder page names its locator's unit): the radii are said and searched in
// the unit the page's language implies, the locator's default by its name; once the filters
// load, in the locator's.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { aTurnLater, chromiumPath, heldUntilReleased, newPage, requestsOf, sentNow } from './browser'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

/** The snippet with no data-unit on a page of its own; its ?lang= is the finder's data-lang. */
let plain: ReturnType<typeof hostPage> | null = null
beforeAll(() => {
  if (chromiumPath === null) return
  plain = hostPage(
    `<div id="f" data-storeloc="${demo.server.token}" data-store-pages="on"></div>` +
      `<script>const lang = new URLSearchParams(location.search).get('lang'); if (lang) document.getElementById('f').dataset.lang = lang</script>` +
      `<script src="${demo.server.url}/widget.js" async></script>`,
  )
})
afterAll(() => plain?.stop())

/** The plain page's address, its finder in `lang` (else the page's). */
const plainPage = (lang?: string) => `${plain!.url}${lang === undefined ? '' : `?lang=${lang}`}`

const DESK = { viewport: { width: 1280, height: 900 } }

const FAILED = {
  status: 500,
  contentType: 'application/json',
  body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Failed.' } }),
}

/** GET /filters answers 500 while `down()`; GET /locations too while `searchDown()`. */
async function failing(page: Page, down: () => boolean, searchDown: () => boolean = () => false): Promise<void> {
  const fail = FAILED
  await page.route('**/filters*', (route) => (down() ? route.fulfill(fail) : route.continue()))
  await page.route('**/locations?*', (route) => (searchDown() ? route.fulfill(fail) : route.continue()))
}

/** The radius select's options as shown (a no-break space as a space), the chosen one marked "*". */
const radii = (page: Page) =>
  page
    .locator('.sl-radius option')
    .evaluateAll((options) =>
      options.map((o) => `${(o as unknown as { selected: boolean }).selected ? '*' : ''}${o.textContent}`),
    )
    .then((texts) => texts.map((t) => t.replace(/\s/g, ' ')))

/** Opens the plain page in `lang` (or the page at `lang`, an address) and searches `place` by Enter in its place box (`label`). */
async function search(page: Page, lang: string, label: string, place = 'London') {
  await page.goto(lang.includes('/') ? lang : plainPage(lang))
  const box = page.getByRole('combobox', { name: label })
  await box.fill(place)
  const asked = page.waitForResponse('**/locations?*')
  await box.press('Enter')
  return (await asked).request().url()
}

describe.skipIf(chromiumPath === null)("the locator's unit not known, in Chromium", () => {
  test('filters and search failing, in German: km and the default by its name; Try again brings miles', async () => {
    // The demo's locator: its own unit and radius, which the filters name.
    const filters = (await demo.server.api('filters')) as unknown as { meta: { unit: string; radius: number } }
    expect(filters.meta).toMatchObject({ unit: 'miles', radius: 25 })
    const page = await newPage(demo.browser, DESK)
    let down = true
    await failing(
      page,
      () => down,
      () => true,
    )
    try {
      const asked = await search(page, 'de', 'Ort oder Postleitzahl')
      expect(new URL(asked).searchParams.get('unit')).toBe('km')
      const filtersAlert = page.getByRole('alert').filter({ hasText: 'Die Filter konnten nicht geladen werden.' })
      await filtersAlert.waitFor()
      await page.getByRole('alert').filter({ hasText: 'Die Geschäfte konnten nicht geladen werden.' }).waitFor()
      expect(await radii(page)).toEqual(['*Standardumkreis', '5 km', '10 km', '25 km', '50 km', '100 km'])
      down = false
      await filtersAlert.getByRole('button', { name: 'Erneut versuchen' }).click()
      await page.locator('.sl-radius option', { hasText: 'Meilen' }).first().waitFor({ state: 'attached' })
      expect(await radii(page)).toEqual(['5 Meilen', '10 Meilen', '*25 Meilen', '50 Meilen', '100 Meilen'])
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('a radius picked in km while the filters fail is the same distance in miles once they load', async () => {
    const page = await newPage(demo.browser, DESK)
    let down = true
    await failing(
      page,
      () => down,
      () => true,
    )
    try {
      await search(page, 'fr', 'Ville ou code postal')
      const alert = page.getByRole('alert').filter({ hasText: 'Les filtres n’ont pas pu être chargés.' })
      await alert.waitFor()
      // By keyboard: the select focused, its option picked.
      await page.locator('.sl-radius select').focus()
      const asked = page.waitForResponse('**/locations?*')
      await page.locator('.sl-radius select').selectOption('10')
      expect(new URL((await asked).request().url()).searchParams.get('radius')).toBe('10')
      down = false
      await alert.getByRole('button', { name: 'Réessayer' }).click()
      await page.locator('.sl-radius option', { hasText: 'miles' }).first().waitFor({ state: 'attached' })
      expect((await radii(page)).filter((r) => r.startsWith('*'))).toEqual(['*6 miles'])
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('the search answered in km, the filters loading later: searched again, said in miles', async () => {
    const page = await newPage(demo.browser, DESK)
    let down = true
    await failing(page, () => down)
    try {
      await search(page, 'nl', 'Plaats of postcode')
      const status = page.locator('.sl-status')
      await status.filter({ hasText: /winkels binnen 40\skm van London/ }).waitFor()
      expect((await radii(page)).filter((r) => r.startsWith('*'))).toEqual(['*40 km'])
      down = false
      const again = page.waitForResponse((r) => new URL(r.url()).searchParams.get('unit') === 'miles')
      await page.getByRole('button', { name: 'Opnieuw proberen' }).click()
      await again
      await status.filter({ hasText: /winkels binnen 25\smijl van London/ }).waitFor()
      expect((await radii(page)).filter((r) => r.startsWith('*'))).toEqual(['*25 mijl'])
      expect(await page.locator('.sl-distance').first().textContent()).toMatch(/mijl/)
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('the filters slow, then failing, in Italian: the default alone while they come, then km', async () => {
    const page = await newPage(demo.browser, DESK)
    let release = () => {}
    const held = new Promise<void>((done) => {
      release = done
    })
    await page.route('**/filters*', async (route) => {
      await held
      await route.fulfill(FAILED)
    })
    try {
      await page.goto(plainPage('it'))
      // Shown without its filters after a while: no distance offered in a unit not known.
      await page.getByRole('combobox', { name: 'Città o CAP' }).waitFor()
      expect(await radii(page)).toEqual(['*Distanza predefinita'])
      release()
      await page.getByRole('alert').filter({ hasText: 'Impossibile caricare i filtri.' }).waitFor()
      expect(await radii(page)).toEqual(['*Distanza predefinita', '5 km', '10 km', '25 km', '50 km', '100 km'])
      const box = page.getByRole('combobox', { name: 'Città o CAP' })
      await box.fill('London')
      const asked = page.waitForResponse('**/locations?*')
      await box.press('Enter')
      const sent = new URL((await asked).request().url()).searchParams
      expect([sent.get('unit'), sent.get('radius')]).toEqual(['km', null])
      // The locator's default, in km: 25 miles made whole.
      await page
        .locator('.sl-status')
        .filter({ hasText: /entro 40\skm da London/ })
        .waitFor()
    } finally {
      release()
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('a page of its own, right to left, with data-radius and no data-unit: its radius by name, then in km', async () => {
    const host = hostPage(
      `<div dir="rtl"><div data-storeloc="${demo.server.token}" data-lang="es" data-radius="10"></div></div>` +
        `<script src="${demo.server.url}/widget.js"></script>`,
    )
    const page = await newPage(demo.browser, DESK)
    let release = () => {}
    const held = new Promise<void>((done) => {
      release = done
    })
    await page.route('**/filters*', async (route) => {
      await held
      await route.fulfill(FAILED)
    })
    try {
      await page.goto(host.url)
      const box = page.getByRole('combobox', { name: 'Ciudad o código postal' })
      await box.waitFor()
      expect(await radii(page)).toEqual(['*Distancia predeterminada'])
      release()
      await page.getByRole('alert').filter({ hasText: 'No se pudieron cargar los filtros.' }).waitFor()
      expect(await radii(page)).toEqual(['5 km', '*10 km', '25 km', '50 km', '100 km'])
      await box.fill('London')
      const asked = page.waitForResponse('**/locations?*')
      await box.press('Enter')
      const sent = new URL((await asked).request().url()).searchParams
      expect([sent.get('unit'), sent.get('radius')]).toEqual(['km', '10'])
    } finally {
      release()
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
      host.stop()
    }
  })
})

describe.skipIf(chromiumPath === null)("the unit guessed, then the locator's, in Chromium", () => {
  test("the page's language switched while the unit is guessed: the locator's once the filters load", async () => {
    const host = hostPage(
      `<script>document.documentElement.lang = 'de'</script><div data-storeloc="${demo.server.token}" data-map="off"></div>` +
        `<script src="${demo.server.url}/widget.js"></script>`,
    )
    const page = await newPage(demo.browser, DESK)
    let down = true
    await failing(page, () => down)
    try {
      const asked = await search(page, host.url, 'Ort oder Postleitzahl')
      expect(new URL(asked).searchParams.get('unit')).toBe('km')
      const status = page.locator('.sl-status')
      await status.filter({ hasText: /40\skm um London/ }).waitFor()
      down = false
      const again = page.waitForResponse((r) => new URL(r.url()).searchParams.get('unit') === 'miles')
      await page.evaluate(`document.documentElement.lang = 'nl'`)
      await again
      await status.filter({ hasText: /winkels binnen 25\smijl van London/ }).waitFor()
      expect((await radii(page)).filter((r) => r.startsWith('*'))).toEqual(['*25 mijl'])
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
      host.stop()
    }
  })

  test("the page's language switched while the filters still fail: the unit its new language implies", async () => {
    const host = hostPage(
      `<script>document.documentElement.lang = 'de'</script><div data-storeloc="${demo.server.token}" data-map="off"></div>` +
        `<script src="${demo.server.url}/widget.js"></script>`,
    )
    const page = await newPage(demo.browser, DESK)
    await failing(page, () => true)
    try {
      await search(page, host.url, 'Ort oder Postleitzahl')
      const status = page.locator('.sl-status')
      await status.filter({ hasText: /40\skm um London/ }).waitFor()
      const again = page.waitForResponse((r) => new URL(r.url()).searchParams.get('unit') === 'miles')
      await page.evaluate(`document.documentElement.lang = 'en-US'`)
      expect(new URL((await again).url()).searchParams.get('radius')).toBe('25')
      await status.filter({ hasText: /within 25\smi of London/ }).waitFor()
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
      host.stop()
    }
  })

  test('searched while the filters are on their way, then failing: sent and said in the unit guessed', async () => {
    const page = await newPage(demo.browser, DESK)
    let release = () => {}
    const held = new Promise<void>((done) => {
      release = done
    })
    await page.route('**/filters*', async (route) => {
      await held
      await route.fulfill(FAILED)
    })
    const units: (string | null)[] = []
    page.on('request', (r) => {
      if (r.url().includes('/locations?')) units.push(new URL(r.url()).searchParams.get('unit'))
    })
    try {
      await page.goto(plainPage('de'))
      const box = page.getByRole('combobox', { name: 'Ort oder Postleitzahl' })
      await box.fill('London')
      await box.press('Enter')
      await page.locator('.sl-status').filter({ hasText: 'Suche läuft' }).waitFor()
      release()
      await page
        .locator('.sl-status')
        .filter({ hasText: /40\skm um London/ })
        .waitFor()
      expect((await radii(page)).filter((r) => r.startsWith('*'))).toEqual(['*40 km'])
      // The visitor's, and the first search the finder makes once the filters are settled: each in km.
      expect(units.length).toBeGreaterThan(0)
      expect(units.filter((u) => u !== 'km')).toEqual([])
    } finally {
      release()
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('destroyed while its search waits for the filters: no search sent', async () => {
    const host = hostPage(
      `<div id="f"></div><script src="${demo.server.url}/widget.js"></script>
      <script>window.finder = Storeloc.mount(document.querySelector('#f'), { token: '${demo.server.token}', map: false })</script>`,
    )
    const page = await newPage(demo.browser, DESK)
    let release = () => {}
    const held = new Promise<void>((done) => {
      release = done
    })
    await page.route('**/filters*', async (route) => {
      await held
      await route.fulfill(FAILED)
    })
    const searches: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/locations?')) searches.push(r.url())
    })
    try {
      await page.goto(host.url)
      const box = page.getByRole('combobox', { name: 'Town or postcode' })
      await box.fill('London')
      await box.press('Enter')
      await page.locator('.sl-status').filter({ hasText: 'Searching' }).waitFor()
      await page.evaluate('finder.destroy()')
      // Its life's end stops the filters' request too.
      await aTurnLater(page)
      expect(searches).toEqual([])
    } finally {
      release()
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
      host.stop()
    }
  })

  test("Back to a search made in the unit guessed, the filters loaded since: in the locator's", async () => {
    const page = await newPage(demo.browser, DESK)
    let down = true
    await failing(page, () => down)
    try {
      await search(page, plainPage('de'), 'Ort oder Postleitzahl')
      const status = page.locator('.sl-status')
      await status.filter({ hasText: /40\skm um London/ }).waitFor()
      const box = page.getByRole('combobox', { name: 'Ort oder Postleitzahl' })
      await box.fill('Manchester')
      await box.press('Enter')
      await status.filter({ hasText: /40\skm um Manchester/ }).waitFor()
      down = false
      await page.getByRole('button', { name: 'Erneut versuchen' }).click()
      await status.filter({ hasText: /25\sMeilen um Manchester/ }).waitFor()
      const again = page.waitForResponse('**/locations?*')
      await page.goBack()
      expect(new URL((await again).url()).searchParams.get('unit')).toBe('miles')
      await status.filter({ hasText: /25\sMeilen um London/ }).waitFor()
      expect((await radii(page)).filter((r) => r.startsWith('*'))).toEqual(['*25 Meilen'])
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('searched before the filters answer, no unit on the page: the stores asked once, in theirs', async () => {
    const page = await newPage(demo.browser, DESK)
    const release = await heldUntilReleased(page, '**/filters*')
    const stores = requestsOf(page, (url) => new URL(url).pathname.endsWith('/locations'))
    try {
      await page.goto(plainPage())
      // Shown without its filters after a while: searched then, the unit not known yet.
      const box = page.getByRole('combobox', { name: 'Town or postcode' })
      await box.fill('London')
      await box.press('Enter')
      await sentNow(page)
      expect(stores.sent.length).toBe(0)
      release()
      await page
        .locator('.sl-status')
        .filter({ hasText: /stores within 25\smi of London/ })
        .waitFor()
      await stores.settled()
      await sentNow(page)
      expect(stores.sent.map((r) => new URL(r.url()).searchParams.get('unit'))).toEqual(['miles'])
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })
})
