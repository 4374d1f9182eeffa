// storeloc filters and priority, set from a file and shown: run as a real subprocess against a real
// database file. Every refusal is checked to have written nothing.
import { describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { dir, file, json, newLocator, snapshot, storeloc, useTempDatabase } from './settings-fixture'

useTempDatabase()

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
