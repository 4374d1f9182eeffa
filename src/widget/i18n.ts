// The widget's texts in each language the service ships (core/languages.ts). "{n}", "{place}",
// "{time}", "{day}", "{r}" and "{words}" are filled in by t(); a pair is [one, other] for counts,
// its one form written with "{n}" where more than 1 takes it (French: "0 suggestion").
import { type Lang, langOf, regionOf } from '../core/languages'

const EN = {
  place: 'Town or postcode',
  placeHint: 'e.g. London or 10115',
  locate: 'Use my location',
  locating: 'Finding your location…',
  locateRefused: 'Your browser did not share your location. Type a town or postcode instead.',
  locateFailed: 'Your location could not be found. Type a town or postcode instead.',
  yourLocation: 'Your location',
  // Around the visitor's own position a place's sentence is said with {place} (and the word before
  // it, where the language joins them) as written here.
  nearYou: ['{place}', 'your location'],
  keyword: 'Name, product or service',
  radius: 'Within',
  // The radius option of the locator's own default, while its number is not known.
  defaultRadius: 'Default distance',
  openNow: 'Open now',
  search: 'Search',
  any: 'Any',
  filters: 'Filters',
  other: 'Other',
  skip: 'Skip to the stores found',
  // On a phone: the button that shows the map in the list's place, and the list again.
  showMap: 'Show map',
  showList: 'Show list',
  suggestions: ['1 suggestion', '{n} suggestions'],
  prompt: 'Type a town or postcode, or use your location, to find the nearest stores.',
  found: ['1 store', '{n} stores'],
  showFound: ['Show 1 store', 'Show {n} stores'],
  foundNear: ['1 store within {r} of {place}', '{n} stores within {r} of {place}'],
  none: 'No stores match.',
  noneNear: 'No stores within {r} of {place}. Try a larger distance or fewer filters.',
  // With “Open now” on: that switch is what empties the list, more often than the distance.
  noneOpenNear: 'No store within {r} of {place} is open now. Clear “Open now”, or try a larger distance.',
  noMatch: 'No store matches “{words}”. Try other words.',
  // None within the radius, the nearest beyond it listed below.
  nearestNear: 'No stores within {r} of {place}. The nearest stores:',
  loading: 'Searching…',
  more: 'Show more stores',
  shown: 'Showing {n} of {total}',
  open: 'Open now',
  closed: 'Closed',
  closesAt: 'closes at {time}',
  closesTomorrow: 'closes tomorrow at {time}',
  closesOn: 'closes {day} at {time}',
  opensAt: 'opens at {time}',
  opensTomorrow: 'opens tomorrow at {time}',
  opensOn: 'opens {day} at {time}',
  today: 'Today',
  directions: 'Directions',
  website: 'Website',
  call: 'Call',
  email: 'Email',
  finder: 'Store finder',
  list: 'Stores',
  map: 'Map of the stores',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  details: 'Store page',
  newTab: 'opens in a new tab',
  notFound: 'No place called “{place}” was found. Try the name of a town.',
  postcodeNotFound:
    'No place or postcode “{place}” was found. The postcodes of some countries are not known here: try the name of a town.',
  notAllowed: 'This store finder is not enabled for this site.',
  switchedOff: 'This store finder is switched off by its owner.',
  badToken: 'This store finder is set up with a token that is not valid.',
  busy: 'Too many searches just now. Try again in a moment.',
  failed: 'The stores could not be loaded. Try again.',
  notLoaded: 'The stores could not be loaded.',
  filtersNotLoaded: 'The filters could not be loaded.',
  retry: 'Try again',
}

/**
 * "closes at {time}" and its kin: a pair where the article agrees with the hour the time shows,
 * which counts as a count does ("a la 1:00", "a las 2:00"; "all'1:00", "alle 13:00").
 */
type AtTime = string | readonly [string, string]
type TimeKey = `${'closes' | 'opens'}${'At' | 'Tomorrow' | 'On'}`
export type Texts = Omit<typeof EN, TimeKey> & Record<TimeKey, AtTime>

const DE: Texts = {
  place: 'Ort oder Postleitzahl',
  placeHint: 'z. B. Berlin oder 10115',
  locate: 'Meinen Standort verwenden',
  locating: 'Standort wird ermittelt…',
  locateRefused: 'Ihr Browser hat den Standort nicht freigegeben. Geben Sie einen Ort oder eine Postleitzahl ein.',
  locateFailed: 'Ihr Standort wurde nicht gefunden. Geben Sie einen Ort oder eine Postleitzahl ein.',
  yourLocation: 'Ihr Standort',
  nearYou: ['{place}', 'Ihren Standort'],
  keyword: 'Name, Produkt oder Service',
  radius: 'Umkreis',
  defaultRadius: 'Standardumkreis',
  openNow: 'Jetzt geöffnet',
  search: 'Suchen',
  any: 'Alle',
  filters: 'Filter',
  other: 'Sonstiges',
  skip: 'Zu den gefundenen Geschäften springen',
  showMap: 'Karte anzeigen',
  showList: 'Liste anzeigen',
  suggestions: ['1 Vorschlag', '{n} Vorschläge'],
  prompt: 'Geben Sie einen Ort oder eine Postleitzahl ein oder nutzen Sie Ihren Standort.',
  found: ['1 Geschäft', '{n} Geschäfte'],
  showFound: ['1 Geschäft anzeigen', '{n} Geschäfte anzeigen'],
  foundNear: ['1 Geschäft im Umkreis von {r} um {place}', '{n} Geschäfte im Umkreis von {r} um {place}'],
  none: 'Keine passenden Geschäfte.',
  noneNear: 'Keine Geschäfte im Umkreis von {r} um {place}. Vergrößern Sie den Umkreis oder wählen Sie weniger Filter.',
  noneOpenNear:
    'Im Umkreis von {r} um {place} hat gerade kein Geschäft geöffnet. Schalten Sie „Jetzt geöffnet“ aus oder vergrößern Sie den Umkreis.',
  noMatch: 'Kein Geschäft passt zu „{words}“. Versuchen Sie es mit anderen Suchbegriffen.',
  nearestNear: 'Keine Geschäfte im Umkreis von {r} um {place}. Die nächstgelegenen Geschäfte:',
  loading: 'Suche läuft…',
  more: 'Weitere Geschäfte anzeigen',
  shown: '{n} von {total}',
  open: 'Jetzt geöffnet',
  closed: 'Geschlossen',
  closesAt: 'schließt um {time}\u00a0Uhr',
  closesTomorrow: 'schließt morgen um {time}\u00a0Uhr',
  closesOn: 'schließt am {day} um {time}\u00a0Uhr',
  opensAt: 'öffnet um {time}\u00a0Uhr',
  opensTomorrow: 'öffnet morgen um {time}\u00a0Uhr',
  opensOn: 'öffnet am {day} um {time}\u00a0Uhr',
  today: 'Heute',
  directions: 'Route',
  website: 'Website',
  call: 'Anrufen',
  email: 'E-Mail',
  finder: 'Filialsuche',
  list: 'Geschäfte',
  map: 'Karte der Geschäfte',
  zoomIn: 'Vergrößern',
  zoomOut: 'Verkleinern',
  details: 'Details',
  newTab: 'öffnet in einem neuen Tab',
  notFound: 'Kein Ort namens „{place}“ gefunden. Versuchen Sie es mit dem Namen eines Ortes.',
  postcodeNotFound:
    'Kein Ort und keine Postleitzahl „{place}“ gefunden. Die Postleitzahlen mancher Länder sind hier nicht bekannt: Versuchen Sie es mit dem Namen eines Ortes.',
  notAllowed: 'Diese Filialsuche ist für diese Website nicht freigeschaltet.',
  switchedOff: 'Diese Filialsuche wurde von ihrem Betreiber deaktiviert.',
  badToken: 'Diese Filialsuche ist mit einem ungültigen Token eingerichtet.',
  busy: 'Zurzeit gibt es zu viele Suchanfragen. Versuchen Sie es gleich noch einmal.',
  failed: 'Die Geschäfte konnten nicht geladen werden. Versuchen Sie es erneut.',
  notLoaded: 'Die Geschäfte konnten nicht geladen werden.',
  filtersNotLoaded: 'Die Filter konnten nicht geladen werden.',
  retry: 'Erneut versuchen',
}

const FR: Texts = {
  place: 'Ville ou code postal',
  placeHint: 'p. ex. Paris ou 75001',
  locate: 'Utiliser ma position',
  locating: 'Recherche de votre position…',
  locateRefused: 'Votre navigateur n’a pas partagé votre position. Saisissez une ville ou un code postal.',
  locateFailed: 'Votre position est introuvable. Saisissez une ville ou un code postal.',
  yourLocation: 'Votre position',
  nearYou: ['{place}', 'votre position'],
  keyword: 'Nom, produit ou service',
  radius: 'Dans un rayon de',
  defaultRadius: 'Distance par défaut',
  openNow: 'Ouvert maintenant',
  search: 'Rechercher',
  any: 'Tous',
  filters: 'Filtres',
  other: 'Autres',
  skip: 'Aller aux magasins trouvés',
  showMap: 'Afficher la carte',
  showList: 'Afficher la liste',
  suggestions: ['{n} suggestion', '{n} suggestions'],
  prompt: 'Saisissez une ville ou un code postal, ou utilisez votre position.',
  found: ['{n} magasin', '{n} magasins'],
  showFound: ['Voir {n} magasin', 'Voir les {n} magasins'],
  foundNear: ['{n} magasin à moins de {r} de {place}', '{n} magasins à moins de {r} de {place}'],
  none: 'Aucun magasin ne correspond.',
  noneNear: 'Aucun magasin à moins de {r} de {place}. Augmentez la distance ou retirez des filtres.',
  noneOpenNear:
    'Aucun magasin à moins de {r} de {place} n’est ouvert maintenant. Décochez «\u00a0Ouvert maintenant\u00a0» ou augmentez la distance.',
  noMatch: 'Aucun magasin ne correspond à «\u00a0{words}\u00a0». Essayez d’autres mots.',
  nearestNear: 'Aucun magasin à moins de {r} de {place}. Les magasins les plus proches\u00a0:',
  loading: 'Recherche en cours…',
  more: 'Afficher plus de magasins',
  shown: '{n} sur {total}',
  open: 'Ouvert',
  closed: 'Fermé',
  closesAt: 'ferme à {time}',
  closesTomorrow: 'ferme demain à {time}',
  closesOn: 'ferme {day} à {time}',
  opensAt: 'ouvre à {time}',
  opensTomorrow: 'ouvre demain à {time}',
  opensOn: 'ouvre {day} à {time}',
  today: 'Aujourd’hui',
  directions: 'Itinéraire',
  website: 'Site web',
  call: 'Appeler',
  email: 'E-mail',
  finder: 'Recherche de magasins',
  list: 'Magasins',
  map: 'Carte des magasins',
  zoomIn: 'Zoom avant',
  zoomOut: 'Zoom arrière',
  details: 'Fiche du magasin',
  newTab: 's’ouvre dans un nouvel onglet',
  notFound: 'Aucun lieu nommé «\u00a0{place}\u00a0» n’a été trouvé. Essayez le nom d’une ville.',
  postcodeNotFound:
    'Aucun lieu ni code postal «\u00a0{place}\u00a0» n’a été trouvé. Les codes postaux de certains pays ne sont pas connus ici\u00a0: essayez le nom d’une ville.',
  notAllowed: 'Cette recherche de magasins n’est pas activée pour ce site.',
  switchedOff: 'Cette recherche de magasins a été désactivée par son propriétaire.',
  badToken: 'Cette recherche de magasins est configurée avec un jeton non valide.',
  busy: 'Trop de recherches en ce moment. Réessayez dans un instant.',
  failed: 'Les magasins n’ont pas pu être chargés. Réessayez.',
  notLoaded: 'Les magasins n’ont pas pu être chargés.',
  filtersNotLoaded: 'Les filtres n’ont pas pu être chargés.',
  retry: 'Réessayer',
}

const ES: Texts = {
  place: 'Ciudad o código postal',
  placeHint: 'p. ej. Madrid o 28013',
  locate: 'Usar mi ubicación',
  locating: 'Buscando tu ubicación…',
  locateRefused: 'Tu navegador no compartió tu ubicación. Escribe una ciudad o un código postal.',
  locateFailed: 'No se encontró tu ubicación. Escribe una ciudad o un código postal.',
  yourLocation: 'Tu ubicación',
  nearYou: ['{place}', 'tu ubicación'],
  keyword: 'Nombre, producto o servicio',
  radius: 'A menos de',
  defaultRadius: 'Distancia predeterminada',
  openNow: 'Abierto ahora',
  search: 'Buscar',
  any: 'Todos',
  filters: 'Filtros',
  other: 'Otros',
  skip: 'Ir a las tiendas encontradas',
  showMap: 'Ver mapa',
  showList: 'Ver lista',
  suggestions: ['1 sugerencia', '{n} sugerencias'],
  prompt: 'Escribe una ciudad o un código postal, o usa tu ubicación.',
  found: ['1 tienda', '{n} tiendas'],
  showFound: ['Ver 1 tienda', 'Ver las {n} tiendas'],
  foundNear: ['1 tienda a menos de {r} de {place}', '{n} tiendas a menos de {r} de {place}'],
  none: 'Ninguna tienda coincide.',
  noneNear: 'No hay tiendas a menos de {r} de {place}. Amplía la distancia o quita filtros.',
  noneOpenNear:
    'Ninguna tienda a menos de {r} de {place} está abierta ahora. Desmarca «Abierto ahora» o amplía la distancia.',
  noMatch: 'Ninguna tienda coincide con «{words}». Prueba con otras palabras.',
  nearestNear: 'No hay tiendas a menos de {r} de {place}. Las tiendas más cercanas:',
  loading: 'Buscando…',
  more: 'Ver más tiendas',
  shown: '{n} de {total}',
  open: 'Abierto',
  closed: 'Cerrado',
  closesAt: ['cierra a la {time}', 'cierra a las {time}'],
  closesTomorrow: ['cierra mañana a la {time}', 'cierra mañana a las {time}'],
  closesOn: ['cierra el {day} a la {time}', 'cierra el {day} a las {time}'],
  opensAt: ['abre a la {time}', 'abre a las {time}'],
  opensTomorrow: ['abre mañana a la {time}', 'abre mañana a las {time}'],
  opensOn: ['abre el {day} a la {time}', 'abre el {day} a las {time}'],
  today: 'Hoy',
  directions: 'Cómo llegar',
  website: 'Sitio web',
  call: 'Llamar',
  email: 'Correo',
  finder: 'Buscador de tiendas',
  list: 'Tiendas',
  map: 'Mapa de las tiendas',
  zoomIn: 'Acercar',
  zoomOut: 'Alejar',
  details: 'Ficha de la tienda',
  newTab: 'se abre en una pestaña nueva',
  notFound: 'No se encontró ningún lugar llamado «{place}». Prueba con el nombre de una ciudad.',
  postcodeNotFound:
    'No se encontró ningún lugar ni código postal «{place}». Los códigos postales de algunos países no se conocen aquí: prueba con el nombre de una ciudad.',
  notAllowed: 'Este buscador de tiendas no está habilitado para este sitio.',
  switchedOff: 'Su propietario ha desactivado este buscador de tiendas.',
  badToken: 'Este buscador de tiendas está configurado con un token no válido.',
  busy: 'Demasiadas búsquedas ahora mismo. Inténtalo de nuevo en un momento.',
  failed: 'No se pudieron cargar las tiendas. Inténtalo de nuevo.',
  notLoaded: 'No se pudieron cargar las tiendas.',
  filtersNotLoaded: 'No se pudieron cargar los filtros.',
  retry: 'Reintentar',
}

const IT: Texts = {
  place: 'Città o CAP',
  placeHint: 'es. Roma o 00184',
  locate: 'Usa la mia posizione',
  locating: 'Ricerca della posizione…',
  locateRefused: 'Il browser non ha condiviso la posizione. Inserisci una città o un CAP.',
  locateFailed: 'Posizione non trovata. Inserisci una città o un CAP.',
  yourLocation: 'La tua posizione',
  nearYou: ['da {place}', 'dalla tua posizione'],
  keyword: 'Nome, prodotto o servizio',
  radius: 'Entro',
  defaultRadius: 'Distanza predefinita',
  openNow: 'Aperto ora',
  search: 'Cerca',
  any: 'Tutti',
  filters: 'Filtri',
  other: 'Altro',
  skip: 'Vai ai negozi trovati',
  showMap: 'Mostra la mappa',
  showList: 'Mostra l’elenco',
  suggestions: ['1 suggerimento', '{n} suggerimenti'],
  prompt: 'Inserisci una città o un CAP, oppure usa la tua posizione.',
  found: ['1 negozio', '{n} negozi'],
  showFound: ['Mostra 1 negozio', 'Mostra i {n} negozi'],
  foundNear: ['1 negozio entro {r} da {place}', '{n} negozi entro {r} da {place}'],
  none: 'Nessun negozio corrisponde.',
  noneNear: 'Nessun negozio entro {r} da {place}. Aumenta la distanza o togli qualche filtro.',
  noneOpenNear: 'Nessun negozio entro {r} da {place} è aperto ora. Deseleziona «Aperto ora» o aumenta la distanza.',
  noMatch: 'Nessun negozio corrisponde a «{words}». Prova con altre parole.',
  nearestNear: 'Nessun negozio entro {r} da {place}. I negozi più vicini:',
  loading: 'Ricerca in corso…',
  more: 'Mostra altri negozi',
  shown: '{n} di {total}',
  open: 'Aperto',
  closed: 'Chiuso',
  closesAt: ['chiude all’{time}', 'chiude alle {time}'],
  closesTomorrow: ['chiude domani all’{time}', 'chiude domani alle {time}'],
  closesOn: ['chiude {day} all’{time}', 'chiude {day} alle {time}'],
  opensAt: ['apre all’{time}', 'apre alle {time}'],
  opensTomorrow: ['apre domani all’{time}', 'apre domani alle {time}'],
  opensOn: ['apre {day} all’{time}', 'apre {day} alle {time}'],
  today: 'Oggi',
  directions: 'Indicazioni',
  website: 'Sito web',
  call: 'Chiama',
  email: 'E-mail',
  finder: 'Ricerca negozi',
  list: 'Negozi',
  map: 'Mappa dei negozi',
  zoomIn: 'Ingrandisci',
  zoomOut: 'Riduci',
  details: 'Scheda del negozio',
  newTab: 'si apre in una nuova scheda',
  notFound: 'Nessun luogo trovato con il nome «{place}». Prova con il nome di una città.',
  postcodeNotFound:
    'Nessun luogo o codice postale trovato per «{place}». I codici postali di alcuni paesi non sono noti qui: prova con il nome di una città.',
  notAllowed: 'Questa ricerca negozi non è abilitata per questo sito.',
  switchedOff: 'Questa ricerca negozi è stata disattivata dal suo gestore.',
  badToken: 'Questa ricerca negozi è configurata con un token non valido.',
  busy: 'Troppe ricerche in questo momento. Riprova tra poco.',
  failed: 'Impossibile caricare i negozi. Riprova.',
  notLoaded: 'Impossibile caricare i negozi.',
  filtersNotLoaded: 'Impossibile caricare i filtri.',
  retry: 'Riprova',
}

const NL: Texts = {
  place: 'Plaats of postcode',
  placeHint: 'bijv. Amsterdam of Utrecht',
  locate: 'Mijn locatie gebruiken',
  locating: 'Uw locatie wordt bepaald…',
  locateRefused: 'Uw browser heeft uw locatie niet gedeeld. Typ een plaats of postcode.',
  locateFailed: 'Uw locatie is niet gevonden. Typ een plaats of postcode.',
  yourLocation: 'Uw locatie',
  nearYou: ['{place}', 'uw locatie'],
  keyword: 'Naam, product of dienst',
  radius: 'Binnen',
  defaultRadius: 'Standaardafstand',
  openNow: 'Nu open',
  search: 'Zoeken',
  any: 'Alle',
  filters: 'Filters',
  other: 'Overig',
  skip: 'Naar de gevonden winkels',
  showMap: 'Kaart tonen',
  showList: 'Lijst tonen',
  suggestions: ['1 suggestie', '{n} suggesties'],
  prompt: 'Typ een plaats of postcode, of gebruik uw locatie.',
  found: ['1 winkel', '{n} winkels'],
  showFound: ['1 winkel tonen', '{n} winkels tonen'],
  foundNear: ['1 winkel binnen {r} van {place}', '{n} winkels binnen {r} van {place}'],
  none: 'Geen winkels gevonden.',
  noneNear: 'Geen winkels binnen {r} van {place}. Kies een grotere afstand of minder filters.',
  noneOpenNear: 'Geen winkel binnen {r} van {place} is nu open. Vink “Nu open” uit of kies een grotere afstand.',
  noMatch: 'Geen winkels gevonden voor “{words}”. Probeer andere zoekwoorden.',
  nearestNear: 'Geen winkels binnen {r} van {place}. De dichtstbijzijnde winkels:',
  loading: 'Zoeken…',
  more: 'Meer winkels tonen',
  shown: '{n} van {total}',
  open: 'Nu open',
  closed: 'Gesloten',
  closesAt: 'sluit om {time}',
  closesTomorrow: 'sluit morgen om {time}',
  closesOn: 'sluit {day} om {time}',
  opensAt: 'opent om {time}',
  opensTomorrow: 'opent morgen om {time}',
  opensOn: 'opent {day} om {time}',
  today: 'Vandaag',
  directions: 'Route',
  website: 'Website',
  call: 'Bellen',
  email: 'E-mail',
  finder: 'Winkelzoeker',
  list: 'Winkels',
  map: 'Kaart van de winkels',
  zoomIn: 'Inzoomen',
  zoomOut: 'Uitzoomen',
  details: 'Winkelpagina',
  newTab: 'opent in een nieuw tabblad',
  notFound: 'Geen plaats met de naam “{place}” gevonden. Probeer een plaatsnaam.',
  postcodeNotFound:
    'Geen plaats of postcode “{place}” gevonden. De postcodes van sommige landen zijn hier niet bekend: probeer een plaatsnaam.',
  notAllowed: 'Deze winkelzoeker is niet ingeschakeld voor deze site.',
  switchedOff: 'Deze winkelzoeker is door de eigenaar uitgeschakeld.',
  badToken: 'Deze winkelzoeker is ingesteld met een ongeldig token.',
  busy: 'Er wordt nu te veel gezocht. Probeer het zo opnieuw.',
  failed: 'De winkels konden niet worden geladen. Probeer het opnieuw.',
  notLoaded: 'De winkels konden niet worden geladen.',
  filtersNotLoaded: 'De filters konden niet worden geladen.',
  retry: 'Opnieuw proberen',
}

const LANGUAGES: Record<Lang, Texts> = { en: EN, de: DE, fr: FR, es: ES, it: IT, nl: NL }

/** The language asked for (its first two letters), else English; and its texts. */
export function textsFor(asked: string): { lang: Lang; texts: Texts; placeLang: string } {
  const lang = langOf(asked) ?? 'en'
  // The place search's lang carries the visitor's country, whose places it lifts: the tag's
  // region ("en-GB"), else the browser's when the browser speaks the widget's language.
  const browser = typeof navigator === 'undefined' ? '' : navigator.language
  const region = regionOf(asked) ?? (langOf(browser) === lang ? regionOf(browser) : null)
  return { lang, texts: LANGUAGES[lang], placeLang: region === null ? lang : `${lang}-${region}` }
}

type Key = keyof Texts
type Values = Record<string, string | number>

/** A text with its values filled in; a count (`n`) picks the one or other form, as its language counts. */
export const t = (texts: Texts, key: Key, values: Values = {}): string => fill(texts, key, values, ['', ''])

/** A place's sentence (foundNear...) said of the visitor's own position, as nearYou writes it. */
export const tNearYou = (texts: Texts, key: Key, values: Values): string => fill(texts, key, values, texts.nearYou)

/** `key`'s text, its `at` written as `said` (none when empty), its values filled in. */
function fill(texts: Texts, key: Key, values: Values, [at, said]: string[]): string {
  const entry = texts[key]
  const picked: string = typeof entry === 'string' ? entry : isOne(texts, values.n) ? entry[0]! : entry[1]!
  const text = at ? picked.replace(at, said!) : picked
  const shown = (v: string | number) => (typeof v === 'number' ? numbersOf(texts).format(v) : v)
  const filled = text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? shown(values[name]!) : whole))
  return texts === FR ? frenchDe(filled) : filled
}

/** French "de" before a name: elided before its vowel ("d’Inverness"), joined to its article ("du Havre"). */
const frenchDe = (text: string): string =>
  text.replace(/\bde (?:(Les? )|(?=[AEIOUÀÂÉÈÊÎÏÔŒ]))/g, (_, article?: string) =>
    article === undefined ? 'd’' : article === 'Le ' ? 'du ' : 'des ',
  )

/**
 * A count as a map's bubble shows it: as t() writes it below 1,000, else short ("5.9K", "5,9 k"),
 * as the language shortens it (German writes "12.345" whole). Its full count is its name.
 */
export const shortCount = (texts: Texts, n: number): string => numbersOf(texts, true).format(n)

/**
 * A bubble's count in full, beginning with what the bubble shows (WCAG 2.5.3, so speech input
 * finds it by its label): "5.9K: 5,930 stores", "5930 Geschäfte" for "5.930 Geschäfte".
 */
export function countName(texts: Texts, n: number): string {
  const label = shortCount(texts, n)
  const whole = t(texts, 'found', { n })
  if (whole.includes(label)) return whole
  // Digits alone are the same count written another way: they take its place.
  if (!/\p{L}/u.test(label)) return whole.replace(numbersOf(texts).format(n), label)
  return `${label}: ${whole}`
}

/** The language whose texts these are. */
const langOfTexts = (texts: Texts): Lang =>
  (Object.keys(LANGUAGES) as Lang[]).find((l) => LANGUAGES[l] === texts) ?? 'en'

/** Whether a count takes the one form: 1, and in French 0 too ("0 suggestion"); made once a language. */
const plurals = new Map<Texts, Intl.PluralRules>()
function isOne(texts: Texts, n: string | number | undefined): boolean {
  if (typeof n !== 'number') return false
  let rules = plurals.get(texts)
  if (rules === undefined) plurals.set(texts, (rules = new Intl.PluralRules(langOfTexts(texts))))
  return rules.select(n) === 'one'
}

/** Numbers as each language's texts write them ("5,930", "5.930", "5 930"), or short; made once. */
const numberFormats = new Map<Texts, Intl.NumberFormat>()
const shortFormats = new Map<Texts, Intl.NumberFormat>()
function numbersOf(texts: Texts, short = false): Intl.NumberFormat {
  const formats = short ? shortFormats : numberFormats
  let format = formats.get(texts)
  if (format === undefined) {
    format = new Intl.NumberFormat(langOfTexts(texts), short ? { notation: 'compact' } : {})
    formats.set(texts, format)
  }
  return format
}
