// The header table of a locations CSV: which field each header cell fills. Matching ignores case,
// spaces, '_', '-' and '.', so "Store Code", "store_code" and "STORE-CODE" all name external_id.
import { withinEdits } from '../core/text'
import { namesDays } from '../core/week-days'

/**
 * Each field a column fills, with the spellings it answers to besides its own name. Dotted names
 * are body paths; street, house_number, street2, sublocality, city, postcode, region and country
 * are address parts. Spellings in the six languages of the hours texts too (core/week-hours.ts).
 */
const COLUMN_NAMES = {
  id: [],
  external_id: [
    'store code',
    'store id',
    'store number',
    'store no',
    'location code',
    'branch code',
    'branch id',
    'code',
    'ref',
    'reference',
    'store #',
    'store nr',
    'location number',
    'site id',
    'shop code',
    'shop id',
    'location id',
    'site code',
    'filialnummer',
    'filialnr',
    'filiale nr',
    'standort-id',
    'standortnummer',
    'filialcode',
    'marktnummer',
    'referenz',
    'code magasin',
    'numéro de magasin',
    'numero de magasin',
    'identifiant magasin',
    'référence',
    'réf',
    'código de tienda',
    'codigo de tienda',
    'número de tienda',
    'numero de tienda',
    'referencia',
    'codice negozio',
    'codice punto vendita',
    'numero negozio',
    'riferimento',
    'filiaalnummer',
    'winkelcode',
    'winkelnummer',
    'vestigingsnummer',
    'referentie',
  ],
  name: [
    'store name',
    'location name',
    'branch name',
    'title',
    'shop name',
    'site name',
    'standortname',
    'name der filiale',
    'filialname',
    'geschäft',
    'nom',
    'nom du magasin',
    'nom magasin',
    'nombre',
    'nombre de la tienda',
    'nombre tienda',
    'nome',
    'nome negozio',
    'naam',
    'winkelnaam',
  ],
  address: [
    'full address',
    'formatted address',
    'store address',
    'shop address',
    'location address',
    'adresse',
    'anschrift',
    'dirección',
    'direccion',
    'indirizzo',
    'adres',
  ],
  street: [
    'street address',
    'address line 1',
    'address 1',
    'straße',
    'strasse',
    'straße und hausnummer',
    'strasse und hausnummer',
    'straße/hausnummer',
    'strasse/hausnummer',
    'straße und hausnr',
    'strasse und hausnr',
    'straße u. hausnr',
    'strasse u. hausnr',
    'straße/hausnr',
    'strasse/hausnr',
    'straße/nr',
    'strasse/nr',
    'straße nr',
    'strasse nr',
    'str',
    'rue',
    'calle',
    'via',
    'straat',
  ],
  // Joined before or after the street, as the row's country writes it (csv-address.ts).
  house_number: ['street number', 'hausnummer', 'hausnr', 'huisnummer', 'numero civico'],
  street2: [
    'address line 2',
    'address 2',
    'street 2',
    'street address 2',
    'suite',
    'suite/unit',
    'adresszusatz',
    "complément d'adresse",
    'complément adresse',
    'adresse 2',
    'dirección 2',
    'indirizzo 2',
  ],
  // A district of the town (Google's "Sub-locality"), joined before it (csv-address.ts). "District"
  // is not one: in sales sheets it is a sales region, no part of an address.
  sublocality: ['sub-locality', 'neighborhood', 'neighbourhood', 'stadtteil', 'ortsteil'],
  city: [
    'town',
    'city/town',
    'locality',
    'ort',
    'stadt',
    'ville',
    'ciudad',
    'città',
    'citta',
    'comune',
    'località',
    'localita',
    'municipio',
    'población',
    'poblacion',
    'plaats',
    'stad',
    'woonplaats',
  ],
  postcode: [
    'zip',
    'zip/postal code',
    'postal code/zip',
    'zip/postal',
    'postal/zip',
    'postal/zip code',
    'zip/postcode',
    'postcode/zip',
    'zip code',
    'postal code',
    'post code',
    'plz',
    'postleitzahl',
    'code postal',
    'cp',
    'código postal',
    'codigo postal',
    'cap',
    'codice postale',
  ],
  region: [
    'state',
    'province',
    'state/province',
    'province/state',
    'state/region',
    'state/province/region',
    'administrative area',
    'bundesland',
    'kanton',
    'canton',
    'région',
    'provincia',
    'provincie',
  ],
  country: ['country/region', 'country name', 'land', 'pays', 'país', 'pais', 'paese', 'nazione'],
  'coordinates.lat': [
    'lat',
    'latitude',
    'y',
    'gps latitude',
    'gps lat',
    'breitengrad',
    'latitud',
    'latitudine',
    'breedtegraad',
  ],
  'coordinates.lng': [
    'lng',
    'longitude',
    'lon',
    'long',
    'x',
    'gps longitude',
    'gps lng',
    'gps lon',
    'längengrad',
    'laengengrad',
    'longitud',
    'longitudine',
    'lengtegraad',
  ],
  description: [
    'desc',
    'about',
    'from the business',
    'beschreibung',
    'descripción',
    'descripcion',
    'descrizione',
    'beschrijving',
  ],
  tags: [
    'tag',
    // StoreRocket's name for them.
    'filters',
    'categories',
    'category',
    'labels',
    'services',
    'amenities',
    'features',
    'keywords',
    'store type',
    'leistungen',
    'services proposés',
    'servicios',
    'servizi',
    'diensten',
    'kategorie',
    'kategorien',
    'catégorie',
    'catégories',
    'categoría',
    'categorías',
    'categoria',
    'categorie',
  ],
  'contact.phone': [
    'phone',
    'telephone',
    'tel',
    'phone number',
    'phone #',
    'main phone',
    'store phone',
    'phone no',
    'primary phone',
    'telefon',
    'telefonnummer',
    'téléphone',
    'tél',
    'numéro de téléphone',
    'teléfono',
    'número de teléfono',
    'numero de telefono',
    'telefono',
    'numero di telefono',
    'telefoon',
    'telefoonnummer',
  ],
  'contact.email': [
    'email',
    'email address',
    'store email',
    'mail',
    'e-mail-adresse',
    'courriel',
    'adresse email',
    'correo',
    'correo electrónico',
    'correo electronico',
    'indirizzo email',
    'e-mailadres',
  ],
  'contact.website': [
    'website',
    'url',
    'web',
    'homepage',
    'store url',
    'store website',
    'internet',
    'webseite',
    'site web',
    'sitio web',
    'sito web',
  ],
  'social.instagram': ['instagram'],
  'social.facebook': ['facebook'],
  'social.twitter': ['twitter'],
  // A week in one cell ("Mon-Fri 9-18, Sat 10-14"), split into the days (core/week-hours.ts).
  hours: [
    'opening hours',
    'open hours',
    'opening times',
    'store hours',
    'business hours',
    'hours of operation',
    'öffnungszeiten',
    'geschäftszeiten',
    'ladenöffnungszeiten',
    'horaires',
    "horaires d'ouverture",
    "heures d'ouverture",
    'horario',
    'horario de apertura',
    'orari',
    'orari di apertura',
    'openingstijden',
  ],
  // Google Business Profile's "Monday hours"; the day's name in the six languages.
  'hours.monday': ['monday', 'mon', 'monday hours', 'montag', 'lundi', 'lunes', 'lunedì', 'lunedi', 'maandag'],
  'hours.tuesday': ['tuesday', 'tue', 'tuesday hours', 'dienstag', 'mardi', 'martes', 'martedì', 'martedi', 'dinsdag'],
  'hours.wednesday': [
    'wednesday',
    'wed',
    'wednesday hours',
    'mittwoch',
    'mercredi',
    'miércoles',
    'miercoles',
    'mercoledì',
    'mercoledi',
    'woensdag',
  ],
  'hours.thursday': [
    'thursday',
    'thu',
    'thursday hours',
    'donnerstag',
    'jeudi',
    'jueves',
    'giovedì',
    'giovedi',
    'donderdag',
  ],
  'hours.friday': ['friday', 'fri', 'friday hours', 'freitag', 'vendredi', 'viernes', 'venerdì', 'venerdi', 'vrijdag'],
  'hours.saturday': [
    'saturday',
    'sat',
    'saturday hours',
    'samstag',
    'samedi',
    'sábado',
    'sabado',
    'sabato',
    'zaterdag',
  ],
  'hours.sunday': ['sunday', 'sun', 'sunday hours', 'sonntag', 'dimanche', 'domingo', 'domenica', 'zondag'],
  // Dated hours in one cell ("2026-12-24 09:00-14:00; 2026-12-25 closed"): all the location's.
  special_hours: ['special hours', 'special opening hours', 'holiday hours', 'sonderöffnungszeiten'],
  timezone: ['time zone', 'tz', 'tz database name'],
  image_url: ['image', 'photo', 'picture'],
  status: [],
  // A row saying yes is a delete item of its store: {"external_id": ..., "delete": true}.
  delete: [],
} as const satisfies Record<string, readonly string[]>

/**
 * Spellings files often carry beside another of the same field (County beside State, Country
 * Code beside Country, Suburb beside City), or that may mean something else: each fills its
 * field only when no other column of the file does.
 */
const FALLBACK_NAMES = {
  // A store's own word ("Store", "Filiale") may be its code or its name beside a name column;
  // Square's "Business Name" beside "Location Name" is the brand, alone (Google's sheet) the name.
  // German ERPs' "Bezeichnung" (a designation) is the store's name in a list of stores.
  name: [
    'store',
    'shop',
    'branch',
    'filiale',
    'magasin',
    'tienda',
    'negozio',
    'winkel',
    'vestiging',
    'business name',
    'bezeichnung',
    'filialbezeichnung',
  ],
  // WP Store Locator's post id and Store Locator Plus's: a store's key in a file moved from it,
  // unless a code is there too.
  external_id: ['wpsl_id', 'sl_id'],
  city: ['suburb', 'localidad'],
  region: ['county', 'département', 'departement', 'regione', 'province code', 'state code', 'region code'],
  // WP Store Locator's country_iso beside its country: a code ("US"), read as Country Code is.
  country: ['country code', 'ländercode', 'country_iso'],
  // Shopify's and many sheets' TRUE/FALSE or yes/no, StoreRocket's 1/0, read as status words are.
  status: ['active', 'aktiv', 'visible'],
  // Also a width and a length: read as latitude and longitude only together (csv.ts).
  'coordinates.lat': ['breite'],
  'coordinates.lng': ['länge', 'laenge'],
} as const satisfies Record<string, readonly string[]>

/** Words a column of some days' hours has beside its days ("Öffnungszeiten Mo-Fr", "Sat-Sun Hours", "Opening Sat"). */
const HOURS_WORDS =
  /(?<!\p{L})(?:opening hours|opening times|open hours|store hours|business hours|hours|opening|öffnungszeiten|geschäftszeiten|horaires|horario|orari|openingstijden)(?!\p{L})/giu

/** Whether a header names its column's hours ("Öffnungszeiten Sa", "Sat-Sun Hours"). */
export const hasHoursWord = (header: string): boolean => header.search(HOURS_WORDS) >= 0

/**
 * The days a header names when its column holds their hours ("Mo-Fr", "Öffnungszeiten Sa",
 * "Sat-Sun Hours"), as written, or null: days named as a week of hours names them (week-hours.ts).
 */
export function daysColumn(header: string): string | null {
  const days = header.replace(HOURS_WORDS, ' ').replace(/[():]/g, ' ').replace(/\s+/g, ' ').trim()
  return days !== '' && namesDays(days) ? days : null
}

/** Header prefixes before the first '.' that name a custom field: custom.<id>, custom_fields.<id>. */
const CUSTOM_PREFIXES = new Set(['custom', 'customfields'])

/** What an import template writes after a header cell to mark it required or not: "Name *", "Address:". */
export const MARK =
  /\s*(?:\*+|:|\((?:required|optional|pflichtfeld|pflicht|erforderlich|obligatoire|facultatif|obligatorio|opcional|obbligatorio|facoltativo|verplicht|optioneel)\))\s*$/iu

const headerKey = (text: string) =>
  text
    .replace(MARK, '')
    .toLowerCase()
    .replace(/[\s_.-]/g, '')

/** Spelling key -> field. Built once from the table; a spelling that fits two fields is a bug in it. */
const FIELD_BY_KEY = new Map<string, string>()
for (const [field, names] of Object.entries(COLUMN_NAMES)) {
  for (const name of [field, ...names]) {
    const key = headerKey(name)
    const other = FIELD_BY_KEY.get(key)
    if (other !== undefined && other !== field) throw new Error(`CSV header "${name}" would name ${other} and ${field}`)
    FIELD_BY_KEY.set(key, field)
  }
}
const FALLBACK_BY_KEY = new Map<string, string>()
for (const [field, names] of Object.entries(FALLBACK_NAMES))
  for (const name of names) {
    if (FIELD_BY_KEY.has(headerKey(name))) throw new Error(`CSV header "${name}" is a spelling and a fallback`)
    FALLBACK_BY_KEY.set(headerKey(name), field)
  }

/** Store Locator Plus writes each column's name after "sl_" (sl_address, sl_zip), and reads it without. */
const SLP_PREFIX = /^sl_/i

/** The key of a header, and of its name without Store Locator Plus's "sl_" (but sl_id, its store's key): the keys it may be read by. */
function headerKeys(header: string): string[] {
  const key = headerKey(header)
  return SLP_PREFIX.test(header) && !FALLBACK_BY_KEY.has(key) ? [key, headerKey(header.replace(SLP_PREFIX, ''))] : [key]
}

/**
 * The field a header cell fills, or null when none: a key of the table above, or
 * `custom_fields.<id>` with the id exactly as written after the first '.'.
 */
export function columnField(header: string): string | null {
  const dot = header.indexOf('.')
  if (dot > 0 && CUSTOM_PREFIXES.has(headerKey(header.slice(0, dot)))) {
    const id = header.slice(dot + 1).trim()
    return id === '' ? null : `custom_fields.${id}`
  }
  for (const key of headerKeys(header)) {
    const field = FIELD_BY_KEY.get(key)
    if (field !== undefined) return field
  }
  return null
}

/** Columns other locators export that hold what no field can take from them, and what to write instead. */
const UNREAD_HINTS = new Map([
  [
    headerKey('hours_id'),
    'names hours templates (StoreRocket\'s), whose hours are not in the file: no hours are imported from it. Give each day\'s hours in a column of its own (monday ... sunday), such as "09:00-17:00" or "Closed", as StoreRocket also reads them.',
  ],
  // Not read as tags: one of Google's list for each store, the same across most chains' stores, it
  // would be a filter that filters nothing, and beside Labels (read as tags) mix Google's words in.
  [
    headerKey('primary category'),
    'is Google\'s category of each store (one of Google\'s list), not imported: tags are the locator\'s filters, and "Labels" are read as them. To filter by it, copy its values into "Labels".',
  ],
])

/** What a column no field reads holds and what to write instead, when another tool's export is known to have it; else null. */
export const unreadHint = (header: string): string | null => UNREAD_HINTS.get(headerKey(header)) ?? null

/** The field a header cell fills when no other column of its file does (FALLBACK_NAMES), or null. */
export function fallbackField(header: string): string | null {
  for (const key of headerKeys(header)) {
    const field = FALLBACK_BY_KEY.get(key)
    if (field !== undefined) return field
  }
  return null
}

/** Each spelling's key and the spelling as the tables write it: what a misspelt header may have meant. */
const SPELLINGS = [...Object.entries(COLUMN_NAMES), ...Object.entries(FALLBACK_NAMES)].flatMap(([field, names]) =>
  [field, ...names].map((name) => [headerKey(name), name] as const),
)

/**
 * The spelling a header that names no field most likely meant: one edit away ("Adress",
 * "Postcde"), two for a header of 8 characters or more ("Lattitude"); null for none, for a
 * header shorter than 5, and for a numbered copy of a spelling ("Email 2").
 */
export function meantColumn(header: string): string | null {
  const key = headerKey(header)
  // A fallback spelling left unread (County beside State) is no misspelling.
  if (key.length < 5 || FIELD_BY_KEY.has(key.replace(/\d+/g, '')) || FALLBACK_BY_KEY.has(key)) return null
  for (let edits = 1; edits <= (key.length >= 8 ? 2 : 1); edits++) {
    // Two edits that lengthen or shorten a name are another name ("Location": "Location ID").
    const meant = SPELLINGS.find(
      ([spelling]) =>
        withinEdits(key, spelling, edits) && (edits === 1 || !(spelling.startsWith(key) || key.startsWith(spelling))),
    )
    if (meant !== undefined) return meant[1]
  }
  return null
}

/** Fields as a person names them in a message, where the field's own name is the service's ("street2"). */
const FIELD_WORDS: Record<string, string> = {
  id: 'the id',
  external_id: 'the store code',
  address: 'the address',
  house_number: 'the house number',
  street2: 'the second address line',
  sublocality: 'the district',
  coordinates: 'the coordinates',
  'coordinates.lat': 'the latitude',
  'coordinates.lng': 'the longitude',
  'contact.phone': 'the phone number',
  'contact.email': 'the email address',
  'contact.website': 'the website',
  'social.instagram': 'the Instagram link',
  'social.facebook': 'the Facebook link',
  'social.twitter': 'the Twitter link',
  hours: 'the opening hours',
  special_hours: 'the special hours',
  timezone: 'the time zone',
  image_url: 'the image',
  delete: 'the delete flag',
}

/**
 * A field as a message names it ("the district", "Monday's hours", 'the custom field "wifi"'):
 * the words of FIELD_WORDS, else "the" and its name ("the city", "the postcode").
 */
export function fieldSaid(field: string): string {
  if (field.startsWith('hours.')) {
    const day = field.slice('hours.'.length)
    return `${day.charAt(0).toUpperCase()}${day.slice(1)}'s hours`
  }
  if (field.startsWith('custom_fields.')) return `the custom field "${field.slice('custom_fields.'.length)}"`
  return FIELD_WORDS[field] ?? `the ${field}`
}
