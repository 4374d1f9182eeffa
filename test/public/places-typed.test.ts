// GET /places for names as visitors type them: cut short, one or two typos off, another name
// of a village beside a big city's one typo off, and a city's everyday short name ("LA", "NOLA").
import { describe, expect, test } from 'bun:test'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { haversineKm } from '../helpers'
import { env, get, ids, maine, places, token, usePlacesEnv } from './places-fixture'

usePlacesEnv()

describe('GET /places', () => {
  test("a name cut short: a city known by the name typed before the towns named so; a hamlet's exact name does not come first", async () => {
    // Munich is München by an alternate name: while it is typed, Munich leads.
    for (const q of ['Münc', 'Münch', 'Münche', 'Munch'])
      expect({ q, first: (await places(q))[0]!.label }).toEqual({ q, first: 'Munich, Germany' })
    // "Barc", "Frank" and "Rost" are hamlets' whole names, and more often a city's cut short.
    expect((await places('Barc'))[0]!.label).toBe('Barcelona, Spain')
    expect((await places('Frank'))[0]!.label).toBe('Frankfurt am Main, Germany')
    expect((await places('Rost')).map((p) => p.label)).toContain('Rostock, Germany')
    expect((await places('Rost')).map((p) => p.label)).not.toContain('Røst, Norway')
    // Typed whole, a small place's name is still first.
    expect((await places('Frasne'))[0]!.label).toBe('Frasne, France')
    // Places shown alike are shown once: the city of Münster, not its namesake villages too.
    const munster = (await places('Munster', '&limit=20')).map((p) => p.label)
    expect(munster[0]).toBe('Münster, Germany')
    expect(new Set(munster).size).toBe(munster.length)
    // A borough found only by another name that begins with its town's ("Londonska opshtina
    // Brent") is not suggested beside the town: "Lond" is London, then other towns.
    const lond = await places('Lond', '&limit=10')
    const london = lond[0]!
    expect(london.label).toBe('London, United Kingdom')
    expect(lond.filter((p) => haversineKm(p, london) < 30).map((p) => p.label)).toEqual([london.label])
    expect((await places('Brent'))[0]!.label).toBe('Brent, United Kingdom')
  })

  test('a small town is not suggested by another name begun that it shows no sign of: "Leip" is no Serpneve', async () => {
    // Serpneve (Ukraine) and Cheswold, DE were once Leipzig and Leipsic.
    for (const q of ['Leip', 'Leipz', 'Leipzi']) {
      const labels = (await places(q, '&limit=20')).map((p) => p.label)
      expect({ q, first: labels[0] }).toEqual({ q, first: 'Leipzig, Germany' })
      expect({ q, odd: labels.filter((l) => /Serpneve|Cheswold/.test(l)) }).toEqual({ q, odd: [] })
    }
    // Named whole by that name, or by nothing else, it is still found.
    expect((await places('Leipzig', '&limit=20')).map((p) => p.label)).toContain('Serpneve, Ukraine')
  })

  test('a name begun is no place\'s other name in small letters only: "Ems" is not Amsterdam ("emstaradyama")', async () => {
    const ems = (await places('Ems', '&limit=10')).map((p) => p.label)
    expect(ems[0]).toBe('Emsdetten, Germany')
    expect(ems).not.toContain('Amsterdam, Netherlands')
    expect((await places('Ems', '&lang=de'))[0]!.label).toBe('Emsdetten, Deutschland')
    // Such a name typed whole still finds its place.
    expect((await places('Emstaradyama'))[0]!.label).toBe('Amsterdam, Netherlands')
  })

  test('an old name several towns of note bear is none of theirs: "Newtown" and "King St, Newtown" are Newtowns', async () => {
    for (const q of ['Newtown', 'King St, Newtown']) {
      const labels = (await places(q, '&limit=3')).map((p) => p.label)
      expect({ q, labels }).toEqual({
        q,
        labels: ['Newtown, NSW, Australia', 'Newtown, United Kingdom', 'Newtown, VIC, Australia'],
      })
    }
    expect((await places('Cologne'))[0]!.label).toBe('Cologne, Germany')
  })

  test('"St." begins a town\'s name as "Sankt" or "Saint" does, where the data writes it out', async () => {
    for (const [q, label] of [
      ['St. Wendel', 'Sankt Wendel, Germany'], // the data has no "St. Wendel": it found nothing
      ['St. Augustin', 'Sankt Augustin, Germany'], // not St. Augustine, FL, begun
      ['St. Ingbert', 'Sankt Ingbert, Germany'],
      ['St. Louis', 'St. Louis, MO, United States'], // a name of its own as written comes first
    ] as const)
      expect({ q, first: (await places(q))[0]?.label }).toEqual({ q, first: label })
  })

  test('"St." within a name typed part-way is "Saint" too: "Mont-St-A" begins Mont-Saint-Aignan, not Mons', async () => {
    for (const [q, label] of [
      ['Mont-St-A', 'Mont-Saint-Aignan, France'], // Mons, Belgium
      ['Mont-St-Ai', 'Mont-Saint-Aignan, France'],
      ['Bourg-St-M', 'Bourg-Saint-Maurice, France'], // Bourg-en-Bresse
      ['Mt Ju', 'Mount Juliet, TN, United States'], // St Just, United Kingdom
    ] as const)
      expect({ q, first: (await places(q))[0]?.label }).toEqual({ q, first: label })
  })

  test('"St.", "Ft." or "Mt." before a region: the name written out in that region, as with a comma', async () => {
    for (const [q, label] of [
      ['Ft Lee NJ', 'Fort Lee, NJ, United States'], // nothing: "Ft Lee" is only Fort Lee, VA's
      ['Mt Vernon WA', 'Mount Vernon, WA, United States'],
      ['St Ives NSW', 'Saint Ives, NSW, Australia'],
      ['Ft Worth TX', 'Fort Worth, TX, United States'],
    ] as const)
      expect({ q, first: (await places(q))[0]?.label }).toEqual({ q, first: label })
    // A dash beside "St." joins one name: "Mont-St-Michel" (not in the data) is not Mons.
    expect((await places('Mont-St-Michel')).map((p) => p.label)).not.toContain('Mons, Belgium')
    // After a town's dash and before a space, "St." begins its district: Hamburg's St. Pauli.
    expect((await places('Hamburg-St. Pauli'))[0]?.label).toBe('St. Pauli, Germany')
  })

  test('"Mt." or "Ft." alone is every town so named written out, the most populous first: "Mt Vernon" is New York\'s', async () => {
    // The data holds "Mt. Vernon" only as Mount Vernon, IL's other name: it is no sign that town is meant.
    for (const [q, label] of [
      ['Mt Vernon', 'Mount Vernon, NY, United States'],
      ['Mt. Vernon', 'Mount Vernon, NY, United States'],
      ['Mt Pleasant', 'Mount Pleasant, SC, United States'],
      ['Ft Myers', 'Fort Myers, FL, United States'],
      ['St Charles', 'Saint Charles, MO, United States'],
      ['Springfield', 'Springfield, MO, United States'],
    ] as const)
      expect({ q, first: (await places(q))[0]?.label }).toEqual({ q, first: label })
    // The others so named follow, as for the name written out.
    expect((await places('Mt Vernon', '&limit=4')).map((p) => p.label)).toEqual(
      (await places('Mount Vernon', '&limit=4')).map((p) => p.label),
    )
    expect((await places('Mt Pleasant', '&limit=10')).length).toBeGreaterThan(2)
    // Typed so far, alike; by a town's own name only: "Ft La" is no N'Djamena (once Fort-Lamy).
    for (const [q, label] of [
      ['Mt Ver', 'Mount Vernon, NY, United States'],
      ['Mt P', 'Mount Pleasant, SC, United States'],
      ['Ft La', 'Fort Lauderdale, FL, United States'],
    ] as const)
      expect({ q, first: (await places(q))[0]?.label }).toEqual({ q, first: label })
  })

  test('a dash and "St." typed last, unfinished, is the town before the dash: "Hamburg-St." is Hamburg', async () => {
    // Typed on to "Hamburg-St. Pauli": Caldwell, ID (a typo of "Hamburg St") is not meant.
    for (const q of ['Hamburg-St.', 'Hamburg-St', 'Hamburg - St.', 'Hamburg–St.', 'Köln-St.'])
      expect({ q, first: (await places(q))[0]?.label }).toEqual({
        q,
        first: q.startsWith('K') ? 'Köln, Germany' : 'Hamburg, Germany',
      })
    // A city the text before the dash names by the name it is meant by, as by its own: Frankfurt
    // am Main ("Frankfurt-Sachsenhausen"), not Frankfort, IL, a typo off "Frankfurt St".
    for (const q of ['Frankfurt-St', 'Frankfurt-Ste', 'Frankfurt-Ste.'])
      expect({ q, first: (await places(q))[0]?.label }).toEqual({ q, first: 'Frankfurt am Main, Germany' })
    // So with a space: the town, as the text goes on to a street's or district's name, not a
    // typo's Frankfort, IL, nor Frankfurt (Oder) before the bigger town, which "Frankfurt" is.
    for (const q of ['Frankfurt St', 'Frankfurt St.', 'Frankfurt Ste', 'Frankfurt Ste.', 'Frankfurt Str', 'Hamburg St'])
      for (const more of ['', '&lang=de'])
        expect({ q, more, first: (await places(q, more))[0]?.label }).toEqual({
          q,
          more,
          first: q.startsWith('H')
            ? more === ''
              ? 'Hamburg, Germany'
              : 'Hamburg, Deutschland'
            : more === ''
              ? 'Frankfurt am Main, Germany'
              : 'Frankfurt am Main, Deutschland',
        })
    // A city named by the name it is meant by, as by its own: "Wien St" is Vienna, not Vientiane.
    for (const q of ['Wien St', 'Wien-St', 'Wien Str.'])
      expect({ q, first: (await places(q))[0]?.label }).toEqual({ q, first: 'Wien, Austria' })
    // A name "St" goes on in is still found: "Bury St" is Bury St Edmunds, "Fort St" Fort St. John.
    expect((await places('Bury St'))[0]?.label).toBe('Bury St Edmunds, United Kingdom')
    expect((await places('Fort St'))[0]?.label).toBe('Fort St. John, BC, Canada')
    // So where the data writes "St" out: "Bourg St" is Bourg-Saint-Maurice begun, not the town
    // Bourg (Bourg-en-Bresse); "Villeneuve St" begins only Villeneuve-Saint-… names.
    for (const q of ['Bourg St', 'Bourg-St']) {
      const labels = (await places(q, '&limit=3')).map((p) => p.label)
      expect({ q, labels }).toEqual({ q, labels: expect.arrayContaining(['Bourg-Saint-Maurice, France']) })
      expect({ q, labels }).toEqual({ q, labels: expect.not.arrayContaining(['Bourg-en-Bresse, France']) })
    }
    const villeneuve = (await places('Villeneuve St', '&limit=3')).map((p) => p.label)
    expect(villeneuve.every((l) => l.startsWith('Villeneuve-Saint-'))).toBe(true)
    // One name that a dash and "St" begin is still found: "Mont-St" is Mont-Saint-Aignan.
    expect((await places('Mont-St'))[0]?.label).toBe('Mont-Saint-Aignan, France')
    expect((await places('Hamburg-St. Pauli'))[0]?.label).toBe('St. Pauli, Germany')
  })

  test('a town\'s own name with "St." is no old name it shares: "St. Charles" is Saint Charles, MO, not in Maryland', async () => {
    // Kasongo (Congo, 55,000) was once "St. Charles" too: that does not make Saint Charles's own
    // name, written short, an old one shared.
    expect((await places('St. Charles'))[0]!.label).toBe('Saint Charles, MO, United States')
    expect((await places('St Charles'))[0]!.label).toBe('Saint Charles, MO, United States')
    expect((await places('Newtown'))[0]!.label).toBe('Newtown, NSW, Australia')
  })

  test('a name several big towns share is still theirs before towns a typo off: "Nissa" is Nice, not Bissau', async () => {
    // Nice, Niš and Caltanissetta are "Nissa"; Cochin and Kochi "Kochin": each counts a share,
    // but none is a small place a typo may be meant for.
    const nissa = (await places('Nissa', '&limit=5')).map((p) => p.label)
    expect(nissa.slice(0, 2)).toEqual(['Nice, France', 'Niš, Serbia'])
    expect(nissa).not.toContain('Bissau, Guinea-Bissau')
    expect((await places('Kochin'))[0]!.label).toBe('Cochin, India')
  })

  test('a town\'s own name cut short is no old name it shares: "Santa Cruz" is Santa Cruz de la Sierra', async () => {
    // Agadir was once Santa Cruz; Santa Cruz de la Sierra (1.8 million) is called so today.
    expect((await places('Santa Cruz'))[0]!.label).toBe('Santa Cruz de la Sierra, Bolivia')
    expect((await places('Frankfurt'))[0]!.label).toBe('Frankfurt am Main, Germany')
  })

  test('typos, when nothing matches as typed: an edit from four characters, two from eight with the first letter right', async () => {
    expect((await places('Lodnon'))[0]!.label).toBe('London, United Kingdom') // two letters swapped: one edit
    expect((await places('Frnakfurt'))[0]!.label).toBe('Frankfurt am Main, Germany')
    expect((await places('Brelin'))[0]!.label).toBe('Berlin, Germany')
    // From five characters a whole name comes first, by any of its names: München, not Mönchengladbach.
    expect((await places('Mnchen'))[0]!.label).toBe('Munich, Germany')
    // A town's own name counts more than a big city's rare one: Bristol, not Brussels ("Brisel").
    expect((await places('Bristl'))[0]!.label).toBe('Bristol, United Kingdom')
    expect((await places('Bermen'))[0]!.label).toBe('Bremen, Germany')
    // A whole other name a typo off weighs a tenth, as another name begun does: "Firen" begins Firenze
    // (Florence), and is a typo of one of Düren's other names (for a locator with no store near either).
    expect((await places('Firen', '', maine))[0]!.label).toBe('Florence, Italy')
    expect((await places('Lodn'))[0]!.label).toBe('London, United Kingdom') // four: more often cut short (Łódź is whole)
    expect((await places('Amsetrdma'))[0]!.label).toBe('Amsterdam, Netherlands') // two edits, nine characters
    expect(await places('Lnodno')).toEqual([]) // two edits, six characters
    expect((await places('Eidnbrugh'))[0]!.label).toBe('Edinburgh, United Kingdom')
    expect(await places('Qdinbrugh')).toEqual([]) // the same two edits, but its first letter is one of them
    // A text that matches as typed gets no typo's places: Parsippany begins with "Parsi", Paris is an edit off.
    expect((await places('Parsi', '&limit=20')).map((p) => p.label)).toEqual(['Parsippany, NJ, United States'])
    // near= takes the best of them, and meta names it.
    const near = await get(`${token}/locations?near=Lodnon&radius=30&unit=km`)
    expect(near.body.meta.query.center.label).toBe('London, United Kingdom')
    expect(near.body.data.locations.map((l: any) => l.id)).toEqual([ids.soho, ids.camden, ids.croydon])
  })

  test('alternate names of villages as typed, next to a whole name one letter off; no typos in a postcode', async () => {
    // Mutzschen's old name, as typed. Jüchen, one letter off too, is near the store in Köln.
    expect((await places('Müchen', '', maine))[0]!.label).toBe('Munich, Germany')
    expect((await places('Müchen'))[0]!.label).toBe('Jüchen, Germany')
    expect((await places('Lisboa'))[0]!.label).toBe('Lisboa, Portugal') // a big city's own: no typo tried
    expect(await places('SW1A')).toEqual([]) // not Swadlincote
  })

  test("four letters a typo off a big city's name list it by a store; three naming it whole, in the page's language", async () => {
    const labels = async (q: string, more = '') => (await places(q, `&limit=10${more}`)).map((p) => p.label)
    expect((await labels('Kolm'))[0]).toBe('Köln, Germany') // a store is in Köln; Colmar is Kolmar begun
    // Without a store near Vienna, what the text begins only: "Wein" may be Weinheim typed so far.
    expect(await labels('Wein')).not.toContain('Vienna, Austria')
    // "Rom" is Rome's German name, but the data's name begins so, as Lima's does "Lim" (another
    // of its names): the data's is shown, or the page's language's name it begins (Roma). In
    // English, as typed, Romford by the store in London.
    expect((await labels('Rom', '&lang=de'))[0]).toBe('Rome, Italien')
    expect((await labels('Rom', '&lang=it'))[0]).toBe('Roma, Italia') // not "Rom, Italia"
    expect((await labels('Lim', '&lang=es'))[0]).toBe('Lima, Perú') // not "Lim, Perú"
    expect((await labels('Rom'))[0]).toBe('Romford, United Kingdom')
  })

  test("a typo's other name shown is the one a letter missed or changed gives; the data's when two tie", async () => {
    // "Veneiza" is Venezia's letters swapped, Veneza's (Portuguese) with one added; "Venedg" is
    // Venedig and Venedeg alike with a letter missed, "Moskaw" Moskau and Moskwa with one changed:
    // which the page's language writes is not known.
    for (const [q, lang, label] of [
      ['Veneiza', 'it', 'Venezia, Italia'],
      ['Bruxeles', 'fr', 'Bruxelles, Belgique'], // not Bruseles
      ['Venedg', 'de', 'Venice, Italien'],
      ['Moskaw', 'de', 'Moscow, Russland'],
    ] as const)
      expect({ q, first: (await places(q, `&lang=${lang}`))[0]!.label }).toEqual({ q, first: label })
  })

  test("three letters that are a town's own name whole come first on a page of its country's language", async () => {
    const first = async (q: string, lang: string) => (await places(q, `&lang=${lang}`))[0]!.label
    // Not Oviedo or Hefei by an other name begun, nor Gapan, Paulista or Zugló begun.
    expect(await first('Aue', 'de')).toBe('Aue, Deutschland')
    expect(await first('Hof', 'de')).toBe('Hof, Deutschland')
    expect(await first('Zug', 'de')).toBe('Zug, Schweiz')
    expect(await first('Gap', 'fr')).toBe('Gap, France')
    expect(await first('Pau', 'fr')).toBe('Pau, France')
    expect(await first('Ede', 'nl')).toBe('Ede, Nederland')
    // In another language, or beside a town of those countries with three times the people that
    // the text begins, as before: "Vic" on a Spanish page may be Victoria de Durango typed so far.
    expect(await first('Gap', 'de')).not.toBe('Gap, Frankreich')
    expect(await first('Vic', 'es')).not.toBe('Vic, España')
  })

  test("a city's everyday short name comes first, then what the letters begin", async () => {
    for (const [q, label] of [
      ['LA', 'Los Angeles, CA, United States'],
      ['L.A.', 'Los Angeles, CA, United States'],
      ['SF', 'San Francisco, CA, United States'],
      ['DC', 'Washington, DC, United States'],
      ['NYC', 'New York City, NY, United States'],
    ] as const)
      expect({ q, first: (await places(q))[0]?.label }).toEqual({ q, first: label })
    expect((await places('LA', '&limit=3')).map((p) => p.label)[1]).toBe('Lagos, Nigeria')
  })

  test("a city's short name comes first though a store is near a town of that name: NOLA is New Orleans beside Naples", async () => {
    const other = createLocator(env.store, 'Naples stores')
    setLocatorSettings(env.store, other.locator.id, { queryApi: 'on' })
    // Nola, Italy is 25 km from the store; Texas has none of the locator's.
    const body = { name: 'Toledo', address: 'Via Toledo', coordinates: { lat: 40.8427, lng: 14.2488 } }
    expect((await env.call('POST', '/admin/v1/locations', { key: other.secret, body })).status).toBe(201)
    const naples = env.store.locators.get(other.locator.id)!.publicToken!
    const labels = (await places('NOLA', '', naples)).map((p) => p.label)
    expect(labels.slice(0, 2)).toEqual(['New Orleans, LA, United States', 'Nola, Italy'])
    const near = await get(`${naples}/locations?near=NOLA`)
    expect(near.body.meta.query.center.label).toBe('New Orleans, LA, United States')
  })
})
