// A page's form posted to the bulk route by Chromium, which reads no form: the advice names the
// file as Chromium named its field and file, and a ticked checkbox once, whichever of the box and
// its hidden field comes first, so the advice taken as written is a dry run.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { makeEnv, type TestEnv } from '../helpers'
import { chromiumPath, launch, newPage } from './browser'

const ORIGIN = 'http://stores.test'
const CSV = 'name,address,lat,lng\nCafe,1 Rue,48.87,2.33\n'
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

/** A form of `enctype` with a checkbox before its hidden field (ASP.NET MVC's order), and `fields`. */
const formPage = (enctype: string, fields: string) =>
  `<!doctype html><meta charset="utf-8"><form method="post" action="/bulk" enctype="${enctype}">
<input type="checkbox" name="dry_run" checked><input type="hidden" name="dry_run" value="0">
${fields}<button>Send</button></form>`

/** The bulk route's answer to the form of formPage as Chromium submits it (`file`: a file chosen for it). */
async function submitted(enctype: string, fields: string, file?: { name: string; text: string }) {
  const page = await newPage(browser)
  try {
    await page.route(`${ORIGIN}/**`, async (route) => {
      const request = route.request()
      if (request.method() !== 'POST')
        return route.fulfill({
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: formPage(enctype, fields),
        })
      const res = await env.app.handle(
        new Request('http://localhost/admin/v1/locations/bulk', {
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
    if (file !== undefined)
      await page
        .locator('input[type=file]')
        .setInputFiles({ name: file.name, mimeType: 'text/csv', buffer: Buffer.from(file.text) })
    await page.locator('button').click()
    return ((await (await answer).json()) as { message: string }).message
  } finally {
    await page.close()
  }
}

/** The bulk route's answer to CSV sent as the advice `told` says, at the path it names. */
async function taken(told: string) {
  const [, path] = /POST (\S+)\.$/.exec(told)!
  const res = await env.app.handle(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': 'text/csv' },
      body: CSV,
    }),
  )
  return [res.status, ((await res.json()) as { dry_run: boolean }).dry_run]
}

const count = () => env.store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM locations').get()!.n

describe.skipIf(chromiumPath === null)('a form posted to bulk by Chromium', () => {
  const query = ', and the field "dry_run" in the query string: POST /admin/v1/locations/bulk?dry_run=true.'

  test('a file input named with a backslash last is told as its file, and the checkbox once', async () => {
    // Chromium writes name="file\"; filename="my-shops.csv": a backslash as it is, a quote as %22.
    const told = await submitted('multipart/form-data', '<input type="file" name="file\\">', {
      name: 'my-shops.csv',
      text: CSV,
    })
    expect(told).toEndWith(
      `upload (curl -F): send the file itself as the body, with curl --data-binary @my-shops.csv -H "Content-Type: text/csv"${query}`,
    )
    expect(await taken(told)).toEqual([200, true])
    expect(count()).toBe(0)
  })

  test('an urlencoded form is told its checkbox once', async () => {
    const told = await submitted('application/x-www-form-urlencoded', '<input name="name" value="Cafe">')
    expect(told).toEndWith(query)
    expect(await taken(told)).toEqual([200, true])
    expect(count()).toBe(0)
  })
})
