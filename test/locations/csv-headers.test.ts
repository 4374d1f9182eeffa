// Locations CSV headers: which field each header spelling fills, and the headers refused.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readLocationsCsv } from '../../src/locations/csv'
import { meantColumn } from '../../src/locations/csv-columns'
import { bodies, misread, readError } from './csv-read'

describe('header', () => {
  const ALIASES: [string, string][] = [
    ['ID', 'id'],
    ['external_id', 'external_id'],
    ['EXTERNAL ID', 'external_id'],
    ['Store Code', 'external_id'],
    ['store_code', 'external_id'],
    ['Store ID', 'external_id'],
    ['store number', 'external_id'],
    ['Location-Code', 'external_id'],
    ['code', 'external_id'],
    ['Ref', 'external_id'],
    ['reference', 'external_id'],
    ['Store #', 'external_id'],
    ['Code magasin', 'external_id'],
    ['Référence', 'external_id'],
    ['Numéro de magasin', 'external_id'],
    ['Código de tienda', 'external_id'],
    ['Codice negozio', 'external_id'],
    ['Filiaalnummer', 'external_id'],
    ['Winkelcode', 'external_id'],
    ['Name', 'name'],
    ['Store Name', 'name'],
    ['location name', 'name'],
    ['Title', 'name'],
    ['Address', 'address'],
    ['Full Address', 'address'],
    ['formatted_address', 'address'],
    ['Street', 'street'],
    ['Street Address', 'street'],
    ['Address Line 1', 'street'],
    ['address 1', 'street'],
    ['address1', 'street'],
    ['City', 'city'],
    ['Town', 'city'],
    ['locality', 'city'],
    ['Postcode', 'postcode'],
    ['ZIP', 'postcode'],
    ['Zip Code', 'postcode'],
    ['zipcode', 'postcode'],
    ['Postal Code', 'postcode'],
    ['post code', 'postcode'],
    ['PLZ', 'postcode'],
    ['Region', 'region'],
    ['State', 'region'],
    ['province', 'region'],
    ['County', 'region'],
    ['Country', 'country'],
    ['Country Code', 'country'],
    ['lat', 'coordinates.lat'],
    ['Latitude', 'coordinates.lat'],
    ['Y', 'coordinates.lat'],
    ['coordinates.lat', 'coordinates.lat'],
    ['lng', 'coordinates.lng'],
    ['Longitude', 'coordinates.lng'],
    ['lon', 'coordinates.lng'],
    ['long', 'coordinates.lng'],
    ['x', 'coordinates.lng'],
    ['Coordinates.Lng', 'coordinates.lng'],
    ['Phone', 'contact.phone'],
    ['Telephone', 'contact.phone'],
    ['tel', 'contact.phone'],
    ['Phone Number', 'contact.phone'],
    ['contact.phone', 'contact.phone'],
    ['Email', 'contact.email'],
    ['E-mail', 'contact.email'],
    ['Email Address', 'contact.email'],
    ['Website', 'contact.website'],
    ['URL', 'contact.website'],
    ['web', 'contact.website'],
    ['Homepage', 'contact.website'],
    ['Web Site', 'contact.website'],
    ['Instagram', 'social.instagram'],
    ['social.facebook', 'social.facebook'],
    ['Twitter', 'social.twitter'],
    ['Description', 'description'],
    ['desc', 'description'],
    ['About', 'description'],
    ['Tags', 'tags'],
    ['open_hours', 'hours'],
    ['State/Province', 'region'],
    ['Zip/Postal Code', 'postcode'],
    ['tag', 'tags'],
    ['Categories', 'tags'],
    ['category', 'tags'],
    ['image_url', 'image_url'],
    ['Image', 'image_url'],
    ['Image URL', 'image_url'],
    ['photo', 'image_url'],
    ['Picture', 'image_url'],
    ['Status', 'status'],
    ['Monday', 'hours.monday'],
    ['mon', 'hours.monday'],
    ['hours.monday', 'hours.monday'],
    ['Tue', 'hours.tuesday'],
    ['wed', 'hours.wednesday'],
    ['THU', 'hours.thursday'],
    ['Fri', 'hours.friday'],
    ['sat', 'hours.saturday'],
    ['Sun', 'hours.sunday'],
    ['hours.sunday', 'hours.sunday'],
    ['custom.wifi', 'custom_fields.wifi'],
    ['Custom.Parking_Lot', 'custom_fields.Parking_Lot'],
    ['custom_fields.wifi', 'custom_fields.wifi'],
    ['Custom Fields. opening_year ', 'custom_fields.opening_year'],
    // The address's other parts, and the spellings of German, French, Spanish, Italian and Dutch files.
    ['House Number', 'house_number'],
    ['Street Number', 'house_number'],
    ['Hausnummer', 'house_number'],
    ['huisnummer', 'house_number'],
    ['Address Line 2', 'street2'],
    ['Address 2', 'street2'],
    ['address2', 'street2'],
    ['Suite', 'street2'],
    ['Filialnummer', 'external_id'],
    ['Branch Code', 'external_id'],
    ['Store No.', 'external_id'],
    ['Nom', 'name'],
    ['Nombre', 'name'],
    ['Naam', 'name'],
    ['Adresse', 'address'],
    ['Dirección', 'address'],
    ['Indirizzo', 'address'],
    ['Straße', 'street'],
    ['Strasse', 'street'],
    ['Rue', 'street'],
    ['Calle', 'street'],
    ['Via', 'street'],
    ['Straat', 'street'],
    ['Ort', 'city'],
    ['Stadt', 'city'],
    ['Ville', 'city'],
    ['Ciudad', 'city'],
    ['Città', 'city'],
    ['Plaats', 'city'],
    ['Postleitzahl', 'postcode'],
    ['Code postal', 'postcode'],
    ['CP', 'postcode'],
    ['Código postal', 'postcode'],
    ['CAP', 'postcode'],
    ['Bundesland', 'region'],
    ['Kanton', 'region'],
    ['Région', 'region'],
    ['Provincia', 'region'],
    ['Land', 'country'],
    ['Pays', 'country'],
    ['País', 'country'],
    ['Paese', 'country'],
    ['Telefon', 'contact.phone'],
    ['Téléphone', 'contact.phone'],
    ['Tél.', 'contact.phone'],
    ['Teléfono', 'contact.phone'],
    ['Telefono', 'contact.phone'],
    ['Telefoon', 'contact.phone'],
    ['Courriel', 'contact.email'],
    ['Webseite', 'contact.website'],
    ['Site web', 'contact.website'],
    ['Sito web', 'contact.website'],
    ['Beschreibung', 'description'],
    ['Descripción', 'description'],
    // Google Business Profile's bulk sheet.
    ['Business name', 'name'],
    ['Primary phone', 'contact.phone'],
    ['Country/Region', 'country'],
    ['Administrative area', 'region'],
    ['Monday hours', 'hours.monday'],
    ['Sunday hours', 'hours.sunday'],
    ['Labels', 'tags'],
    ['From the business', 'description'],
    // A German spreadsheet's, and days in the six languages.
    ['Filialname', 'name'],
    ['Breitengrad', 'coordinates.lat'],
    ['Längengrad', 'coordinates.lng'],
    ['Kategorie', 'tags'],
    ['Services', 'tags'],
    ['Store Type', 'tags'],
    ['Leistungen', 'tags'],
    ['Montag', 'hours.monday'],
    ['Samedi', 'hours.saturday'],
    ['Miércoles', 'hours.wednesday'],
    ['Domenica', 'hours.sunday'],
    ['Vrijdag', 'hours.friday'],
    // Store locator sheets' and spreadsheets' own words, in the six languages.
    ['Store', 'name'],
    ['Shop Name', 'name'],
    ['Branch', 'name'],
    ['Filiale', 'name'],
    ['Nom du magasin', 'name'],
    ['Nombre de la tienda', 'name'],
    ['Nome negozio', 'name'],
    ['Winkelnaam', 'name'],
    ['Store Address', 'address'],
    ['Anschrift', 'address'],
    ['Straße und Hausnummer', 'street'],
    ['Località', 'city'],
    ['Municipio', 'city'],
    ['Codice postale', 'postcode'],
    ['GPS Latitude', 'coordinates.lat'],
    ['GPS Longitude', 'coordinates.lng'],
    ['Numéro de téléphone', 'contact.phone'],
    ['Número de teléfono', 'contact.phone'],
    ['Numero di telefono', 'contact.phone'],
    ['Telefoonnummer', 'contact.phone'],
    ['E-Mail', 'contact.email'],
    ['Mail', 'contact.email'],
    ['E-Mail-Adresse', 'contact.email'],
    ['Adresse e-mail', 'contact.email'],
    ['Correo electrónico', 'contact.email'],
    ['Indirizzo email', 'contact.email'],
    ['E-mailadres', 'contact.email'],
    // A German ERP's and US point-of-sale exports' own words.
    ['Str.', 'street'],
    ['Straße/Hausnummer', 'street'],
    ['Strasse Nr', 'street'],
    ['Adresszusatz', 'street2'],
    ['Standortname', 'name'],
    ['Filiale Nr.', 'external_id'],
    ['Geschäftszeiten', 'hours'],
    ['Sonderöffnungszeiten', 'special_hours'],
    ['Location Number', 'external_id'],
    ['Site ID', 'external_id'],
    ['Site Name', 'name'],
    ['Street Address 2', 'street2'],
    ['Suite/Unit', 'street2'],
    ['City/Town', 'city'],
    ['State/Province/Region', 'region'],
    ['Zip/Postal', 'postcode'],
    ['Postal/Zip Code', 'postcode'],
    ['Country Name', 'country'],
    ['Phone #', 'contact.phone'],
    ['Store Phone', 'contact.phone'],
    ['Store Email', 'contact.email'],
    ['Store URL', 'contact.website'],
    ['Internet', 'contact.website'],
    ["Complément d'adresse", 'street2'],
    ['Adresse 2', 'street2'],
    ['Población', 'city'],
    ["Horaires d'ouverture", 'hours'],
    ["Heures d'ouverture", 'hours'],
    ['Horario de apertura', 'hours'],
    ['Orari di apertura', 'hours'],
  ]

  test.each(ALIASES)('"%s" is read as %s', (header, field) => {
    expect(readLocationsCsv(`${header}\n`).columns).toEqual([{ header: header.trim(), field }])
  })

  test('a word that may mean another column ("Store", "Breite") fills its field only when no other column does', () => {
    const read = readLocationsCsv('Store,Store Name,lat,lng,Breite,Länge\n12,Mitte,52.5,13.4,,\n')
    expect(read.columns.map((c) => c.field)).toEqual([null, 'name', 'coordinates.lat', 'coordinates.lng', null, null])
    expect(read.unknown).toEqual(['Store', 'Breite', 'Länge'])
    // Square's export: "Business Name" is the brand beside each store's "Location Name".
    const square = readLocationsCsv('Location Name,Business Name,Address\nCovent Garden,Bean There,12 Floral St\n')
    expect([square.unknown, square.rows[0]!.body.name]).toEqual([['Business Name'], 'Covent Garden'])
    const es = readLocationsCsv(readFileSync(join(import.meta.dir, '../fixtures/csv/es.csv')))
    expect(es.rows[0]!.body.coordinates).toEqual({ lat: 40.4155, lng: -3.7074 })
    const de = readLocationsCsv(readFileSync(join(import.meta.dir, '../fixtures/csv/breite.csv')))
    expect(de.rows[0]!.body.coordinates).toEqual({ lat: 52.517, lng: 13.3889 })
    const headers1 = readLocationsCsv(readFileSync(join(import.meta.dir, '../fixtures/csv/headers1.csv')))
    expect(headers1.rows[0]!.body).toMatchObject({ name: 'Berlin Mitte', coordinates: { lat: 52.517, lng: 13.3889 } })
    // Alone, "Breite" is a width: left unread, not said to be a misspelling, the file still read.
    const wide = readLocationsCsv('name,address,Breite,County,State\nA,"1 Main St, Springfield",120,Sangamon,IL\n')
    expect([wide.columns[2]!.field, wide.unknown]).toEqual([null, ['Breite', 'County']])
    expect(['County', 'Breite', 'Suburb', 'Adress'].map(meantColumn)).toEqual([null, null, null, 'address'])
    // Google's "Address line 3" is a further line, as "Email 2" is another address: no misspelling.
    expect(['Address line 3', 'Adress line 2', 'Email 2'].map(meantColumn)).toEqual([null, 'address line 2', null])
  })

  test('unknown columns are reported as written and their cells are left out of the body', () => {
    const read = readLocationsCsv('Name,Fax,address,Notes,custom.\nShop,555-0100,1 Main St,call first,x\n')
    expect(read.unknown).toEqual(['Fax', 'Notes', 'custom.'])
    expect(read.columns.map((c) => c.field)).toEqual(['name', null, 'address', null, null])
    expect(read.rows[0]!.body).toEqual({ name: 'Shop', address: '1 Main St' })
  })

  test('a spelling files often carry beside another of its field is read alone, left out beside it', () => {
    // Département beside Région, Regione beside Provincia, Localidad beside Ciudad, Suburb beside City.
    const pairs: [string, string][] = [
      ['Département;Région', 'Département'],
      ['Provincia;Regione', 'Regione'],
      ['Localidad,Ciudad', 'Localidad'],
      ['Suburb,City', 'Suburb'],
    ]
    for (const [header, unknown] of pairs) {
      expect(readLocationsCsv(`${header}\n`).unknown).toEqual([unknown])
      // Alone, it fills its field.
      const alone = readLocationsCsv(`${unknown}\n`)
      expect({ unknown: alone.unknown, field: alone.columns[0]!.field }).toEqual({
        unknown: [],
        field: unknown === 'Suburb' || unknown === 'Localidad' ? 'city' : 'region',
      })
    }
    // County beside State: the file is read, the fallback left out. Country Code beside Country
    // gives the country of the rows whose Country cell is empty.
    expect(readLocationsCsv('Name,Address,City,County,State,Zip\n').unknown).toEqual(['County'])
    expect(bodies('City,Country,Country Code\nParis,FR,BE\nLyon,,FR\n')).toEqual([
      { address: 'Paris, FR' },
      { address: 'Lyon, FR' },
    ])
    // Shopify's Province Code beside Province; alone, its dropped ZIP code zero is put back.
    expect(readLocationsCsv('Province,Province Code\n').unknown).toEqual(['Province Code'])
    expect(bodies('address1,city,province code,zip,country\n100 Church St,Burlington,VT,5401,US\n')).toEqual([
      { address: '100 Church St, Burlington, VT 05401, US' },
    ])
    // An Australian list whose only town column is Suburb keeps its town.
    expect(bodies('street,suburb,state,postcode,country\n100 George St,Sydney,NSW,2000,AU\n')).toEqual([
      { address: '100 George St, Sydney, NSW 2000, AU' },
    ])
  })

  test("other tools' statuses are read as ours: WordPress's publish, pending and private, TRUE and FALSE, aktiv and inactif", () => {
    const statuses = [
      'publish',
      'Active',
      'pending',
      'private',
      'draft',
      'hidden',
      'TRUE',
      'no',
      'aktiv',
      'Inactif',
      'closed',
    ]
    const read = readLocationsCsv(`name,status\n${statuses.map((s) => `A,${s}`).join('\n')}\n`)
    expect(read.rows.map((r) => r.body.status)).toEqual([
      'published',
      'published',
      'draft',
      'draft',
      'draft',
      'draft',
      'published',
      'draft',
      'published',
      'draft',
      undefined,
    ])
    // Shopify's "Active" column is the status when the file has no other.
    const shopify = readLocationsCsv('Name,Active\nA,TRUE\nB,FALSE\n')
    expect(shopify.rows.map((r) => r.body.status)).toEqual(['published', 'draft'])
    expect(readLocationsCsv('Name,Status,Active\n').unknown).toEqual(['Active'])
    const german = readLocationsCsv('Name;Aktiv\nA;ja\nB;nein\n')
    expect(german.rows.map((r) => r.body.status)).toEqual(['published', 'draft'])
    // "closed" is not a status: the row's problem names every word read.
    expect(read.rows.at(-1)!.problems).toEqual([
      {
        field: 'status',
        message:
          'The "status" column must be a status; got "closed". Write published (also read so: publish, active, visible, live, enabled, 1, aktiv, veröffentlicht, actif, publié, publiée, activo, activa, publicado, publicada, attivo, attiva, pubblicato, pubblicata, actief, gepubliceerd, yes, ja, oui, sí, si, sì, true, wahr, vrai, verdadero, vero, verdadeiro, waar, sant, sand, sann, prawda) or draft (also: hidden, inactive, unpublished, pending, private, disabled, 0, inaktiv, entwurf, inactif, brouillon, inactivo, inactiva, borrador, inattivo, inattiva, bozza, inactief, concept, no, nein, non, nee, false, falsch, faux, falso, onwaar, falskt, falsk, usann, fałsz).',
      },
    ])
  })

  test('tags may come from several columns: each is split, and their tags joined', () => {
    // WP Store Locator and other plugins export both.
    const read = readLocationsCsv('name,category,tags\nShop,Bikes|Repairs,"repairs, Bikes"\nNone,,\n')
    expect(read.unknown).toEqual([])
    expect(read.rows.map((r) => r.body.tags)).toEqual([['Bikes', 'Repairs', 'repairs', 'Bikes'], []])
  })

  test('two columns for one field are refused, naming both header cells', () => {
    const e = readError('name,Zip,city,Postal Code\nShop,75001,Paris,75002\n')
    expect(e.line).toBe(1)
    expect(e.message).toStartWith('line 1: ')
    expect(e.message).toContain('"Zip"')
    expect(e.message).toContain('"Postal Code"')
    expect(readError('custom.wifi,custom_fields.wifi\n').message).toContain('"custom.wifi" and "custom_fields.wifi"')
    expect(readError('lat,coordinates.lat\n').line).toBe(1)
    // The field is named as a person says it, not as the service stores it.
    const said: [string, string][] = [
      ['Neighborhood,Stadtteil', 'the district'],
      ['house_number,Hausnummer', 'the house number'],
      ['street2,Address Line 2', 'the second address line'],
      ['lat,coordinates.lat', 'the latitude'],
      ['Phone,contact.phone', 'the phone number'],
      ['Zip,Postal Code', 'the postcode'],
      ['monday,Montag', "Monday's hours"],
      ['custom.wifi,custom_fields.wifi', 'the custom field "wifi"'],
    ]
    for (const [header, field] of said)
      expect(readError(`${header}\n`).message).toEndWith(` both fill ${field}. Delete or rename one of them.`)
    // Ids are as written: these are two fields.
    expect(readLocationsCsv('custom.wifi,custom.WiFi\n').columns.map((c) => c.field)).toEqual([
      'custom_fields.wifi',
      'custom_fields.WiFi',
    ])
  })

  test('an empty file or one of empty lines has no header', () => {
    for (const input of ['', '\n\r\n  \n', ',,,\n', new Uint8Array(0)]) {
      const e = readError(input)
      expect(e.line).toBeNull()
      expect(e.message).toContain('empty')
    }
  })

  test('a first line that names no field is refused, pointing at the header below it when there is one', () => {
    // Above the header, a line that may be a store's row (more than a title's cells).
    const titled = readError('B0,Bonn,Markt 1\n\nStore Code,Store Name,Address\nB1,Berlin,Alexanderplatz 1\n')
    expect(titled.line).toBe(1)
    expect(titled.message).toBe(
      'line 1: the first line is read as the header, but it names no location field; line 3 does (Store Code, Store Name, Address). Delete the lines above line 3.',
    )
    const headless = readError('B1,Berlin,Alexanderplatz 1\nB2,Hamburg,Jungfernstieg 1\n')
    expect(headless.message).toBe(
      'line 1: the first line is read as the header, but it names no location field. Name the columns in the first line, for example external_id,name,address,lat,lng (docs/cli.md lists them).',
    )
    // One field named is a header: its other columns are reported as not read.
    expect(readLocationsCsv('Shop Title,address\nA,b\n').unknown).toEqual(['Shop Title'])
  })

  test('a column with no name holds nothing: a row with text in it is refused; trailing ones are padding', () => {
    expect(misread('\nname,,address\nShop,,1 Main St\nShop 2,x,2 Main St\n')).toEqual([
      {
        line: 4,
        message:
          'This row has text in column B, which has no name in the header (line 2). Name the column (for example "description") or delete it.',
      },
    ])
    const read = readLocationsCsv('name,,address\nShop,,1 Main St\n')
    expect(read.rows.map((r) => r.body)).toEqual([{ name: 'Shop', address: '1 Main St' }])
    expect(read.unknown).toEqual([])
    expect(readLocationsCsv('name,address,,\nShop,1 Main St,,\n').columns).toEqual([
      { header: 'name', field: 'name' },
      { header: 'address', field: 'address' },
    ])
  })

  test('headers marked required or optional in each language of the header spellings are read', () => {
    const marked = [
      'Nome (obbligatorio);Indirizzo (facoltativo)',
      'Naam (verplicht);Adres (optioneel)',
      'Name (erforderlich);Adresse (optional)',
      'Nom (obligatoire);Adresse (facultatif)',
    ]
    for (const header of marked)
      expect(readLocationsCsv(`${header}\nA;1 Rd\n`).columns.map((c) => c.field)).toEqual(['name', 'address'])
  })
})
