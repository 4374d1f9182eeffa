// The Danish, Swedish and Norwegian spellings of a locations CSV's header cells: more of the table
// csv-spellings.ts gives (COLUMN_NAMES), kept apart so that each file stays one to read. Data only.

/**
 * Each field's spellings in Danish, Swedish and Norwegian, besides those COLUMN_NAMES gives it
 * (`adresse`, `land`, `telefon` are German's too, and there already). Swedish "adress" is
 * left out: it is "Address" misspelt too, which the columns not read ask about (meantColumn).
 */
export const NORDIC_NAMES = {
  external_id: ['butiksnummer', 'butiksnr', 'butikskode', 'butikkode', 'butikknummer'],
  name: ['navn', 'butiksnavn', 'butikknavn', 'namn', 'butiksnamn'],
  address: ['fuld adresse', 'full adresse', 'fullständig adress'],
  street: ['gade', 'vej', 'gadenavn', 'vejnavn', 'gata', 'gatuadress', 'gate', 'gateadresse'],
  house_number: ['husnummer', 'husnr', 'gatunummer'],
  city: ['by', 'bynavn', 'postdistrikt', 'postort', 'poststed', 'sted'],
  postcode: ['postnummer', 'postnr'],
  region: ['län', 'fylke'],
  'coordinates.lat': ['breddegrad', 'breddgrad'],
  'coordinates.lng': ['længdegrad', 'laengdegrad', 'lengdegrad', 'längdgrad'],
  'contact.phone': ['tlf', 'tlf nr', 'telefonnr'],
  'contact.email': ['e-post', 'epost', 'e-postadress', 'e-postadresse', 'e-mailadresse'],
  'contact.website': ['hjemmeside', 'webside', 'hemsida', 'webbplats', 'nettside'],
  description: ['beskrivelse', 'beskrivning'],
  tags: ['kategori', 'kategorier', 'tjenester', 'tjänster'],
  hours: ['åbningstider', 'öppettider', 'åpningstider'],
  'hours.monday': ['mandag', 'måndag'],
  'hours.tuesday': ['tirsdag', 'tisdag'],
  'hours.wednesday': ['onsdag'],
  'hours.thursday': ['torsdag'],
  'hours.friday': ['fredag'],
  'hours.saturday': ['lørdag', 'lördag'],
  'hours.sunday': ['søndag', 'söndag'],
} as const satisfies Record<string, readonly string[]>
