// A form posted by Chromium in the charset its accept-charset names: it sends a _charset_ field
// naming that charset (RFC 7578 4.6), and its text in it. Forms are read in UTF-8 only: one in
// another charset is refused by that charset's name, and nothing is stored.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { makeEnv, type TestEnv } from '../helpers'
import { chromiumPath, launch, newPage } from './browser'

const ORIGIN = 'http://stores.test'
let browser: Browser
let env: TestEnv

beforeAll(async () => {
  if (chromiumPath !== null) browser = await launch()
}, 60_000)
afterAll(async () => {
  await browser?.close()
})
beforeEach(() => {
  env = makeEnv()
})
afterEach(() => env.close())

/** A page in UTF-8 whose form posts a location as `enctype`, in `charset`, with a _charset_ field. */
const formPage = (enctype: string, charset: string, name: string) =>
  `<!doctype html><meta charset="utf-8"><form method="post" action="/save" enctype="${enctype}" accept-charset="${charset}">
<input type="hidden" name="_charset_"><input name="name" value="${name}"><input name="address" value="1 Rue">
<input name="coordinates[lat]" value="48.87"><input name="coordinates[lng]" value="2.33"><button>Save</button></form>`

/** The service's answer to the form of formPage as Chromium submits it, the API key added on its way. */
async function submitted(enctype: string, charset: string, name: string) {
  const page = await newPage(browser)
  try {
    await page.route(`${ORIGIN}/**`, async (route) => {
      const request = route.request()
      if (request.method() !== 'POST')
        return route.fulfill({
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: formPage(enctype, charset, name),
        })
      const res = await env.app.handle(
        new Request('http://localhost/admin/v1/locations', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${env.key}`,
            'content-type': (await request.allHeaders())['content-type']!,
          },
          body: request.postDataBuffer(),
        }),
      )
      await route.fulfill({
        status: res.status,
        headers: { 'content-type': 'application/json' },
        body: await res.text(),
      })
    })
    const answer = page.waitForResponse((res) => res.request().method() === 'POST')
    await page.goto(`${ORIGIN}/form`)
    await page.locator('button').click()
    const res = await answer
    const body = (await res.json()) as { message?: string; location?: { name: string } }
    return { status: res.status(), message: body.message, name: body.location?.name }
  } finally {
    await page.close()
  }
}

const count = () => env.store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM locations').get()!.n

describe.skipIf(chromiumPath === null)("a form's charset as Chromium sends it", () => {
  for (const enctype of ['multipart/form-data', 'application/x-www-form-urlencoded'])
    test(`${enctype}: windows-1252 is refused by its name; UTF-8 is read`, async () => {
      expect(await submitted(enctype, 'windows-1252', 'Café')).toEqual({
        status: 400,
        message:
          'The form body could not be read: its _charset_ field says its text is in the charset "windows-1252", and form bodies are read as UTF-8 only. Send it encoded as UTF-8 (in HTML, a page in UTF-8 or <form accept-charset="UTF-8">), or send JSON.',
        name: undefined,
      })
      expect(count()).toBe(0)
      expect(await submitted(enctype, 'UTF-8', 'Café')).toEqual({ status: 201, message: undefined, name: 'Café' })
    })
})
