// POST /admin/v1/locations/bulk with a CSV week cell: the days' hours as stored, or the line's
// refusal quoting the cell, for cells whose reading turns on a note, a clock or a closing alone.
import { describe, expect, test } from 'bun:test'
import { setLocatorSettings } from '../../src/operator'
import { makeEnv } from '../helpers'
import { all, BULK, bulk, csv, useBulkEnv } from './bulk-fixture'

useBulkEnv()

/** The stored hours of a row with `cell` in its hours column, or the messages its line is refused with. */
async function imported(cell: string): Promise<Record<string, string> | string[]> {
  const res = await csv(`external_id,name,address,lat,lng,hours\nA,Shop,1 Main St,40,-3,"${cell}"\n`)
  if (res.status !== 200) return res.body.details['line 2.hours']
  return (await all())[0].hours
}

describe('week cells through the bulk import', () => {
  test("a 24-hour closing before a day's opening is refused as such, not as past midnight", async () => {
    expect(await imported('Mo-Fr 9-18, Do bis 6')).toEqual([
      'line 2 (external_id "A"): "Mo-Fr 9-18, Do bis 6" could not be read as a week of opening hours: its "Do bis 6" closes at 06:00, not after the last opening of that day\'s hours before it ("9-18"). Write the day\'s hours whole, such as "Do 09:00-HH:MM", HH:MM the hour it closes.',
    ])
    // The day is named as the cell names it, so the example is read when followed in any language.
    expect(String(await imported("Lun-Ven 9-18, Jeu jusqu'à 6"))).toContain('such as "Jeu 09:00-HH:MM"')
    expect(await imported('Lun-Ven 9-18, Jeu 09:00-20:00')).toMatchObject({ thursday: '09:00-20:00' })
    // A closing by 06:00 within 8 hours of the day's last closing is past midnight.
    expect(String(await imported('Mo-Fr 11-23, Fr bis 2'))).toContain('"Fr bis 2" closes at 02:00, past midnight')
    expect(String(await imported('Mo-Fr 16-21, Fr bis 2'))).toContain('"Fr bis 2" closes at 02:00, past midnight')
  })

  test('one-letter days beside a.m. and p.m. with dots: no "m" of "p.m." is a day', async () => {
    const weekdays = (hours: string) => ({
      ...Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, hours])),
      saturday: 'closed',
      sunday: 'closed',
    })
    expect(await imported('M-F 9 a.m.-5 p.m.')).toEqual(weekdays('9 a.m.-5 p.m.'))
    expect(await imported('L-V 10 a. m.-6 p. m.')).toEqual(weekdays('10 a. m.-6 p. m.'))
    // "S-S", as American signs write Saturday to Sunday, makes up no closed Sunday.
    expect(await imported('M-F 7 a.m.-7 p.m. S-S 8 a.m.-5 p.m.')).toEqual({
      ...weekdays('7 a.m.-7 p.m.'),
      saturday: '8 a.m.-5 p.m.',
      sunday: '8 a.m.-5 p.m.',
    })
    expect(await imported('M-F 9-5, Sa-S 10-4')).toMatchObject({ saturday: '10-4', sunday: '10-4' })
  })

  test('"hasta las 12" after hours in a.m. and p.m. that open before noon could be noon or midnight: refused', async () => {
    expect(await imported('Lun-Vie 10 a.m.-6 p.m., Mié hasta las 12')).toEqual([
      'line 2 (external_id "A"): "Lun-Vie 10 a.m.-6 p.m., Mié hasta las 12" could not be read as a week of opening hours: its "Mié hasta las 12" could be noon or midnight beside that day\'s hours before it ("10 a.m.-6 p.m."). Write the day\'s hours whole, such as "Mié 10:00-24:00".',
    ])
    // Written as the message says, the day named as the cell names it, it is read.
    expect(await imported('Lun-Vie 10 a.m.-6 p.m., Mié 10:00-24:00')).toMatchObject({ wednesday: '10:00-24:00' })
    expect(String(await imported('Lun-Vie 10 a.m.-6 p.m., Mié hasta las 12:00'))).toContain(
      '"Mié hasta las 12:00" could be noon or midnight',
    )
    // On the 24-hour clock "12" is noon.
    expect(await imported('Lun-Vie 10-18, Mié hasta las 12')).toMatchObject({ wednesday: '10:00-12:00' })
  })

  test('"Mo-Sa 11-2": the afternoon, or a night as the 24-hour clock its days name writes it? Refused', async () => {
    expect(await imported('Mo-Sa 11-2')).toEqual([
      'line 2 (external_id "A"): "Mo-Sa 11-2" could not be read as a week of opening hours: its "Mo-Sa 11-2" could be 11:00-14:00 or 11:00-02:00: its days are named as the 24-hour clock\'s languages name them, where "2" is 02:00. Write "Mo-Sa 11:00-14:00" or "Mo-Sa 11:00-02:00".',
    ])
    // English days write the 12-hour clock: the afternoon. An evening opening is past midnight.
    expect(await imported('Mon-Sat 11-2')).toMatchObject({ monday: '11-2', saturday: '11-2', sunday: 'closed' })
    expect(await imported('Mo-Sa 18-2')).toMatchObject({ monday: '18-2', sunday: 'closed' })
  })
  test('"Sa 10-2" beside days on the 12-hour clock is the afternoon; beside the 24-hour clock refused', async () => {
    expect(await imported('L-V 10-2 y 5-8, S 10-2')).toMatchObject({ friday: '10-2 y 5-8', saturday: '10-2' })
    expect(await imported('Mo-Fr 9-6, Sa 10-2')).toMatchObject({ friday: '9-6', saturday: '10-2', sunday: 'closed' })
    expect(await imported('Lun-Sab 9-1 e 4-8, Sab 10-1')).toMatchObject({ friday: '9-1 e 4-8', saturday: '10-1' })
    // "23" and "18" are the 24-hour clock's: "2" is 02:00 as likely as 14:00.
    expect(String(await imported('Mo-Do 11-23, Fr-Sa 11-2'))).toContain(
      'its "Fr-Sa 11-2" could be 11:00-14:00 or 11:00-02:00',
    )
    expect(String(await imported('Mo-Fr 9-18, Sa 10-2'))).toContain('its "Sa 10-2" could be 10:00-14:00 or 10:00-02:00')
    // A cell showing both clocks says neither.
    expect(String(await imported('Mo-Fr 9-6, Sa 10-2, So 11-17'))).toContain('its "Sa 10-2" could be 10:00-14:00 or')
  })
  test('"11 bis 2" and its kin in other languages are in doubt as "11-2" is: refused, both readings said', async () => {
    const cells: [string, string][] = [
      ['Mo-Sa 11 bis 2', 'Mo-Sa'],
      ['Ma-Za 11 tot 2', 'Ma-Za'],
      ['Lun-Sam 11 à 2', 'Lun-Sam'],
      ['Lun-Sáb 11 a 2', 'Lun-Sáb'],
    ]
    for (const [cell, days] of cells) {
      expect(String(await imported(cell))).toContain(
        `its "${cell}" could be 11:00-14:00 or 11:00-02:00: its days are named as the 24-hour clock's languages name them, where "2" is 02:00. Write "${days} 11:00-14:00" or "${days} 11:00-02:00".`,
      )
      // Written as the message says, it is read.
      expect(await imported(`${days} 11:00-02:00`)).toMatchObject({ monday: '11:00-02:00' })
    }
    // English days write the 12-hour clock: the afternoon.
    expect(await imported('Mon-Sat 11 to 2')).toMatchObject({ monday: '11 to 2' })
  })
})

describe('day and week cells as back offices export them', () => {
  // Seconds, dotted or not, and Colombia's noon undotted, as back offices export a day's cell.
  test('a day column with seconds or "12m" is read, with no warning', async () => {
    const res = await csv(
      'external_id,name,address,lat,lng,monday,tuesday,wednesday\nA,Shop,1 Main St,40,-3,00:00:00-23:59:59,9.00.00-18.00.00,8am-12m\n',
    )
    expect(res.status).toBe(200)
    expect(res.body.results[0].warnings).toEqual([])
  })

  // "nachts" is German whatever language names the days: Saturday closes at 02:00 either way.
  test('"Sat bis 2 nachts" beside English days closes past midnight, as "Sa bis 2 Uhr nachts" does', async () => {
    expect(await imported('Mon-Sat 9-18, Sat bis 2 nachts')).toMatchObject({ friday: '9-18', saturday: '09:00-02:00' })
    expect(await imported('Mo-Sa 9-18, Sa bis 2 Uhr nachts')).toMatchObject({ friday: '9-18', saturday: '09:00-02:00' })
  })

  // Dutch says the night "'s nachts" (of the night), written "snachts" too.
  test('Dutch "tot 2 uur \'s nachts" closes past midnight, as German "bis 2 Uhr nachts" does', async () => {
    for (const night of ["'s nachts", '’s nachts', 'snachts'])
      expect(await imported(`maandag-zaterdag 9-18, zaterdag tot 2 uur ${night}`), night).toMatchObject({
        friday: '9-18',
        saturday: '09:00-02:00',
      })
  })

  // After a morning's hours "bis 2" may close the afternoon, as spoken German says it, or the night.
  test('"Do bis 2" after hours closing at noon gives both readings', async () => {
    expect(await imported('Mo-Fr 8-12, Do bis 2')).toEqual([
      'line 2 (external_id "A"): "Mo-Fr 8-12, Do bis 2" could not be read as a week of opening hours: its "Do bis 2" could be 14:00 or 02:00, past midnight, beside that day\'s hours before it ("8-12"). Write the day\'s hours whole, such as "Do 08:00-14:00" or "Do 08:00-02:00".',
    ])
  })

  // Public holidays excepted are no day of the week: the days keep their hours, and the row's warning says so.
  test('public holidays excepted from the week are noted, in each language read', async () => {
    const cells: [string, string][] = [
      ['Mo-Fr 9-18 außer Feiertage', '"außer Feiertage"'],
      ['Lun-Ven 9h-18h sauf jours fériés', '"sauf jours fériés"'],
      ['Lun-Vie 9-18 excepto festivos', '"excepto festivos"'],
      ['Lun-Ven 9-18 festivi esclusi', '"festivi esclusi"'],
    ]
    for (const [cell, words] of cells) {
      const res = await csv(`external_id,name,address,lat,lng,hours\nA,Shop,1 Main St,40,-3,"${cell}"\n`)
      expect(res.status, cell).toBe(200)
      expect(res.body.results[0].warnings, cell).toEqual([
        `The hours ${JSON.stringify(cell)} leave out public holidays (${words}): no day of the week is one, so each keeps its hours on them. Write public holidays' hours as special dates (special_hours).`,
      ])
      expect((await all())[0].hours, cell).toMatchObject({
        friday: cell.includes('9h') ? '9h-18h' : '9-18',
        sunday: 'closed',
      })
    }
  })

  // Portuguese "exceto", Spanish and Portuguese "menos" and Dutch "uitgezonderd" before the holidays are words for except too.
  test('public holidays after Portuguese, Spanish or Dutch words for except are left out and noted', async () => {
    const cells: [string, string][] = [
      ['Seg-Sex 9-18 exceto feriados', '"exceto feriados"'],
      ['Seg-Sex 9-18 (exceto nos feriados)', '"exceto nos feriados"'],
      ['Lun-Vie 9-18 menos festivos', '"menos festivos"'],
      ['ma-vr 9-18 uitgezonderd feestdagen', '"uitgezonderd feestdagen"'],
    ]
    for (const [cell, words] of cells) {
      const res = await csv(`external_id,name,address,lat,lng,hours\nA,Shop,1 Main St,40,-3,"${cell}"\n`)
      expect(res.status, cell).toBe(200)
      expect(res.body.results[0].warnings, cell).toEqual([
        `The hours ${JSON.stringify(cell)} leave out public holidays (${words}): no day of the week is one, so each keeps its hours on them. Write public holidays' hours as special dates (special_hours).`,
      ])
      expect((await all())[0].hours, cell).toMatchObject({ monday: '9-18', friday: '9-18', sunday: 'closed' })
    }
  })

  // Holidays said closed, and Polish "oprócz" and "z wyjątkiem" before them, change no day's hours either.
  test('public holidays said closed, or after Polish words for except, are noted', async () => {
    const cells: [string, string, Record<string, string>][] = [
      ['Mo-Fr 9-18, Feiertage geschlossen', '"Feiertage geschlossen"', { friday: '9-18', saturday: 'closed' }],
      ['Mo-Sa 9-18, So. u. Feiertage geschlossen', '"Feiertage geschlossen"', { sunday: 'geschlossen' }],
      // Every word that closes a day closes the holidays too.
      ['Mo-Fr 9-18, Feiertage zu', '"Feiertage zu"', { friday: '9-18', saturday: 'closed' }],
      ['ma-vr 9-18, feestdagen dicht', '"feestdagen dicht"', { friday: '9-18', saturday: 'closed' }],
      ['Mo-Fr 9-18, Sa außer Feiertage 9-13', '"außer Feiertage"', { friday: '9-18', saturday: '9-13' }],
      ['Pn-Pt 9-17 oprócz świąt', '"oprócz świąt"', { friday: '9-17', sunday: 'closed' }],
      ['Pn-Pt 9-17, z wyjątkiem świąt', '"z wyjątkiem świąt"', { friday: '9-17', sunday: 'closed' }],
    ]
    for (const [cell, words, hours] of cells) {
      const res = await csv(`external_id,name,address,lat,lng,hours\nA,Shop,1 Main St,40,-3,"${cell}"\n`)
      expect(res.status, cell).toBe(200)
      expect(res.body.results[0].warnings, cell).toEqual([
        `The hours ${JSON.stringify(cell)} leave out public holidays (${words}): no day of the week is one, so each keeps its hours on them. Write public holidays' hours as special dates (special_hours).`,
      ])
      expect((await all())[0].hours, cell).toMatchObject(hours)
    }
  })
  // Holidays said to close at a time are not said closed: no note that leaves them out.
  test('public holidays said to close at a time are not noted as closed', async () => {
    for (const cell of ['Mon-Fri 9-5, bank holidays close 3pm', 'Mon-Fri 9-5, holidays shut at 1pm']) {
      const res = await csv(`external_id,name,address,lat,lng,hours\nA,Shop,1 Main St,40,-3,"${cell}"\n`)
      expect(res.status, cell).toBe(200)
      expect(JSON.stringify(res.body.results[0].warnings ?? []), cell).not.toContain('leave out public holidays')
    }
  })
})

describe('a French or Dutch closing written with its h or u', () => {
  test('"Lun-Sam 11h-2h" closes at 02:00, as the 24-hour clock writes 2h: open at 16:00 and past midnight', async () => {
    let now = 0
    const clocked = makeEnv({ indexUpkeep: { now: () => now } })
    try {
      setLocatorSettings(clocked.store, clocked.locatorId, { queryApi: 'on' })
      const rows = ['P,Bar P,1 Rue,48.85,2.35,"Lun-Sam 11h-2h"', 'G,Bar G,2 Straat,51.05,3.72,"ma-za 11u-2u"']
      const res = await clocked.call('POST', BULK, {
        body: `external_id,name,address,lat,lng,hours\n${rows.join('\n')}\n`,
        headers: { 'content-type': 'text/csv' },
      })
      expect(res.status).toBe(200)
      const token = clocked.store.locators.get(clocked.locatorId)!.publicToken!
      const states = async () => {
        const answer = await clocked.app.handle(new Request(`http://localhost/public/v1/${token}/locations?all=true`))
        const { locations } = ((await answer.json()) as any).data
        return Object.fromEntries(locations.map((l: any) => [l.name, [l.open_now, l.next_change]]))
      }
      now = Date.parse('2026-06-15T14:00:00Z') // Monday 16:00 in Paris and Ghent
      expect(await states()).toEqual({
        'Bar P': [true, '2026-06-16T02:00:00+02:00'],
        'Bar G': [true, '2026-06-16T02:00:00+02:00'],
      })
    } finally {
      clocked.close()
    }
  })
})

describe('hours not read, told why', () => {
  test('an hour or a minute no clock shows is named in the warning', async () => {
    const res = await csv(
      'external_id,name,address,lat,lng,Opening Hours\nA,Shop,1 Main St,40,-3,Mon-Fri 9-25\nB,Shop,2 Main St,40,-3,"Sat 9:00-12:00, 13:00-18:70"\nC,Shop,3 Main St,40,-3,Sun nine to five\n',
      '?dry_run=true',
    )
    expect(res.body.results.map((r: { warnings: string[] }) => r.warnings)).toEqual([
      [
        'Monday to Friday\'s hours "9-25" in the "Opening Hours" column could not be read as opening hours, as 25 is no hour of a day (0 to 24): it is kept, and counts as unknown (docs/management-api.md, Opening hours).',
      ],
      [
        'Saturday\'s hours "9:00-12:00, 13:00-18:70" in the "Opening Hours" column could not be read as opening hours, as 18:70 has no such minute (00 to 59): it is kept, and counts as unknown (docs/management-api.md, Opening hours).',
      ],
      [
        'Sunday\'s hours "nine to five" in the "Opening Hours" column could not be read as opening hours: it is kept, and counts as unknown (docs/management-api.md, Opening hours).',
      ],
    ])
    const json = await bulk(
      {
        locations: [
          { name: 'Shop', address: '1 Main St', coordinates: { lat: 40, lng: -3 }, hours: { monday: '8-30' } },
        ],
      },
      '?dry_run=true',
    )
    expect(json.body.results[0].warnings).toContain(
      'hours.monday "8-30" could not be read as opening hours, as 30 is no hour of a day (0 to 24): it is kept, and counts as unknown (docs/management-api.md, Opening hours).',
    )
  })
})
