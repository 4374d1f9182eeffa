// The Danish, Swedish and Norwegian spellings of a locations CSV's header cells: more of the table
// csv-spellings.ts gives (COLUMN_NAMES), kept apart so that each file stays one to read. Data only.

/**
 * Each field's spellings in Danish, Swedish and Norwegian, besides those COLUMN_NAMES gives it
 * (`adresse`, `land`, `telefon` are German's too, and there already). Swedish "adress" is in
 * NORDIC_FILE_NAMES: elsewhere it is "Address" misspelt, which the columns not read ask about.
 */
export const NORDIC_NAMES = {
  external_id: ['butiksnummer', 'butiksnr', 'butikskode', 'butikkode', 'butikknummer'],
  name: ['navn', 'butiksnavn', 'butikknavn', 'namn', 'butiksnamn'],
  address: ['fuld adresse', 'full adresse', 'fullständig adress', 'besöksadress', 'besøksadresse'],
  street: ['gade', 'vej', 'gadenavn', 'vejnavn', 'gata', 'gatuadress', 'gate', 'gateadresse'],
  house_number: ['husnummer', 'husnr', 'gatunummer'],
  city: ['by', 'bynavn', 'postdistrikt', 'postort', 'poststed', 'sted'],
  postcode: ['postnummer', 'postnr'],
  region: ['län', 'fylke'],
  'coordinates.lat': ['breddegrad', 'breddgrad'],
  'coordinates.lng': ['længdegrad', 'laengdegrad', 'lengdegrad', 'längdgrad'],
  'contact.phone': ['tlf', 'tlf nr', 'telefonnr'],
  'contact.email': ['e-post', 'epost', 'e-postadress', 'e-postadresse', 'e-mailadresse'],
  'contact.website': ['hjemmeside', 'webside', 'hemsida', 'webbplats', 'webbsida', 'webbadress', 'nettside'],
  description: ['beskrivelse', 'beskrivning'],
  tags: ['kategori', 'kategorier', 'tjenester', 'tjänster'],
  hours: ['åbningstider', 'öppettider', 'åpningstider'],
  special_hours: ['særlige åbningstider', 'avvikande öppettider', 'avvikende åpningstider'],
  'hours.monday': ['mandag', 'måndag'],
  'hours.tuesday': ['tirsdag', 'tisdag'],
  'hours.wednesday': ['onsdag'],
  'hours.thursday': ['torsdag'],
  'hours.friday': ['fredag'],
  'hours.saturday': ['lørdag', 'lördag'],
  'hours.sunday': ['søndag', 'söndag'],
} as const satisfies Record<string, readonly string[]>

/**
 * Spellings read only in a file with a header of NORDIC_NAMES (csv-columns.ts nordicFile): Swedish
 * "Adress" beside "Namn" is the address; beside English headers it is "Address" misspelt, asked about.
 */
export const NORDIC_FILE_NAMES = {
  address: ['adress'],
} as const satisfies Record<string, readonly string[]>

/**
 * Words of the languages read one edit from a spelling of another field: no misspelling of it to
 * ask about. "Postadress" (the postal address) is no "E-postadress"; German "Staat" (a state or a
 * country) no Dutch "Straat"; Italian "Stato" (mostly the country) no "State".
 */
export const NOT_MISSPELT = ['postadress', 'postadresse', 'staat', 'stato'] as const
