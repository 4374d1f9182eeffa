// storeloc locator set / rotate-token, filters and priority: run as a real subprocess against a
// real database file. Every refusal is checked to have written nothing.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PUBLIC_TOKEN } from '../../src/core/ids'
import { openStore } from '../../src/store'
import { cliRunner, tempDir, quietApp } from '../helpers'

let dir: string
let dbPath: string

beforeEach(() => {
  dir = tempDir()
  dbPath = join(dir, 'cli.db')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const { storeloc, json } = cliRunner(() => dbPath)

/** Rows of every table a refused command could have touched, to prove it wrote nothing. */
function snapshot() {
  const store = openStore(dbPath)
  try {
    const rows = (sql: string) => store.db.query(sql).all()
    return {
      locators: rows('SELECT * FROM locators ORDER BY id'),
      filterGroups: rows('SELECT * FROM filter_groups ORDER BY locator_id, position'),
      filterTags: rows('SELECT * FROM filter_tags ORDER BY locator_id, group_id, position'),
      priority: rows('SELECT * FROM priority_rules ORDER BY locator_id, position'),
      changes: rows('SELECT count(*) AS n FROM changes'),
    }
  } finally {
    store.close()
  }
}

/** Writes `content` (JSON unless a string) to a file in the test's directory. */
function file(name: string, content: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

const newLocator = (name = 'Acme') => json('locator', 'create', '--name', name).locator

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
    expect(r.stderr).toContain('at least one of --active, --query-api')
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

const FILTERS = [
  {
    id: 'services',
    name: 'Services',
    label: 'Filter by service',
    inline: true,
    tags: [
      { value: 'wifi', label: 'Wi-Fi', color: '#1a7f37' },
      { value: 'drive-thru', label: 'Drive-thru', image: 'https://example.com/drive.png' },
    ],
  },
  { id: '_default', name: 'Other', label: 'Other', hidden: true, tags: [] },
  {
    id: 'type',
    name: 'Type',
    label: 'Type',
    singleSelect: true,
    hideInLocationDetails: true,
    tags: [{ value: 'kiosk', label: 'Kiosk', color: '#FC0' }],
  },
]

/** FILTERS as GET /filters returns them: every boolean present, absent color and image left out. */
const FILTERS_OUT = [
  {
    id: 'services',
    name: 'Services',
    label: 'Filter by service',
    singleSelect: false,
    inline: true,
    hidden: false,
    hideInLocationDetails: false,
    tags: [
      { value: 'wifi', label: 'Wi-Fi', color: '#1a7f37' },
      { value: 'drive-thru', label: 'Drive-thru', image: 'https://example.com/drive.png' },
    ],
  },
  {
    id: '_default',
    name: 'Other',
    label: 'Other',
    singleSelect: false,
    inline: false,
    hidden: true,
    hideInLocationDetails: false,
    tags: [],
  },
  {
    id: 'type',
    name: 'Type',
    label: 'Type',
    singleSelect: true,
    inline: false,
    hidden: false,
    hideInLocationDetails: true,
    tags: [{ value: 'kiosk', label: 'Kiosk', color: '#FC0' }],
  },
]

describe('filters', () => {
  test('set from a file, then show prints the groups exactly as GET /filters returns them', () => {
    const l = newLocator()
    expect(JSON.parse(storeloc('filters', 'show', l.id).stdout)).toEqual([])
    expect(json('filters', 'set', l.id, '--file', file('filters.json', FILTERS))).toEqual(FILTERS_OUT)
    const shown = storeloc('filters', 'show', l.id)
    expect(shown.code).toBe(0)
    expect(JSON.parse(shown.stdout)).toEqual(FILTERS_OUT)
    expect(json('filters', 'show', l.id)).toEqual(FILTERS_OUT)
  })

  test('a label is counted in characters, not UTF-16 units: 200 emoji are taken, 201 refused', () => {
    const l = newLocator()
    const group = (label: string) => [{ id: 'services', name: 'Services', label, tags: [] }]
    expect(json('filters', 'set', l.id, '--file', file('emoji.json', group('🛒'.repeat(200))))[0].label).toBe(
      '🛒'.repeat(200),
    )
    const r = storeloc('filters', 'set', l.id, '--file', file('emoji2.json', group('🛒'.repeat(201))))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('may be at most 200 characters')
  })

  test('names and labels with a line break, a bidi control or another invisible format character are refused, each named', () => {
    const l = newLocator()
    json('filters', 'set', l.id, '--file', file('good.json', FILTERS))
    const before = snapshot()
    const bad = [
      { id: 'a', name: 'Two\nlines', label: 'Ok', tags: [{ value: 'x', label: 'X\u2028Y' }] },
      { id: 'b', name: 'Ok', label: '\u202EdrawkcaB', tags: [{ value: 'y', label: 'zero\u200Bwidth' }] },
    ]
    const r = storeloc('filters', 'set', l.id, '--file', file('bad.json', bad))
    expect(r.code).toBe(1)
    const why =
      'may not hold line breaks, tabs, other control characters or invisible format characters (such as bidi controls); it holds'
    for (const line of [
      `filters[0].name ${why} U+000A.`,
      `filters[0].tags[0].label ${why} U+2028.`,
      `filters[1].label ${why} U+202E.`,
      `filters[1].tags[0].label ${why} U+200B.`,
    ]) {
      expect(r.stderr).toContain(line)
    }
    expect(snapshot()).toEqual(before)
    const family = [
      { id: 'a', name: '👨\u200D👩\u200D👧', label: 'Cafe\u0301', tags: [{ value: 'x', label: 'می\u200Cخواهم' }] },
    ]
    expect(json('filters', 'set', l.id, '--file', file('family.json', family))[0]).toMatchObject({
      name: '👨\u200D👩\u200D👧',
      label: 'Caf\u00e9',
      tags: [{ value: 'x', label: 'می\u200Cخواهم' }],
    })
  })

  test('a file saved with a byte order mark is read', () => {
    const l = newLocator()
    expect(json('filters', 'set', l.id, '--file', file('bom.json', `\ufeff${JSON.stringify(FILTERS)}`))).toEqual(
      FILTERS_OUT,
    )
  })

  test('show output fed back to set changes nothing (round trip), and strings are trimmed', () => {
    const l = newLocator()
    const padded = [
      { ...FILTERS[0], name: '  Services ', tags: [{ value: ' wifi ', label: 'Wi-Fi', color: '#1a7f37' }] },
    ]
    const set = json('filters', 'set', l.id, '--file', file('padded.json', padded))
    expect(set[0].name).toBe('Services')
    expect(set[0].tags[0].value).toBe('wifi')
    const path = file('shown.json', storeloc('filters', 'show', l.id).stdout)
    expect(json('filters', 'set', l.id, '--file', path)).toEqual(set)
  })

  test('set replaces the whole configuration; human output counts groups and tags', () => {
    const l = newLocator()
    json('filters', 'set', l.id, '--file', file('a.json', FILTERS))
    const r = storeloc(
      'filters',
      'set',
      l.id,
      '--file',
      file('b.json', [{ id: 'only', name: 'Only', label: 'Only', tags: [{ value: 'x', label: 'X' }] }]),
    )
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`Set 1 filter group(s) with 1 tag(s) on ${l.id}.`)
    expect(json('filters', 'show', l.id)).toEqual([
      {
        id: 'only',
        name: 'Only',
        label: 'Only',
        singleSelect: false,
        inline: false,
        hidden: false,
        hideInLocationDetails: false,
        tags: [{ value: 'x', label: 'X' }],
      },
    ])
    expect(snapshot().filterTags).toHaveLength(1)
    json('filters', 'set', l.id, '--file', file('empty.json', []))
    expect(json('filters', 'show', l.id)).toEqual([])
  })

  const g = (over: Record<string, unknown>) => ({ id: 'g', name: 'G', label: 'G', tags: [], ...over })
  const refusals: [unknown, string][] = [
    [{ filters: FILTERS }, 'filters must be an array'],
    [[g({ name: undefined })], 'filters[0].name is required.'],
    [[g({ label: '' })], 'filters[0].label must not be empty.'],
    [[g({ inline: 'yes' })], 'filters[0].inline must be a boolean'],
    [[g({ colour: 'red' })], 'filters[0].colour is not a known field'],
    [[g({ id: 'has space' })], 'filters[0].id must be 1 to 64 letters, digits, _ or -'],
    [[g({ tags: 'wifi' })], 'filters[0].tags must be an array'],
    [[g({ tags: [{ value: 'wifi' }] })], 'filters[0].tags[0].label is required.'],
    [[g({ tags: [{ value: 'wifi', label: 'W', color: 'green' }] })], 'filters[0].tags[0].color must be a hex colour'],
    [[g({ tags: [{ value: 'wifi', label: 'W', color: '#12345' }] })], 'filters[0].tags[0].color must be a hex colour'],
    [
      [g({ tags: [{ value: 'wifi', label: 'W', image: 'icons/wifi.png' }] })],
      'filters[0].tags[0].image must be a full URL',
    ],
    [
      [g({ tags: [{ value: 'wifi', label: 'W', image: 'ftp://example.com/w.png' }] })],
      'filters[0].tags[0].image must be a full URL',
    ],
    [[g({ id: 'a' }), g({ id: 'a' })], 'filters[1].id "a" is already the id of filters[0]'],
    [
      [g({ id: 'a', tags: [{ value: 'WiFi', label: 'W' }] }), g({ id: 'b', tags: [{ value: 'wifi', label: 'w' }] })],
      'filters[1].tags[0].value "wifi" is already used at filters[0].tags[0]',
    ],
    [
      [
        g({
          tags: [
            { value: 'x', label: 'X' },
            { value: 'X', label: 'X' },
          ],
        }),
      ],
      'unique within a locator, ignoring case',
    ],
  ]

  test('a bad file is refused with the path of each problem, exit 1, and the old filters kept', () => {
    const l = newLocator()
    json('filters', 'set', l.id, '--file', file('good.json', FILTERS))
    const before = snapshot()
    refusals.forEach(([content, message], i) => {
      const r = storeloc('filters', 'set', l.id, '--file', file(`bad-${i}.json`, content))
      expect({ i, code: r.code }).toEqual({ i, code: 1 })
      expect(r.stderr).toContain('The filters were not changed')
      expect(r.stderr).toContain(message)
    })
    expect(snapshot()).toEqual(before)
    expect(json('filters', 'show', l.id)).toEqual(FILTERS_OUT)
  })

  test('every problem is listed at once', () => {
    const l = newLocator()
    const r = storeloc(
      'filters',
      'set',
      l.id,
      '--file',
      file('bad.json', [g({ name: '' }), g({ id: 'b', label: 3, tags: [{ value: 'x', label: 'X', color: 'red' }] })]),
    )
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('filters[0].name must not be empty.')
    expect(r.stderr).toContain('filters[1].label must be a string; got 3.')
    expect(r.stderr).toContain('filters[1].tags[0].color must be a hex colour such as #1a7f37 or #fff; got "red".')
  })

  test('a missing file, a file that is not JSON, or a directory is refused with a clear message', () => {
    const l = newLocator()
    json('filters', 'set', l.id, '--file', file('good.json', FILTERS))
    const before = snapshot()
    const missing = storeloc('filters', 'set', l.id, '--file', join(dir, 'nope.json'))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain(`No file ${join(dir, 'nope.json')}.`)
    const notJson = storeloc('filters', 'set', l.id, '--file', file('broken.json', '[{"id": "a",'))
    expect(notJson.code).toBe(1)
    expect(notJson.stderr).toContain('broken.json is not valid JSON')
    mkdirSync(join(dir, 'folder'))
    const folder = storeloc('filters', 'set', l.id, '--file', join(dir, 'folder'))
    expect(folder.code).toBe(1)
    expect(folder.stderr).toContain('is a directory')
    expect(snapshot()).toEqual(before)
  })

  test('usage errors: no --file, no locator id; an unknown locator is refused', () => {
    const l = newLocator()
    const before = snapshot()
    const noFile = storeloc('filters', 'set', l.id)
    expect(noFile.code).toBe(2)
    expect(noFile.stderr).toContain('--file is required')
    expect(storeloc('filters', 'show').code).toBe(2)
    expect(storeloc('filters', 'set', '--file', file('f.json', FILTERS)).code).toBe(2)
    const unknown = storeloc('filters', 'set', 'lct_nope', '--file', file('f.json', FILTERS))
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('No locator "lct_nope"')
    expect(storeloc('filters', 'show', 'lct_nope').code).toBe(1)
    expect(snapshot()).toEqual(before)
  })
})

describe('priority', () => {
  test('set from a file and show, in rank order; duplicate ids are dropped', () => {
    const l = newLocator()
    json('custom-field', 'add', l.id, '--id', 'tier', '--name', 'Tier', '--type', 'text')
    expect(JSON.parse(storeloc('priority', 'show', l.id).stdout)).toEqual([])
    const rules = [
      { ids: ['loc_b2', 'loc_a1', 'loc_b2'] },
      { tag: ' Flagship ' },
      { custom_field: 'tier', value: 'gold' },
    ]
    const expected = [{ ids: ['loc_b2', 'loc_a1'] }, { tag: 'Flagship' }, { custom_field: 'tier', value: 'gold' }]
    expect(json('priority', 'set', l.id, '--file', file('rules.json', rules))).toEqual(expected)
    const shown = storeloc('priority', 'show', l.id)
    expect(shown.code).toBe(0)
    expect(JSON.parse(shown.stdout)).toEqual(expected)
    const human = storeloc('priority', 'set', l.id, '--file', file('one.json', [{ tag: 'kiosk' }]))
    expect(human.stdout).toContain(`Set 1 priority rule(s) on ${l.id}.`)
    expect(json('priority', 'show', l.id)).toEqual([{ tag: 'kiosk' }])
  })

  const refusals: [unknown, string][] = [
    [{ tag: 'x' }, 'must be a JSON array in rank order'],
    [['flagship'], 'priority[0] must be an object'],
    [[{}], 'priority[0] is not a rule'],
    [[{ tag: 'x', ids: ['loc_a'] }], 'priority[0].ids is not allowed here'],
    [[{ tag: 'x', value: 'y' }], 'priority[0].value is not allowed here'],
    [[{ custom_field: 'tier' }], 'priority[0].value is required.'],
    [[{ value: 'gold' }], 'priority[0].custom_field is required.'],
    [
      [{ custom_field: 'colour', value: 'red' }],
      'priority[0].custom_field "colour" is not a custom field of this locator (tier)',
    ],
    [[{ tag: '' }], 'priority[0].tag must not be empty.'],
    [[{ tag: 5 }], 'priority[0].tag must be a string'],
    [[{ ids: [] }], 'priority[0].ids must have at least 1 item(s).'],
    [[{ ids: ['store-1'] }], 'priority[0].ids[0] must be a location id such as loc_'],
    [[{ ids: 'loc_a' }], 'priority[0].ids must be an array'],
    [[{ tag: 'ok' }, { ids: ['LOC_A'] }], 'priority[1].ids[0] must be a location id'],
  ]

  test('a bad rule is refused with its position, exit 1, and the old rules kept', () => {
    const l = newLocator()
    json('custom-field', 'add', l.id, '--id', 'tier', '--name', 'Tier', '--type', 'text')
    json('priority', 'set', l.id, '--file', file('good.json', [{ tag: 'kiosk' }]))
    const before = snapshot()
    refusals.forEach(([content, message], i) => {
      const r = storeloc('priority', 'set', l.id, '--file', file(`bad-${i}.json`, content))
      expect({ i, code: r.code }).toEqual({ i, code: 1 })
      expect(r.stderr).toContain('The priority rules were not changed')
      expect(r.stderr).toContain(message)
    })
    expect(snapshot()).toEqual(before)
    expect(json('priority', 'show', l.id)).toEqual([{ tag: 'kiosk' }])
  })

  test('a custom field rule needs the field defined on that locator', () => {
    const a = newLocator('A')
    const b = newLocator('B')
    json('custom-field', 'add', a.id, '--id', 'tier', '--name', 'Tier', '--type', 'text')
    const r = storeloc('priority', 'set', b.id, '--file', file('rules.json', [{ custom_field: 'tier', value: 'gold' }]))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('is not a custom field of this locator (none are defined)')
    expect(
      json('priority', 'set', a.id, '--file', file('rules.json', [{ custom_field: 'tier', value: 'gold' }])),
    ).toEqual([{ custom_field: 'tier', value: 'gold' }])
  })

  test('missing or broken files, missing --file and unknown locators are refused', () => {
    const l = newLocator()
    const before = snapshot()
    expect(storeloc('priority', 'set', l.id, '--file', join(dir, 'nope.json')).stderr).toContain('No file')
    const broken = storeloc('priority', 'set', l.id, '--file', file('broken.json', 'tag: kiosk'))
    expect(broken.code).toBe(1)
    expect(broken.stderr).toContain('is not valid JSON')
    expect(storeloc('priority', 'set', l.id).code).toBe(2)
    expect(storeloc('priority', 'show').code).toBe(2)
    expect(storeloc('priority', 'set', 'lct_nope', '--file', file('r.json', [])).code).toBe(1)
    expect(storeloc('priority', 'show', 'lct_nope').code).toBe(1)
    expect(snapshot()).toEqual(before)
  })
})
