// A store's phone in the finder's list, in a real browser: its "Call" link dials the number as
// written, but for the "(0)" after a calling code, which is dialled only from inside the country.
// A phone with no digit to dial, the store's or a phone field's, is text.
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
  json('custom-field', 'add', made.locator.id, '--id', 'hotline', '--name', 'Hotline', '--type', 'phone')
  const file = join(demo.server.dir, 'phones.csv')
  writeFileSync(
    file,
    '\ufeffFiliale;Name;Ort;Land;Breitengrad;Längengrad;Telefon;Hotline\r\n' +
      '001;Radhaus Wien;Wien;Österreich;48,2049;16,3713;+43 (0)1 123450;\r\n' +
      '002;Radhaus Favoriten;Wien;Österreich;48,1741;16,3768;01 6041234;\r\n' +
      '003;Radhaus Roma;Wien;Österreich;48,2100;16,3600;+39 (0)6 6982 1234;\r\n' +
      '004;Radhaus Service;Wien;Österreich;48,1900;16,3650;0800 123 456 #2;\r\n' +
      '005;Radhaus Messe;Wien;Österreich;48,2150;16,4050;im Laden erfragen;nach Vereinbarung\r\n',
  )
  json('locations', 'import', made.locator.id, '--file', file)
  token = made.locator.public_token
}, 60_000)

describe.skipIf(chromiumPath === null)("a store's call link, in Chromium", () => {
  test('leaves out the "(0)" after a calling code but Italy\'s, and shows a number with no digit as text', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${token}?sl_place=Wien`)
      await page.locator('.sl-item').nth(1).waitFor()
      const call = (number: string) => page.getByRole('link', { name: `Anrufen ${number}` }).getAttribute('href')
      expect(await call('+43 (0)1 123450')).toBe('tel:+431123450')
      expect(await call('01 6041234')).toBe('tel:016041234')
      // Italy's 0 is dialled from abroad too; "#" would start the URL's fragment, so it is escaped.
      expect(await call('+39 (0)6 6982 1234')).toBe('tel:+390669821234')
      expect(await call('0800 123 456 #2')).toBe('tel:0800123456%232')
      // A phone with no digit to dial is shown as written, as the store page shows it: no link.
      const item = page.locator('.sl-item', { hasText: 'Radhaus Messe' })
      expect(await item.locator('.sl-actions').textContent()).toContain('im Laden erfragen')
      expect(await item.getByRole('link', { name: /erfragen/ }).count()).toBe(0)
      expect(await item.locator('.sl-field-text').textContent()).toBe('Hotline: nach Vereinbarung')
      expect(await item.getByRole('link', { name: /Hotline/ }).count()).toBe(0)
    } finally {
      await page.close()
    }
  }, 30_000)
})
