// A store's phone in the finder's list, in a real browser: its "Call" link dials the number as
// written, but for the "(0)" after a calling code, which is dialled only from inside the country.
import { beforeAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner } from '../helpers'
import { chromiumPath, newPage } from './browser'
import { useDemoBrowser } from './server'

const demo = useDemoBrowser()
const { json } = cliRunner(() => demo.server.dbPath)

let token = ''

beforeAll(() => {
  if (chromiumPath === null) return
  const made = json('locator', 'create', '--name', 'Radhaus')
  json('locator', 'set', made.locator.id, '--query-api', 'on', '--unit', 'km', '--language', 'de')
  const file = join(demo.server.dir, 'phones.csv')
  writeFileSync(
    file,
    '\ufeffFiliale;Name;Ort;Land;Breitengrad;Längengrad;Telefon\r\n' +
      '001;Radhaus Wien;Wien;Österreich;48,2049;16,3713;+43 (0)1 123450\r\n' +
      '002;Radhaus Favoriten;Wien;Österreich;48,1741;16,3768;01 6041234\r\n',
  )
  json('locations', 'import', made.locator.id, '--file', file)
  token = made.locator.public_token
}, 60_000)

describe.skipIf(chromiumPath === null)("a store's call link, in Chromium", () => {
  test('leaves out the "(0)" after a calling code, and keeps a number without one as written', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${token}?sl_place=Wien`)
      await page.locator('.sl-item').nth(1).waitFor()
      const call = (number: string) => page.getByRole('link', { name: `Anrufen ${number}` }).getAttribute('href')
      expect(await call('+43 (0)1 123450')).toBe('tel:+431123450')
      expect(await call('01 6041234')).toBe('tel:016041234')
    } finally {
      await page.close()
    }
  }, 30_000)
})
