// Opening hours imported from day columns of many spellings, or sent as JSON, exported as CSV and
// sent back to the bulk route change nothing (the contract): fast-check over generated hours
// cells and headers, and a table of texts the import would read otherwise.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { DAYS } from '../../src/store/locations'
import { makeEnv, type TestEnv } from '../helpers'

/** Day columns as sheets name them: short and long, in the six languages; and columns of some days. */
const HEADERS = [
  'Mo,Di,Mi,Do,Fr,Sa,So',
  'Montag,Dienstag,Mittwoch,Donnerstag,Freitag,Samstag,Sonntag',
  'Lu,Ma,Me,Je,Ve,Sa,Di',
  'lundi,mardi,mercredi,jeudi,vendredi,samedi,dimanche',
  'Lu,Ma,Mi,Ju,Vi,Sa,Do',
  'Lunes,Martes,Miércoles,Jueves,Viernes,Sábado,Domingo',
  'Lu,Ma,Me,Gi,Ve,Sa,Do',
  'ma,di,wo,do,vr,za,zo',
  'Mon,Tue,Wed,Thu,Fri,Sat,Sun',
  'Monday,Tuesday,Wednesday,Thursday,Friday,Saturday,Sunday',
  'Mo-Fr,Sa,So',
].map((h) => h.split(','))

const HOURS = [
  '9-18',
  '09:00-18:00',
  '8-12 14-18',
  '9-12, 14-18',
  '10-13',
  '5-11:30',
  '9 bis 20 Uhr',
  'bis 20',
  'till 8',
  '24h',
  'closed',
  'geschlossen',
  'fermé',
  'cerrado',
  'x',
  '-',
  'nach Vereinbarung',
  'by appointment',
]
/** Day names of every language, short and long: a note's days read otherwise under another header. */
const DAY_WORDS = ['Sa', 'Samedi', 'Samstag', 'Sat', 'Do', 'Di', 'Ma', 'Mi', 'Me', 'Je', 'lundi', 'So', 'Domingo']
const JOINERS = [', ', '; ', ' ', ' und ', ' / ']

const hours = fc.constantFrom(...HOURS)
const day = fc.constantFrom(...DAY_WORDS)
/** A day column's cell: hours, a day's note after them ("9-18, Samedi 10-13"), days with hours, or empty. */
const cell = fc.oneof(
  hours,
  fc.tuple(hours, fc.constantFrom(...JOINERS), day, hours).map(([a, j, d, b]) => `${a}${j}${d} ${b}`),
  fc.tuple(day, hours).map(([d, h]) => `${d} ${h}`),
  fc.tuple(hours, day, day, hours).map(([a, d, e, b]) => `${a}, ${d}-${e} ${b}`),
  fc.constant(''),
)
const row = fc.array(cell, { minLength: 7, maxLength: 7 })

const q = (text: string) => `"${text.replaceAll('"', '""')}"`

/** Sends a CSV to the bulk route; its answer. */
async function sendCsv(env: TestEnv, text: string, query = '') {
  return env.call('POST', `/admin/v1/locations/bulk${query}`, { body: text, headers: { 'content-type': 'text/csv' } })
}

/** Imports the rows under `headers`, leaving out the rows the import refuses; how many it wrote. */
async function importRows(env: TestEnv, headers: string[], rows: string[][]): Promise<number> {
  const lines = rows.map((cells, k) =>
    [`P${k}`, `Store ${k}`, '1 Main St', 40 + k / 100, -3 - k / 100, ...cells.slice(0, headers.length).map(q)].join(
      ',',
    ),
  )
  const csv = (kept: string[]) => `external_id,name,address,lat,lng,${headers.join(',')}\r\n${kept.join('\r\n')}\r\n`
  const tried = await sendCsv(env, csv(lines), '?dry_run=true')
  // A refusal names each line ("line 3.hours"): those rows have no hours to send back.
  const refused = new Set(Object.keys(tried.body.details ?? {}).map((key) => Number(/^line (\d+)/.exec(key)![1]) - 2))
  const kept = lines.filter((_, k) => !refused.has(k))
  if (kept.length === 0) return 0
  const res = await sendCsv(env, csv(kept))
  expect(res.status).toBe(200)
  return kept.length
}

describe('hours exported as CSV and imported again', () => {
  test('change nothing, whatever day columns they were first read from (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...HEADERS),
        fc.array(row, { minLength: 1, maxLength: 30 }),
        async (headers, rows) => {
          const env = makeEnv()
          try {
            const written = await importRows(env, headers, rows)
            const exported = await env.app.handle(
              new Request('http://localhost/admin/v1/locations/export?format=csv', {
                headers: { authorization: `Bearer ${env.key}` },
              }),
            )
            const back = await sendCsv(env, await exported.text(), '?dry_run=true')
            expect(back.status).toBe(200)
            const changed = back.body.results.filter((r: { action: string }) => r.action !== 'unchanged')
            expect(changed).toEqual([])
            expect(back.body.unchanged).toBe(written)
          } finally {
            env.close()
          }
        },
      ),
      { numRuns: 20 },
    )
  }, 180_000)

  test('sent as JSON, texts the import reads otherwise come back as sent, in each separator', async () => {
    // Notes of other days' hours, a formula's signs, quotes first, dates, Excel's times, mojibake.
    const texts = [
      '9-18, Sa 10-13',
      '9-18, Samedi 10-13',
      '9-18 Uhr, Do bis 20',
      'Mo-Fr 9-18; Sa 10-13',
      'Sa 10-13',
      '5-11:30',
      "'",
      "'9-18",
      '=9-18',
      '-9-18',
      '- 9-18',
      'x',
      '–',
      '2026-12-24',
      '1899-12-30 09:00:00',
      '0.375',
      'GeschÃ¤ft 9-18',
      '9-18\n10-12',
    ]
    const env = makeEnv()
    try {
      const locations = texts.flatMap((text, i) => [
        { external_id: `A${i}`, hours: { monday: text, tuesday: '9-18' } },
        { external_id: `B${i}`, hours: { monday: text, tuesday: '', saturday: '' } },
        { external_id: `C${i}`, hours: Object.fromEntries(DAYS.map((d) => [d, text])) },
      ])
      const sent = locations.map((l, k) => ({
        ...l,
        name: `Store ${k}`,
        address: '1 Main St',
        coordinates: { lat: 40 + k / 100, lng: -3 - k / 100 },
      }))
      expect((await env.call('POST', '/admin/v1/locations/bulk', { body: { locations: sent } })).status).toBe(200)
      for (const separator of ['%2C', '%3B', 'tab']) {
        const exported = await env.app.handle(
          new Request(`http://localhost/admin/v1/locations/export?format=csv&separator=${separator}`, {
            headers: { authorization: `Bearer ${env.key}` },
          }),
        )
        const back = await sendCsv(env, await exported.text(), '?dry_run=true')
        const changed = back.body.results.filter((r: { action: string }) => r.action !== 'unchanged')
        expect(changed).toEqual([])
        expect(back.body.unchanged).toBe(sent.length)
      }
    } finally {
      env.close()
    }
  })
})
