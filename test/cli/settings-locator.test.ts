// storeloc locator set and locator rotate-token: run as a real subprocess against a real database
// file. Every refusal is checked to have written nothing.
import { describe, expect, test } from 'bun:test'
import { PUBLIC_TOKEN } from '../../src/core/ids'
import { openStore } from '../../src/store'
import { quietApp } from '../helpers'
import { dbPath, json, newLocator, snapshot, storeloc, useTempDatabase } from './settings-fixture'

useTempDatabase()

describe('locator set', () => {
  test('sets every option, prints the updated locator and stores it', () => {
    const l = newLocator()
    const out = json(
      'locator',
      'set',
      l.id,
      '--query-api',
      'on',
      '--referrers',
      'Example.com, *.shop.example.com,example.com',
      '--radius',
      '12.5',
      '--unit',
      'km',
      '--rate-limit',
      '250',
    )
    expect(out).toEqual({
      ...l,
      query_api_enabled: true,
      referrers: ['example.com', '*.shop.example.com'],
      default_radius: 12.5,
      default_unit: 'km',
      rate_limit: 250,
    })
    const shown = json('locator', 'show', l.id)
    expect(shown).toMatchObject({
      query_api_enabled: true,
      referrers: ['example.com', '*.shop.example.com'],
      default_radius: 12.5,
      default_unit: 'km',
      rate_limit: 250,
    })
  })

  test('changes only the options given; empty referrers and radius clear them', () => {
    const l = newLocator()
    json('locator', 'set', l.id, '--referrers', 'a.example.com', '--radius', '5', '--query-api', 'on')
    const unit = json('locator', 'set', l.id, '--unit', 'km')
    expect(unit).toMatchObject({
      referrers: ['a.example.com'],
      default_radius: 5,
      default_unit: 'km',
      query_api_enabled: true,
      rate_limit: 1000,
    })
    const cleared = json('locator', 'set', l.id, '--referrers', '', '--radius', '')
    expect(cleared).toMatchObject({ referrers: [], default_radius: null, default_unit: 'km', query_api_enabled: true })
    expect(json('locator', 'set', l.id, '--query-api', 'off').query_api_enabled).toBe(false)
  })

  test('--name renames the locator, trimmed; the rest stays as it was', () => {
    const l = newLocator()
    json('locator', 'set', l.id, '--query-api', 'on')
    expect(json('locator', 'set', l.id, '--name', '  Acme Stores  ')).toMatchObject({
      name: 'Acme Stores',
      query_api_enabled: true,
    })
    expect(json('locator', 'list').find((x: { id: string }) => x.id === l.id).name).toBe('Acme Stores')
  })

  test('--public-external-id on|off says whether the Query API shows external ids; anything else is refused', () => {
    const l = newLocator()
    expect(l.public_external_id).toBe(false)
    expect(json('locator', 'set', l.id, '--public-external-id', 'on').public_external_id).toBe(true)
    expect(json('locator', 'show', l.id).public_external_id).toBe(true)
    expect(json('locator', 'set', l.id, '--public-external-id', 'off').public_external_id).toBe(false)
    const bad = storeloc('locator', 'set', l.id, '--public-external-id', 'yes')
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('--public-external-id must be on or off')
  })

  test("--language sets its pages' language, any case; '' gives them back to English; the pages follow", async () => {
    const l = newLocator()
    expect(l.language).toBeNull()
    expect(json('locator', 'set', l.id, '--language', 'DE', '--query-api', 'on').language).toBe('de')
    expect(json('locator', 'show', l.id).language).toBe('de')
    expect(json('locator', 'list').find((x: { id: string }) => x.id === l.id).language).toBe('de')
    expect(storeloc('locator', 'show', l.id).stdout).toMatch(/language:\s+de/)
    const store = openStore(dbPath)
    try {
      const app = quietApp(store)
      const finder = async (query = '') =>
        /<html lang="([^"]*)">/.exec(
          await (await app.handle(new Request(`http://localhost/l/${l.public_token}${query}`))).text(),
        )?.[1]
      expect(await finder()).toBe('de')
      expect(await finder('?lang=en')).toBe('en')
      expect(json('locator', 'set', l.id, '--language', '').language).toBeNull()
      expect(await finder()).toBe('en')
    } finally {
      store.close()
    }
    expect(storeloc('locator', 'show', l.id).stdout).toMatch(/language:\s+-/)
  })

  test('human output describes the locator', () => {
    const l = newLocator()
    const r = storeloc('locator', 'set', l.id, '--rate-limit', '60')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/rate_limit:\s+60/)
    expect(r.stdout).toContain(l.id)
  })

  test('without any option it is a usage error and changes nothing', () => {
    const l = newLocator()
    const before = snapshot()
    const r = storeloc('locator', 'set', l.id)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('at least one of --name, --active, --query-api')
    expect(r.stderr).toContain('Usage: storeloc')
    expect(storeloc('locator', 'set', '--unit', 'km').code).toBe(2)
    expect(storeloc('locator', 'set', l.id, '--colour', 'red').code).toBe(2)
    expect(snapshot()).toEqual(before)
  })

  test('an option given twice is a usage error, not the last one silently kept: two --referrers do not make a list of two', () => {
    const l = newLocator()
    json('locator', 'set', l.id, '--referrers', 'shop.example.com')
    const before = snapshot()
    for (const options of [
      ['--referrers', 'a.example.com', '--referrers', 'b.example.com'],
      ['--rate-limit', '5', '--unit', 'km', '--rate-limit=7'],
    ]) {
      const r = storeloc('locator', 'set', l.id, ...options)
      expect({ options, code: r.code }).toEqual({ options, code: 2 })
      expect(r.stderr).toContain(`${options[0]} is given more than once: give it once`)
      expect(r.stderr).toContain('Usage: storeloc')
    }
    expect(snapshot()).toEqual(before)
    expect(json('locator', 'show', l.id, '--json').referrers).toEqual(['shop.example.com'])
  })

  const refusals: [string[], string][] = [
    [['--name', '  '], 'The locator name must be 1 to 200 characters.'],
    [['--name', 'x'.repeat(201)], 'The locator name must be 1 to 200 characters.'],
    [['--query-api', 'yes'], '--query-api must be on or off'],
    [['--referrers', 'https://example.com/'], 'hosts, not URLs'],
    [['--referrers', 'example.com:8080'], 'without a port'],
    [['--referrers', '[::1]'], 'an IPv6 address cannot be listed'],
    [['--referrers', '2001:db8::1'], 'an IPv6 address cannot be listed'],
    [['--referrers', '*'], 'would allow every site'],
    [['--referrers', '*.com'], 'top-level domain'],
    [['--referrers', 'ex ample.com'], 'exact hosts such as'],
    [['--referrers', 'ok.example.com,bad_host!'], 'exact hosts such as'],
    [['--radius', '0'], '--radius must be a number greater than 0 and at most 1000'],
    [['--radius', '1000.5'], '--radius must be'],
    [['--radius=-3'], '--radius must be'],
    [['--radius', 'ten'], '--radius must be'],
    // Only '' restores the default radius: blank is a mistake, as it is for --referrers.
    [
      ['--radius', ' '],
      "--radius must be a number greater than 0 and at most 1000 (in the locator's unit), or '' for the default of 25; got \" \".",
    ],
    [['--unit', 'furlongs'], '--unit must be miles or km'],
    [['--rate-limit', '0'], '--rate-limit must be a whole number'],
    [['--rate-limit', '1000001'], '--rate-limit must be a whole number'],
    [['--rate-limit', '10.5'], '--rate-limit must be a whole number'],
    [
      ['--language', 'pt'],
      "--language must be one of en, de, fr, es, it, nl, or '' for English (the pages' language when a link asks for none); got \"pt\".",
    ],
    // A region is each store's country on its page, not the locator's.
    [['--language', 'de-AT'], '--language must be one of en, de, fr, es, it, nl'],
    [['--language', 'German'], '--language must be one of'],
    [['--language', ' '], '--language must be one of'],
    // A good option beside a bad one: neither is applied.
    [['--unit', 'km', '--query-api', 'on', '--radius', '5000'], '--radius must be'],
  ]
  test('bad values are refused with a message, exit 1, and change nothing', () => {
    const l = newLocator()
    const before = snapshot()
    for (const [options, message] of refusals) {
      const r = storeloc('locator', 'set', l.id, ...options)
      expect({ options, code: r.code }).toEqual({ options, code: 1 })
      expect(r.stderr).toContain(message)
    }
    expect(snapshot()).toEqual(before)
  })

  test("a list that names no host is refused, not taken for clearing the allowlist: only '' clears it", () => {
    const l = newLocator()
    json('locator', 'set', l.id, '--referrers', 'shop.example.com')
    const before = snapshot()
    for (const list of [',', ' ', ' , ,', ',,']) {
      const r = storeloc('locator', 'set', l.id, '--referrers', list)
      expect({ list, code: r.code }).toEqual({ list, code: 1 })
      expect(r.stderr).toContain(`--referrers ${JSON.stringify(list)} names no host`)
      expect(r.stderr).toContain("--referrers ''")
    }
    expect(snapshot()).toEqual(before)
    expect(json('locator', 'set', l.id, '--referrers', '').referrers).toEqual([])
  })

  test('an international host is kept in the punycode form browsers send in Origin, and such a site is let in', async () => {
    const l = newLocator()
    const out = json(
      'locator',
      'set',
      l.id,
      '--query-api',
      'on',
      '--referrers',
      'München.de, *.bücher.example,xn--mnchen-3ya.de',
    )
    expect(out.referrers).toEqual(['xn--mnchen-3ya.de', '*.xn--bcher-kva.example'])
    const store = openStore(dbPath)
    try {
      const app = quietApp(store)
      const from = async (origin: string) =>
        (await app.handle(new Request(`http://localhost/public/v1/${l.public_token}/filters`, { headers: { origin } })))
          .status
      // new URL() gives the host as a browser sends it: https://xn--mnchen-3ya.de
      expect(await from(new URL('https://münchen.de').origin)).toBe(200)
      expect(await from(new URL('https://shop.bücher.example').origin)).toBe(200)
      expect(await from('https://munchen.de')).toBe(403)
    } finally {
      store.close()
    }
    const r = storeloc('locator', 'set', l.id, '--referrers', 'a\u200db.example')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('not a domain name')
  })

  test('the limits themselves are accepted', () => {
    const l = newLocator()
    expect(json('locator', 'set', l.id, '--radius', '1000', '--rate-limit', '1000000')).toMatchObject({
      default_radius: 1000,
      rate_limit: 1_000_000,
    })
    expect(json('locator', 'set', l.id, '--radius', '0.5', '--rate-limit', '1')).toMatchObject({
      default_radius: 0.5,
      rate_limit: 1,
    })
  })

  test('an unknown locator is refused', () => {
    newLocator()
    const before = snapshot()
    const r = storeloc('locator', 'set', 'lct_nope', '--unit', 'km')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('No locator "lct_nope"')
    expect(snapshot()).toEqual(before)
  })
})

describe('locator rotate-token', () => {
  test('prints a new token; the old one names nothing from then on', () => {
    const l = newLocator()
    const out = json('locator', 'rotate-token', l.id)
    expect(out.public_token).toMatch(PUBLIC_TOKEN)
    expect(out.public_token).not.toBe(l.public_token)
    expect(out.previous_public_token).toBe(l.public_token)
    expect(out.id).toBe(l.id)
    const store = openStore(dbPath)
    try {
      expect(store.locators.byToken(l.public_token)).toBeNull()
      expect(store.locators.byToken(out.public_token)?.id).toBe(l.id)
    } finally {
      store.close()
    }
    expect(json('locator', 'show', l.id).public_token).toBe(out.public_token)
  })

  test('human output shows the new token and says the old one stopped working', () => {
    const l = newLocator()
    const r = storeloc('locator', 'rotate-token', l.id)
    expect(r.code).toBe(0)
    const shown = json('locator', 'show', l.id).public_token
    expect(r.stdout).toContain(`New public token:  ${shown}`)
    expect(r.stdout).toContain(`old token ${l.public_token} stopped working`)
  })

  test('an unknown locator is refused; a missing id is a usage error', () => {
    newLocator()
    const before = snapshot()
    expect(storeloc('locator', 'rotate-token', 'lct_nope').code).toBe(1)
    expect(storeloc('locator', 'rotate-token').code).toBe(2)
    expect(snapshot()).toEqual(before)
  })
})
