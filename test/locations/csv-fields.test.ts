// Locations CSV cells read into a location's fields: contact, social, custom fields, hours,
// special hours, tags and coordinates, and each cell that cannot be read a problem of its row.
import { describe, expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'
import { bodies } from './csv-read'

describe('fields', () => {
  test('empty cells leave id, external_id, name, address and status out and clear everything else', () => {
    const header = `id,external_id,name,address,status,description,image_url,tags,phone,instagram,monday,custom.wifi,lat,lng`
    expect(bodies(`${header}\n,,Shop,,,,,,,,,,,\n`)).toEqual([
      {
        name: 'Shop',
        description: '',
        image_url: '',
        tags: [],
        contact: { phone: '' },
        social: { instagram: '' },
        hours: { monday: '' },
        custom_fields: { wifi: '' },
      },
    ])
  })

  test('every column fills its place in the body', () => {
    const csv = [
      'id,store code,name,address,lat,lng,description,tags,phone,email,website,instagram,facebook,twitter,mon,tuesday,hours.sunday,image,status,custom.wifi,custom_fields.parking',
      'loc_1,S-1,Shop,1 Main St,48.85,2.35,Nice,a|b,+33 1,a@b.fr,https://a.fr,https://i.com/a,https://f.com/a,https://t.com/a,9-5,10-6,closed,https://a.fr/i.png,draft,yes,no',
    ].join('\n')
    expect(bodies(csv)).toEqual([
      {
        id: 'loc_1',
        external_id: 'S-1',
        name: 'Shop',
        address: '1 Main St',
        coordinates: { lat: 48.85, lng: 2.35 },
        description: 'Nice',
        tags: ['a', 'b'],
        contact: { phone: '+33 1', email: 'a@b.fr', website: 'https://a.fr' },
        social: { instagram: 'https://i.com/a', facebook: 'https://f.com/a', twitter: 'https://t.com/a' },
        hours: { monday: '9-5', tuesday: '10-6', sunday: 'closed' },
        image_url: 'https://a.fr/i.png',
        status: 'draft',
        custom_fields: { wifi: 'yes', parking: 'no' },
      },
    ])
  })

  test('a site, or a page with its path, without its protocol is read with https://; anything else is left for validation', () => {
    const csv = [
      'name,website,instagram,facebook,image_url',
      'A,www.cyclehub.example,instagram.com/cyclehub,,cdn.example.co.uk/a.png?w=2',
      'B,münchen.de:8080/laden,@cyclehub,http://f.example/b,HTTPS://cdn.example/b.png',
      'C,cyclehub,not a site.com,1.5,mailto:a@b.example',
      // A handle or a file name with a dot is no page: left for validation to refuse.
      'D,cycle.hub,cycle.hub,northwind.outdoor,front.jpg',
    ].join('\n')
    expect(bodies(csv).map((b) => [b.contact, b.social, b.image_url])).toEqual([
      [
        { website: 'https://www.cyclehub.example' },
        { instagram: 'https://instagram.com/cyclehub', facebook: '' },
        'https://cdn.example.co.uk/a.png?w=2',
      ],
      [
        { website: 'https://münchen.de:8080/laden' },
        { instagram: 'https://www.instagram.com/cyclehub/', facebook: 'http://f.example/b' },
        'HTTPS://cdn.example/b.png',
      ],
      [{ website: 'cyclehub' }, { instagram: 'not a site.com', facebook: '1.5' }, 'mailto:a@b.example'],
      [{ website: 'https://cycle.hub' }, { instagram: 'cycle.hub', facebook: 'northwind.outdoor' }, 'front.jpg'],
    ])
  })

  test('a handle with its @ in a social column is its profile; without the @ it may be a host, left as it is', () => {
    const csv = 'name,instagram,facebook,twitter\nA,@bean.there,@beanthere,@bean_there\nB,beanthere,@,@two words\n'
    expect(bodies(csv).map((b) => b.social)).toEqual([
      {
        instagram: 'https://www.instagram.com/bean.there/',
        facebook: 'https://www.facebook.com/beanthere',
        twitter: 'https://x.com/bean_there',
      },
      { instagram: 'beanthere', facebook: '@', twitter: '@two words' },
    ])
  })

  test('Store Locator Plus\'s "sl_additional phones" is read as Google\'s "Additional phones": the first number', () => {
    const sheet = (header: string) =>
      `Store code,Business name,Address line 1,Locality,Country/Region,${header}\nN1,North,1 Briggate,Leeds,GB,"0113 496 0000, 07700 900100"`
    expect(bodies(sheet('Additional phones'))[0]!.contact).toEqual({ phone: '0113 496 0000' })
    expect(bodies(sheet('sl_additional phones'))).toEqual(bodies(sheet('Additional phones')))
  })

  test("a column named as one of the locator's custom fields, by its name or id, fills it", () => {
    const fields = [
      { id: 'manager', name: 'Store manager' },
      { id: 'parking', name: 'Parking' },
      { id: 'wifi_code', name: 'Guest network' },
      { id: 'phone_2', name: 'Phone' },
    ]
    const read = readLocationsCsv(
      'name,Store Manager,Parking,custom.parking,WIFI-CODE,Phone,Notes\nA,Ann,free,paid,x1,+1 555,call\n',
      fields,
    )
    // "Parking" is not read: custom.parking fills that field. "Phone" is the location's phone.
    expect(read.rows[0]!.body).toEqual({
      name: 'A',
      custom_fields: { manager: 'Ann', parking: 'paid', wifi_code: 'x1' },
      contact: { phone: '+1 555' },
    })
    expect(read.unknown).toEqual(['Parking', 'Notes'])
    expect(readLocationsCsv('name,Store Manager\nA,Ann\n').unknown).toEqual(['Store Manager'])
    // An id matches before a name; a header of no words matches nothing.
    const [lot, star] = [
      { id: 'lot', name: 'Parking' },
      { id: 'star', name: '★' },
    ]
    const byId = readLocationsCsv('name,parking,#\nA,yes,1\n', [lot, { id: 'parking', name: 'Car park' }, star])
    expect(byId.rows[0]!.body.custom_fields).toEqual({ parking: 'yes' })
    expect(byId.unknown).toEqual(['#'])
  })

  test('a week of hours in one column is split into the days; a day column given wins for its day', () => {
    const read = readLocationsCsv(
      'name,address,Opening Hours,sunday\nA,1 Rd,"Mon-Fri 9-18, Sat 10-14",12-16\nB,2 Rd,Mo-Sa 08:00-20:00; So off,\nC,3 Rd,,\nD,4 Rd,Mon-Fri 9-17,\n',
    )
    expect(read.unknown).toEqual([])
    const days = (mon: string, sat: string, sun: string) => ({
      monday: mon,
      tuesday: mon,
      wednesday: mon,
      thursday: mon,
      friday: mon,
      saturday: sat,
      sunday: sun,
    })
    expect(read.rows.map((r) => [r.body.hours, r.problems])).toEqual([
      [days('9-18', '10-14', '12-16'), []],
      [{ ...days('08:00-20:00', '08:00-20:00', 'closed') }, []],
      [days('', '', ''), []], // an empty cell clears the days, as empty day cells do
      [days('9-17', 'closed', 'closed'), []], // the days a week leaves out are closed
    ])
    for (const header of ['hours', 'Store Hours', 'Öffnungszeiten', 'horaires', 'opening_hours'])
      expect(readLocationsCsv(`name,${header}\nA,Mon-Fri 9-5\n`).rows[0]!.body.hours).toMatchObject({ friday: '9-5' })
  })

  test("a day column's cell of hours and some days' own (\"9-18 Uhr, Do bis 20\") gives its day's", () => {
    const header = 'Name;Adresse;Montag;Dienstag;Mittwoch;Donnerstag;Freitag;Samstag;Sonntag'
    const hours = (cell: string) =>
      Object.values(readLocationsCsv(`${header}\nA;1 Rd${`;"${cell}"`.repeat(7)}\n`).rows[0]!.body.hours as object)
    const week = (day: string, thu: string, sat = day) => [day, day, day, thu, day, sat, day]
    expect(hours('9-18 Uhr, Do bis 20')).toEqual(week('9-18 Uhr', '09:00-20:00'))
    expect(hours('9-18 Uhr; Do. bis 20 Uhr')).toEqual(week('9-18 Uhr', '09:00-20:00'))
    expect(hours('9-18 Uhr, Do bis 20, Sa 9-14')).toEqual(week('9-18 Uhr', '09:00-20:00', '9-14'))
    expect(hours('9-18 Uhr, Sa geschlossen')).toEqual(week('9-18 Uhr', '9-18 Uhr', 'geschlossen'))
    // "Do" is no Polish "to" here: Monday is 9-18, not 09:00-20:00.
    expect(hours('9-18 Uhr, Do 9-20 Uhr')).toEqual(week('9-18 Uhr', '9-20 Uhr'))
    // More hours of the day after the comma stay the day's.
    expect(hours('9-12, 14-18')).toEqual(week('9-12, 14-18', '9-12, 14-18'))
    // The days are read beside the header: under "Domingo", "Do" may be Sunday, so it is not read.
    const es = (cell: string) =>
      Object.values(
        readLocationsCsv(
          `Nombre;Dirección;Lunes;Martes;Miércoles;Jueves;Viernes;Sábado;Domingo\nA;1 Rd${`;"${cell}"`.repeat(7)}\n`,
        ).rows[0]!.body.hours as object,
      )
    expect(es('9-20, jueves hasta las 22')).toEqual(week('9-20', '09:00-22:00'))
    expect(es('9-20, Do cerrado')).toEqual([...week('9-20', '9-20').slice(0, 6), 'cerrado'])
    expect(es('9-18, Do 10-14')).toEqual(week('9-18, Do 10-14', '9-18, Do 10-14'))
  })

  test('columns of one day each ("Mo;Di;…") read a note of some days\' own hours as day columns do', () => {
    const hours = (cell: string) =>
      Object.values(
        readLocationsCsv(`Name;Adresse;Mo;Di;Mi;Do;Fr;Sa;So\nA;1 Rd${`;"${cell}"`.repeat(5)};9-13;zu\n`).rows[0]!.body
          .hours as object,
      )
    const week = (day: string, thu: string) => [day, day, day, thu, day, '9-13', 'zu']
    expect(hours('9-18, Do bis 20')).toEqual(week('9-18', '09:00-20:00'))
    expect(hours('9-18 Uhr, Do 9-20 Uhr')).toEqual(week('9-18 Uhr', '9-20 Uhr'))
  })

  test('a column of some days ("Mo-Fr") reads a note of other days\' hours, giving a day no cell fills', () => {
    const row = (header: string, cells: string) =>
      readLocationsCsv(`Name;Adresse;${header}\nA;1 Rd;${cells}\n`).rows[0]!
    const hours = (header: string, cells: string) => Object.values(row(header, cells).body.hours as object)
    const weekdays = (day: string) => Array(5).fill(day) as string[]
    expect(hours('Mo-Fr;Sa;So', '"9-18, Sa 10-13";;zu')).toEqual([...weekdays('9-18'), '10-13', 'zu'])
    expect(row('Mo-Fr;Sa;So', '"9-18, Sa 10-13";;zu').notes).toEqual([])
    expect(hours('Mo-Fr;So', '"9-18, Sa 10-13";zu')).toEqual([...weekdays('9-18'), '10-13', 'zu'])
    expect(hours('Mo-Fr', '"9-18, Sa 10-13, So geschlossen"')).toEqual([...weekdays('9-18'), '10-13', 'geschlossen'])
    // A closing alone of one of the column's own days is read against its hours, as a day column's is.
    const thursday = ['9-18', '9-18', '9-18', '09:00-20:00', '9-18', 'closed', 'zu']
    expect(hours('Mo-Fr;Sa;So', '"9-18, Do bis 20";;zu')).toEqual(thursday)
    // Saturday's own cell is its own.
    expect(hours('Mo-Fr;Sa;So', '"9-18, Sa 10-13";9-12;zu')).toEqual([...weekdays('9-18'), '9-12', 'zu'])
  })

  test('a column of some days\' cell naming its own days first ("Mo-Fr 9-18" under "Mo-Fr") reads its hours', () => {
    const hours = (header: string, cells: string) =>
      Object.values(readLocationsCsv(`Name;Adresse;${header}\nA;1 Rd;${cells}\n`).rows[0]!.body.hours as object)
    const weekdays = (day: string) => Array(5).fill(day) as string[]
    const thursday = ['9-18', '9-18', '9-18', '09:00-20:00', '9-18', '9-13', 'zu']
    expect(hours('Mo-Fr;Sa;So', '"Mo-Fr 9-18, Do bis 20";Sa 9-13;zu')).toEqual(thursday)
    expect(hours('Mo-Fr;Sa;So', 'Mo-Fr: 9-18;9-13;zu')).toEqual([...weekdays('9-18'), '9-13', 'zu'])
    expect(hours('ma-vr;za;zo', '"ma-vr 9-18, do tot 21";9-17;gesloten')[3]).toBe('09:00-21:00')
    // Other days first, or a "'" before them: kept as written for the column's days.
    expect(hours('Mo-Fr;Sa;So', 'Mo-Do 9-18;9-13;zu')).toEqual([...weekdays('Mo-Do 9-18'), '9-13', 'zu'])
    expect(hours('Mo-Fr;Sa;So', "'Mo-Fr 9-18;9-13;zu")).toEqual([...weekdays('Mo-Fr 9-18'), '9-13', 'zu'])
    // Days read beside the others' ("Do" beside "Lu" is domingo); hours for days the column does not name.
    const spanish = hours('Lu-Vi;Sa;Do', '9-18;10-14;Late night Thursday 9am-8pm')
    expect(spanish[6]).toBe('Late night Thursday 9am-8pm')
    for (const cell of ['Sat 10-2, Daily 9-5', 'SB 24h, Mo-Fr 9-18', 'Sa 9-13, Sa vor Feiertagen geschlossen'])
      expect(hours('Mo-Fr;Sa;So', `9-18;${cell};zu`)[5]).toBe(cell)
  })

  test('a cell marked with a "\'" keeps its text without the "\'" under short headers as under long', () => {
    const monday = (header: string, cell: string) => {
      const rest = ';9-18'.repeat(header.split(';').length - 1)
      const { body } = readLocationsCsv(`Name;Adresse;${header}\nA;1 Rd;"${cell}"${rest}\n`).rows[0]!
      return (body.hours as Record<string, string>).monday
    }
    const headers = [
      'Mo;Di;Mi;Do;Fr;Sa;So',
      'Mo-Fr;Sa;So',
      'Montag;Dienstag;Mittwoch;Donnerstag;Freitag;Samstag;Sonntag',
    ]
    for (const cell of ["'nach Vereinbarung", "'-", "'x", "'9-18, Sa 10-13"])
      for (const header of headers) expect([header, monday(header, cell)]).toEqual([header, cell.slice(1)])
  })

  test("a day's column left empty takes the hours the notes give it, not closed", () => {
    const row = (sat: string, fri = '9-18, Sa 10-13') =>
      readLocationsCsv(`Name;Adresse;Mo;Di;Mi;Do;Fr;Sa;So\nA;1 Rd${';"9-18, Sa 10-13"'.repeat(4)};"${fri}";${sat};zu\n`)
        .rows[0]!
    const hours = (sat: string, fri?: string) => Object.values(row(sat, fri).body.hours as object)
    expect(hours('')).toEqual([...Array(5).fill('9-18'), '10-13', 'zu'])
    expect(row('').notes).toEqual([])
    // Its own cell's hours are its own; notes that disagree give none, and the row says so.
    expect(hours('9-14')).toEqual([...Array(5).fill('9-18'), '9-14', 'zu'])
    expect(hours('', '9-18, Sa 9-13')).toEqual([...Array(5).fill('9-18'), 'closed', 'zu'])
    expect(row('', '9-18, Sa 9-13').notes).toEqual([
      'The notes in the day columns give Saturday "10-13" and "9-13", and its own column is empty, so it is closed. Write Saturday\'s hours in its column.',
    ])
  })

  test('a day the notes give a closing alone ("Do bis 20") reads it against their first hours, else keeps it, said', () => {
    const row = (header: string, cells: string[]) =>
      readLocationsCsv(`Name;Adresse;${header}\nA;1 Rd${cells.map((c) => `;"${c}"`).join('')}\n`).rows[0]!
    const notes = (n: number) => Array(n).fill('9-18, Do bis 20') as string[]
    // As under a "Donnerstag" or "Mo-Fr" column: Thursday 09:00-20:00.
    const rows = [
      row('Mo;Di;Mi;Do;Fr;Sa;So', [...notes(3), '', ...notes(1), '9-13', 'zu']),
      row('Montag;Dienstag;Mittwoch;Donnerstag;Freitag;Samstag;Sonntag', [...notes(3), '', ...notes(1), '9-13', 'zu']),
      row('Mo-Mi;Fr;Sa;So', [...notes(1), '9-18', '9-13', 'zu']),
    ]
    for (const { body, notes } of rows) {
      expect((body.hours as Record<string, string>).thursday).toBe('09:00-20:00')
      expect((body.hours as Record<string, string>).monday).toBe('9-18')
      expect(notes).toEqual([])
    }
    // Notes of different first hours read it otherwise: the day keeps it as written, unknown, and it is said.
    const apart = row('Mo;Di;Mi;Do;Fr;Sa;So', ['8-17, Do bis 20', ...notes(2), '', ...notes(1), '9-13', 'zu'])
    expect((apart.body.hours as Record<string, string>).thursday).toBe('bis 20')
    expect(apart.notes).toEqual([
      'The notes in the day columns give Thursday "bis 20", a closing time without its opening: Thursday keeps that text, and its hours count as unknown. Write Thursday\'s hours in its column.',
    ])
    // No Thursday column and no columns of some days: the file says nothing of Thursday, which keeps its hours.
    const { body, notes: left } = row('Montag;Dienstag;Mittwoch;Freitag;Samstag;Sonntag', [...notes(4), '9-13', 'zu'])
    expect(body.hours as Record<string, string>).not.toHaveProperty('thursday')
    expect(left).toEqual([
      'The notes in the day columns give Thursday "bis 20", and the file has no column of its own, so its hours are left as they are. Write Thursday\'s hours in its column.',
    ])
  })

  test('a closing alone in a note under columns of some days fills only a day the row sets', () => {
    const row = (header: string, cells: string[]) =>
      readLocationsCsv(`Name;Adresse;${header}\nA;1 Rd${cells.map((c) => `;"${c}"`).join('')}\n`).rows[0]!
    const thursday = (header: string, cells: string[]) =>
      (row(header, cells).body.hours as Record<string, string>).thursday
    // Its own column empty: the row sets it, as the note reads it. Given hours, they are its own.
    expect(thursday('Mo-Mi;Do;Fr;Sa;So', ['9-18, Do bis 20', '', '9-18', '9-13', 'zu'])).toBe('09:00-20:00')
    expect(thursday('Mo-Mi;Do;Fr;Sa;So', ['9-18, Do bis 20', '10-14', '9-18', '9-13', 'zu'])).toBe('10-14')
    expect(thursday('Mo-Mi;Do-Fr;Sa', ['9-18, Do bis 20', '8-12', '9-13'])).toBe('8-12')
    // Columns of the weekend alone leave Thursday unset: it keeps its hours, and the note says so.
    const weekend = row('Sa;So', ['10-14, Do bis 20', 'zu'])
    expect(weekend.body.hours).toEqual({ saturday: '10-14', sunday: 'zu' })
    expect(weekend.notes).toEqual([
      'The notes in the day columns give Thursday "bis 20", and the file has no column of its own, so its hours are left as they are. Write Thursday\'s hours in its column.',
    ])
  })

  test('a note closing a day before its hours open ("13-18, Mi bis 11") makes up no evening', () => {
    const hours = (header: string, cells: string[]) =>
      readLocationsCsv(`Name;Adresse;${header}\nA;1 Rd${cells.map((c) => `;"${c}"`).join('')}\n`).rows[0]!.body
        .hours as Record<string, string>
    for (const note of ['13-18, Mi bis 12', '13-18, Mi bis 11']) {
      // A column of days keeps it as written, unread, for each of its days.
      expect(hours('Mo-Fr;Sa;So', [note, '', 'zu']).wednesday).toBe(note)
      // Wednesday's own column keeps it so; the other days read their first hours.
      const days = hours('Mo;Di;Mi;Do;Fr;Sa;So', [...Array(5).fill(note), '', 'zu'])
      expect([days.tuesday, days.wednesday, days.thursday]).toEqual(['13-18', note, '13-18'])
    }
  })

  test("a day column left empty, or none, takes the notes' hours under long headers as under short", () => {
    const row = (header: string, cells: string[]) =>
      readLocationsCsv(`Name;Adresse;${header}\nA;1 Rd${cells.map((c) => `;"${c}"`).join('')}\n`).rows[0]!
    const hours = (header: string, cells: string[]) => row(header, cells).body.hours as Record<string, string>
    const notes = (cell: string) => Array(5).fill(cell) as string[]
    const long = 'Montag;Dienstag;Mittwoch;Donnerstag;Freitag;Samstag;Sonntag'
    for (const header of [long, 'Mo;Di;Mi;Do;Fr;Sa;So', 'Mon;Tue;Wed;Thu;Fri;Sat;Sun']) {
      expect(hours(header, [...notes('9-18, Sa 10-13'), '', 'zu']).saturday).toBe('10-13')
      expect(hours(header, [...notes('9-18, Sa geschlossen'), '', 'zu']).saturday).toBe('geschlossen')
      // A day's own cell is its own, whatever the notes say.
      expect(hours(header, [...notes('9-18, Sa 10-13'), '9-12', 'zu']).saturday).toBe('9-12')
    }
    expect(hours(long.replace(';Samstag', ''), [...notes('9-18, Sa 10-13'), 'zu']).saturday).toBe('10-13')
    // Notes that disagree give none: the empty column clears the day, and the row says so.
    const differ = row(long, [...notes('9-18, Sa 10-13').slice(1), '9-18, Sa 9-13', '', 'zu'])
    expect((differ.body.hours as Record<string, string>).saturday).toBe('')
    expect(differ.notes).toEqual([
      'The notes in the day columns give Saturday "10-13" and "9-13", and its own column is empty, so its hours are unknown. Write Saturday\'s hours in its column.',
    ])
  })

  test('short headers read beside each other ("Ma" beside "Lu" is martes) read a note on its day', () => {
    const hours = (header: string, cell: string) =>
      Object.values(
        readLocationsCsv(`Name;Adresse;${header}\nA;1 Rd${`;"${cell}"`.repeat(7)}\n`).rows[0]!.body.hours as object,
      )
    // "Ma" is Tuesday whatever its language: the note's days are read beside martes, mardi and
    // martedì. Under "Do", domingo, the note's "Do" is Sunday as each of its names reads it.
    expect(hours('Lu;Ma;Me;Gi;Ve;Sa;Do', '9-19, Do chiuso')).toEqual([...Array(6).fill('9-19'), 'chiuso'])
    expect(hours('Lu;Ma;Mi;Ju;Vi;Sa;Do', '10-20, Do cerrado')).toEqual([...Array(6).fill('10-20'), 'cerrado'])
    expect(hours('Lu;Ma;Mi;Ju;Vi;Sa;Do', '9-14, Sa 10-13')).toEqual([...Array(5).fill('9-14'), '10-13', '9-14'])
    expect(hours('Lu;Ma;Me;Je;Ve;Sa;Di', '9h-19h, Sa 9h-12h')[1]).toBe('9h-19h')
    // A text not read is kept on each column's own day: no day closed for it.
    expect(hours('Lu;Ma;Me;Gi;Ve;Sa;Do', 'su appuntamento')).toEqual(Array(7).fill('su appuntamento'))
  })

  test('columns of some days\' hours ("Öffnungszeiten Mo-Fr", "Sat Hours") are read as one week', () => {
    const names = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
    const week = (...days: string[]) => Object.fromEntries(names.map((day, i) => [day, days[i]]))
    const de = readLocationsCsv(
      'Name;Adresse;Öffnungszeiten Mo-Fr;Öffnungszeiten Sa;So;Sales;Mall\nA;1 Rd;9-18;10-14;geschlossen;5;Nord\nB;2 Rd;9-18;;;;\nC;3 Rd;;;;;\n',
    )
    expect(de.unknown).toEqual(['Sales', 'Mall']) // words Spanish day letters would spell are no days
    expect(de.rows.map((r) => [r.body.hours, r.problems])).toEqual([
      [week('9-18', '9-18', '9-18', '9-18', '9-18', '10-14', 'geschlossen'), []],
      [week('9-18', '9-18', '9-18', '9-18', '9-18', 'closed', 'closed'), []], // the days left empty are closed
      [undefined, []], // no day's cell filled: the hours stay as they are
    ])
    const us = readLocationsCsv('Name,Address,Mon-Fri Hours,Sat Hours,Sunday\nA,1 Rd,9am-6pm,10am-4pm,x\n')
    expect(us.rows[0]!.body.hours).toEqual(
      week('9am-6pm', '9am-6pm', '9am-6pm', '9am-6pm', '9am-6pm', '10am-4pm', 'closed'),
    )
    // "Opening" is an hours word; "Weekday" names the days "Weekdays" does.
    for (const days of ['Opening Mon-Fri,Opening Sat,Opening Sun', 'Weekday Hours,Saturday Hours,Sunday Hours']) {
      const read = readLocationsCsv(`Name,Address,${days}\nA,1 Rd,9-18,10-14,closed\n`)
      const hours = week('9-18', '9-18', '9-18', '9-18', '9-18', '10-14', 'closed')
      expect([read.unknown, read.rows[0]!.body.hours]).toEqual([[], hours])
    }
    // A cell not read is kept as written for its column's days, as a week cell's day is.
    const [unread] = readLocationsCsv('Name;Mo-Fr;Sa\nA;9-18;nach Vereinbarung\n').rows
    expect([unread!.body.hours, unread!.problems]).toEqual([
      week('9-18', '9-18', '9-18', '9-18', '9-18', 'nach Vereinbarung', 'closed'),
      [],
    ])
  })

  test('a day beside a range of days read as hours ("Fr" by "Mo-Mi") is read, not closed', () => {
    const names = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
    const week = (...days: string[]) => Object.fromEntries(names.map((day, i) => [day, days[i]]))
    for (const header of ['Mo-Mi;Fr', 'Mo-Mi;Donnerstag;Fr', 'Mon-Wed;Fri']) {
      const cells = header.includes('Donnerstag') ? '9-18;9-20;9-16' : '9-18;9-16'
      const read = readLocationsCsv(`Name;Adresse;${header}\nA;1 Rd;${cells}\n`)
      const thursday = header.includes('Donnerstag') ? '9-20' : 'closed'
      expect([header, read.unknown, read.rows[0]!.body.hours]).toEqual([
        header,
        [],
        week('9-18', '9-18', '9-18', thursday, '9-16', 'closed', 'closed'),
      ])
    }
    // Without hours under it a lone day beside the range is no day ("PN", a part number).
    expect(readLocationsCsv('Name;Adresse;Sa-So;PN\nA;1 Rd;10-16;B7\n').unknown).toEqual(['PN'])
  })

  test('a week written day=hours (Zenlocator\'s) is read as "day: hours"; "open" alone on a day is kept, unread', () => {
    const names = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
    const week = (...days: string[]) => Object.fromEntries(names.map((day, i) => [day, days[i]]))
    const read = readLocationsCsv(
      'name,address,hours\nA,1 Rd,"mon=7:30-14:00, tue-fri = 9-18, sat=closed"\nB,2 Rd,"mon=7:30-14:00, fri=open"\n',
    )
    expect(read.rows.map((r) => [r.body.hours, r.problems])).toEqual([
      [week('7:30-14:00', '9-18', '9-18', '9-18', '9-18', 'closed', 'closed'), []],
      // "open" gives no hours: kept as written, it counts as unknown and the import warns of it.
      [week('7:30-14:00', 'closed', 'closed', 'closed', 'open', 'closed', 'closed'), []],
    ])
  })

  test('a week of hours in which no day is found is a problem of its row, saying how to write it', () => {
    const [row] = readLocationsCsv('name,address,hours\nA,1 Rd,by appointment\n').rows
    expect(row!.problems).toEqual([
      {
        field: 'hours',
        message:
          '"by appointment" could not be read as a week of opening hours. Write it as "Mon-Fri 09:00-18:00, Sat 10:00-16:00, Sun closed", or use one column per day (monday ... sunday).',
      },
    ])
    expect(row!.body.hours).toBeUndefined()
  })

  test('special hours in one cell: each date and its hours; a cell that is not so is a problem saying how to write it', () => {
    const read = readLocationsCsv(
      'name,Holiday Hours\nA,"2026-12-24 09:00-14:00, 15-17; 2026-12-25 closed"\nB,\nC,Xmas 2026-12-24 closed\nD,2026-12-24; 2026-12-25 closed\nE,closed at Easter\n',
    )
    expect(read.rows.map((r) => r.body.special_hours)).toEqual([
      { '2026-12-24': '09:00-14:00, 15-17', '2026-12-25': 'closed' },
      {},
      undefined,
      undefined,
      undefined,
    ])
    const how =
      'Write each date as YYYY-MM-DD followed by its hours, the dates apart: "2026-12-24 09:00-14:00; 2026-12-25 closed".'
    expect(read.rows.map((r) => r.problems.map((p) => `${p.field}: ${p.message}`))).toEqual([
      [],
      [],
      [`special_hours: "Xmas 2026-12-24 closed" has text before its first date. ${how}`],
      [`special_hours: "2026-12-24; 2026-12-25 closed" gives 2026-12-24 no hours. ${how}`],
      [`special_hours: "closed at Easter" names no date. ${how}`],
    ])
  })

  test('Google Business Profile\'s hours: "x" is closed, and a colon may follow a date', () => {
    const read = readLocationsCsv(
      'name,Monday hours,Tuesday hours,Special hours\nA,9:00AM-5:00PM,x,"2026-12-24: 10:00AM-2:00PM, 2026-12-25: x"\nB,X,xx,2026-12-31:9-14\n',
    )
    expect(read.rows.map((r) => [r.body.hours, r.body.special_hours, r.problems])).toEqual([
      [{ monday: '9:00AM-5:00PM', tuesday: 'closed' }, { '2026-12-24': '10:00AM-2:00PM', '2026-12-25': 'closed' }, []],
      [{ monday: 'closed', tuesday: 'xx' }, { '2026-12-31': '9-14' }, []],
    ])
  })

  test('custom field ids are kept as written, even ones an object would inherit', () => {
    const [body] = bodies('name,custom.Opening_Year,custom.__proto__,custom.constructor\nShop,1999,x,y\n')
    const custom = body!.custom_fields as Record<string, string>
    expect(Object.getPrototypeOf(custom)).toBe(Object.prototype)
    expect(Object.entries(custom)).toEqual([
      ['Opening_Year', '1999'],
      ['__proto__', 'x'],
      ['constructor', 'y'],
    ])
  })

  test('tags split on "|" when the cell has one, else on ";", else on ",", else on a spaced "/"; pieces trimmed, empty ones dropped', () => {
    const cells = [
      'a|b',
      ' a , b ,, c ',
      'Food, drinks | Wifi |',
      'single',
      '',
      ' | , ',
      'x,y|',
      'Repairs; Rentals',
      'a; b, c',
      'Repairs / Rentals / E-Bikes',
      '24/7 /  A/C',
      'Bikes / Scooters, Repairs',
      'Open 24/7',
    ]
    const csv = `name,tags\n${cells.map((c) => `Shop,"${c}"`).join('\n')}\n`
    expect(bodies(csv).map((b) => b.tags)).toEqual([
      ['a', 'b'],
      ['a', 'b', 'c'],
      ['Food, drinks', 'Wifi'],
      ['single'],
      [],
      [','],
      ['x,y'],
      ['Repairs', 'Rentals'],
      ['a', 'b, c'],
      ['Repairs', 'Rentals', 'E-Bikes'],
      ['24/7', 'A/C'],
      ['Bikes / Scooters', 'Repairs'],
      ['Open 24/7'],
    ])
  })

  test("coordinates: numbers, decimal commas; a cell that is no number is the row's problem, no coordinates read", () => {
    const rows = [
      ['48.8566', '2.3522', { lat: 48.8566, lng: 2.3522 }],
      ['"48,8566"', '"-2,35"', { lat: 48.8566, lng: -2.35 }],
      ['-0.5', '.5', { lat: -0.5, lng: 0.5 }],
      ['1e-7', '+12', { lat: 1e-7, lng: 12 }],
      ['abc', '0x10', undefined],
      ['"48,85,1"', '1 000', undefined],
      ['48.5', '', { lat: 48.5 }],
      ['', '"2,5"', { lng: 2.5 }],
    ] as const
    const csv = `name,lat,lng\n${rows.map(([lat, lng]) => `Shop,${lat},${lng}`).join('\n')}\n`
    const read = readLocationsCsv(csv)
    expect(read.rows.map((r) => r.body.coordinates)).toEqual(rows.map((r) => r[2]))
    expect(read.rows[4]!.problems.map((p) => p.field)).toEqual(['coordinates.lat', 'coordinates.lng'])
    expect(read.rows[5]!.problems.map((p) => p.field)).toEqual(['coordinates.lat', 'coordinates.lng'])
    expect(bodies('name,lat,lng\nShop,,\n')).toEqual([{ name: 'Shop' }])
  })
})
