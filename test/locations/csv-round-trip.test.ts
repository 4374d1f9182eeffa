// The locations CSV written and read back: every location, in every style an export is written
// in, comes back as it was (fast-check over generated locations and custom field ids).
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { readLocationsCsv } from '../../src/locations/csv'
import { type CsvLocation, type CsvStyle, writeLocationsCsv } from '../../src/locations/csv-write'
import { DAYS } from '../../src/store/locations'

describe('round trip', () => {
  // Cells are trimmed on reading, so generated strings are trimmed: what the API stores is too.
  const PIECES = [
    '"',
    '""',
    ',',
    ';',
    '\t',
    '\n',
    '\r',
    '\r\n',
    '|',
    ' ',
    'a',
    'Z',
    '0',
    '.',
    '-',
    '–',
    'x',
    'X',
    'é',
    '東京',
    '😀',
    "'",
    '=',
    '+',
    '@',
  ]
  const text = fc
    .oneof(
      fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 12 }),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
    )
    .map((s) => s.trim())
  const filled = text.filter((s) => s !== '')
  const tag = filled.filter((s) => !s.includes('|'))
  const isoDate = fc
    .tuple(fc.integer({ min: 1900, max: 2100 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
    .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`)
  // What the writer can write so: no date inside, no digit after a separator (a date there is
  // read as one), no colon first, no separator at the end (it refuses others). "x" and a dash
  // alone, which typed so mean closed, are kept too.
  const specialText = fc
    .oneof(
      filled,
      isoDate.map((d) => `${d} x`),
    )
    .filter(
      (s) =>
        !/[\s;,|]$/.test(s) && !/^:/.test(s) && !/(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)/.test(s) && !/[;,|\n]\s*\d/.test(s),
    )
  // Any text, "x" and a dash alone beside a day open too: the export marks them to keep.
  const dayText = fc.oneof(text, fc.constantFrom('09:00-17:00', '9-5', 'closed'))
  const fieldId = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/), fc.constantFrom('constructor', 'to_string'))
  // What a location's coordinates are: in range, as the API keeps them (a whole number past it
  // reads as a decimal separator lost).
  const coordinate = (max: number) => fc.double({ min: -max, max, noNaN: true })
  const keyed = <K extends string>(keys: readonly K[], value = text): fc.Arbitrary<Record<K, string>> =>
    fc.record(Object.fromEntries(keys.map((k) => [k, value]))) as fc.Arbitrary<Record<K, string>>

  // What a location keeps in a web address field: nothing, or an address with its protocol.
  const web = fc.oneof(
    fc.constant(''),
    text.map((s) => `https://${s}`),
  )

  // An export's ids are this service's (loc_...): a column of other ids beside store codes is not read.
  const locationId = fc.stringMatching(/^[0-9a-z]{1,12}$/).map((s) => `loc_${s}`)

  const locationArb: fc.Arbitrary<CsvLocation> = fc.record({
    id: locationId,
    external_id: fc.option(text),
    name: filled,
    address: filled,
    coordinates: fc.record({ lat: coordinate(90), lng: coordinate(180) }),
    description: text,
    tags: fc.array(tag, { maxLength: 4 }),
    contact: fc.record({ phone: text, email: text, website: web }),
    social: keyed(['instagram', 'facebook', 'twitter'] as const, web),
    hours: keyed(DAYS, dayText),
    special_hours: fc.dictionary(isoDate, specialText, { maxKeys: 3 }),
    timezone: text,
    custom_fields: fc.dictionary(fieldId, text, { maxKeys: 4 }),
    image_url: web,
    // What a location's status is: the writer writes it as stored.
    status: fc.constantFrom('published', 'draft'),
  })

  /** What a location's row must read as: the writer's columns, empty ids left out. */
  function expectedBody(l: CsvLocation, ids: string[]): Record<string, unknown> {
    const { id, external_id, custom_fields, ...rest } = l
    const body: Record<string, unknown> = { ...rest }
    if (id !== '') body.id = id
    if (external_id) body.external_id = external_id
    if (l.coordinates.lat === 0 && l.coordinates.lng === 0) delete body.coordinates // read as a placeholder
    if (ids.length > 0)
      body.custom_fields = Object.fromEntries(
        ids.map((k) => [k, Object.hasOwn(custom_fields, k) ? custom_fields[k] : '']),
      )
    return body
  }

  // Each style an export may be written in: plain, and for Excel with a BOM and ";" or a tab.
  const style = fc.constantFrom<CsvStyle>(
    { separator: ',', bom: false },
    { separator: ';', bom: true },
    { separator: '\t', bom: true },
  )

  test('reading what was written gives every location back, in every style', () => {
    fc.assert(
      fc.property(
        fc.array(locationArb, { maxLength: 6 }),
        fc.uniqueArray(fieldId, { maxLength: 4 }),
        style,
        (list, ids, how) => {
          const read = readLocationsCsv(writeLocationsCsv(list, ids, how))
          expect(read.unknown).toEqual([])
          expect(read.rows.map((r) => r.body)).toEqual(list.map((l) => expectedBody(l, ids)))
          const lines = read.rows.map((r) => r.line)
          expect(lines).toEqual([...lines].sort((a, b) => a - b))
          if (lines.length > 0) expect(lines[0]).toBe(2)
        },
      ),
      { numRuns: 300 },
    )
  })
})
