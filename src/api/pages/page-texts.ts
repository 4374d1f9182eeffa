// The texts of the service's own pages in each language the service ships (core/languages.ts),
// which a link picks with ?lang=. "{name}" is replaced by a name, "{in}" by a place after "in" as
// the language says it (inPlace; a country's and a town's in country-in.ts). Weekdays and dates come from
// Intl in that language; the words of hours ("Closed") from core/hours-text.ts, as the widget's.
import { type Lang, langOf } from '../../core/languages'

/** A text's form for each plural category a language has (Intl.PluralRules); "other" for any it lacks. */
export type Plural = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }

const EN = {
  back: 'Back to all stores',
  address: 'Address',
  directions: 'Directions with {name}',
  hours: 'Opening hours',
  day: 'Day',
  times: 'Hours',
  notGiven: 'Not given',
  special: 'Special opening hours',
  date: 'Date',
  contact: 'Contact',
  phone: 'Phone',
  email: 'Email',
  website: 'Website',
  details: 'Details',
  badges: 'Badges',
  photo: 'Photo of {name}',
  storeNotFound: 'Store not found',
  storeNotFoundText: 'This store does not exist or is not published.',
  finderNotFound: 'Store locator not found',
  finderNotFoundText: 'This store locator does not exist or is not public.',
  seeAll: 'See all stores',
  other: 'Other',
  finderTitle: '{name}: store finder',
  finderDescription: 'Find the nearest stores of {name}.',
  finder: 'Store finder',
  noScript: 'The store finder needs JavaScript: turn it on in your browser to search the stores.',
  directory: 'Store directory',
  browse: 'Browse the stores by place',
  storesIn: 'Stores {in}',
  inPlace: 'in {place}',
  // The stores of no country, and those of a country in no town ("elsewhere in Germany").
  inOtherPlaces: 'in other places',
  elsewhereIn: 'elsewhere {in}',
  otherPlaces: 'Other places',
  breadcrumb: 'Breadcrumb',
  pageOf: 'Page {page} of {pages}',
  pages: 'Pages',
  previous: 'Previous page',
  next: 'Next page',
  placeNotFound: 'Place not found',
  placeNotFoundText: 'No published store is in this place, or its list has no such page.',
  noStores: 'No store is published yet.',
  // A count, by the language's plural rules (counted): a form for each of its categories, with "{n}".
  stores: { one: '{n} store', other: '{n} stores' } as Plural,
  directoryDescription: 'The stores of {name} by country and town.',
  placeDescription: 'The stores of {name} {in}.',
  languages: 'Languages',
  // The error pages': too many pages asked for (429), the stores not readable (503), a failure (500).
  tooMany: 'Too many requests',
  tooManyText: 'Too many pages were asked for from this address. Please try again in a minute.',
  unavailable: 'Temporarily unavailable',
  unavailableText: 'The store list cannot be read at the moment. Please try again in a few seconds.',
  failed: 'Something went wrong',
  failedText: 'This page could not be made. Please try again later.',
  // A page asked for while the service starts (503): it reloads itself.
  starting: 'Starting',
  startingText: 'This store finder is starting. This page reloads in a moment.',
}

export type PageTexts = typeof EN

const TEXTS: Record<Lang, PageTexts> = {
  en: EN,
  de: {
    back: 'Zurück zu allen Geschäften',
    address: 'Adresse',
    directions: 'Route mit {name}',
    hours: 'Öffnungszeiten',
    day: 'Tag',
    times: 'Zeiten',
    notGiven: 'Keine Angabe',
    special: 'Sonderöffnungszeiten',
    date: 'Datum',
    contact: 'Kontakt',
    phone: 'Telefon',
    email: 'E-Mail',
    website: 'Website',
    details: 'Details',
    badges: 'Merkmale',
    photo: 'Foto von {name}',
    storeNotFound: 'Geschäft nicht gefunden',
    storeNotFoundText: 'Dieses Geschäft gibt es nicht oder es wurde nicht veröffentlicht.',
    finderNotFound: 'Filialsuche nicht gefunden',
    finderNotFoundText: 'Diese Filialsuche gibt es nicht oder sie ist nicht öffentlich.',
    seeAll: 'Alle Geschäfte ansehen',
    other: 'Sonstiges',
    finderTitle: '{name}: Filialsuche',
    finderDescription: 'Finden Sie die nächstgelegenen Geschäfte von {name}.',
    finder: 'Filialsuche',
    noScript: 'Die Filialsuche benötigt JavaScript: Aktivieren Sie es in Ihrem Browser, um nach Geschäften zu suchen.',
    directory: 'Filialverzeichnis',
    browse: 'Geschäfte nach Ort ansehen',
    storesIn: 'Geschäfte {in}',
    inPlace: 'in {place}',
    inOtherPlaces: 'an anderen Orten',
    elsewhereIn: 'an anderen Orten {in}',
    otherPlaces: 'Weitere Orte',
    breadcrumb: 'Navigationspfad',
    pageOf: 'Seite {page} von {pages}',
    pages: 'Seiten',
    previous: 'Vorherige Seite',
    next: 'Nächste Seite',
    placeNotFound: 'Ort nicht gefunden',
    placeNotFoundText:
      'An diesem Ort gibt es kein veröffentlichtes Geschäft, oder diese Seite der Liste gibt es nicht.',
    noStores: 'Es wurde noch kein Geschäft veröffentlicht.',
    stores: { one: '{n} Geschäft', other: '{n} Geschäfte' },
    directoryDescription: 'Die Geschäfte von {name} nach Land und Ort.',
    placeDescription: 'Die Geschäfte von {name} {in}.',
    languages: 'Sprachen',
    tooMany: 'Zu viele Anfragen',
    tooManyText:
      'Von dieser Adresse wurden zu viele Seiten angefordert. Bitte versuchen Sie es in einer Minute erneut.',
    unavailable: 'Vorübergehend nicht verfügbar',
    unavailableText:
      'Die Liste der Geschäfte kann gerade nicht gelesen werden. Bitte versuchen Sie es in ein paar Sekunden erneut.',
    failed: 'Etwas ist schiefgelaufen',
    failedText: 'Diese Seite konnte nicht erstellt werden. Bitte versuchen Sie es später erneut.',
    starting: 'Wird gestartet',
    startingText: 'Diese Filialsuche wird gerade gestartet. Die Seite lädt gleich neu.',
  },
  fr: {
    back: 'Retour à tous les magasins',
    address: 'Adresse',
    directions: 'Itinéraire avec {name}',
    hours: 'Horaires d’ouverture',
    day: 'Jour',
    times: 'Horaires',
    notGiven: 'Non indiqué',
    special: 'Horaires exceptionnels',
    date: 'Date',
    contact: 'Contact',
    phone: 'Téléphone',
    email: 'E-mail',
    website: 'Site web',
    details: 'Détails',
    badges: 'Badges',
    photo: 'Photo de {name}',
    storeNotFound: 'Magasin introuvable',
    storeNotFoundText: 'Ce magasin n’existe pas ou n’est pas publié.',
    finderNotFound: 'Recherche de magasins introuvable',
    finderNotFoundText: 'Cette recherche de magasins n’existe pas ou n’est pas publique.',
    seeAll: 'Voir tous les magasins',
    other: 'Autres',
    finderTitle: '{name}\u00a0: trouver un magasin',
    finderDescription: 'Trouvez les magasins {name} les plus proches.',
    finder: 'Trouver un magasin',
    noScript:
      'La recherche de magasins nécessite JavaScript\u00a0: activez-le dans votre navigateur pour chercher des magasins.',
    directory: 'Annuaire des magasins',
    browse: 'Parcourir les magasins par lieu',
    storesIn: 'Magasins {in}',
    inPlace: 'à {place}',
    inOtherPlaces: 'dans d’autres lieux',
    elsewhereIn: 'ailleurs {in}',
    otherPlaces: 'Autres lieux',
    breadcrumb: 'Fil d’Ariane',
    pageOf: 'Page {page} sur {pages}',
    pages: 'Pages',
    previous: 'Page précédente',
    next: 'Page suivante',
    placeNotFound: 'Lieu introuvable',
    placeNotFoundText: 'Aucun magasin publié ne se trouve dans ce lieu, ou cette page de la liste n’existe pas.',
    noStores: 'Aucun magasin n’est encore publié.',
    stores: { one: '{n} magasin', many: '{n} de magasins', other: '{n} magasins' },
    directoryDescription: 'Les magasins {name} par pays et par ville.',
    placeDescription: 'Les magasins {name} {in}.',
    languages: 'Langues',
    tooMany: 'Trop de requêtes',
    tooManyText: 'Trop de pages ont été demandées depuis cette adresse. Veuillez réessayer dans une minute.',
    unavailable: 'Temporairement indisponible',
    unavailableText:
      'La liste des magasins ne peut pas être lue pour le moment. Veuillez réessayer dans quelques secondes.',
    failed: 'Une erreur s’est produite',
    failedText: 'Cette page n’a pas pu être créée. Veuillez réessayer plus tard.',
    starting: 'Démarrage',
    startingText: 'Cette recherche de magasins démarre. La page se recharge dans un instant.',
  },
  es: {
    back: 'Volver a todas las tiendas',
    address: 'Dirección',
    directions: 'Cómo llegar con {name}',
    hours: 'Horario de apertura',
    day: 'Día',
    times: 'Horario',
    notGiven: 'Sin indicar',
    special: 'Horarios especiales',
    date: 'Fecha',
    contact: 'Contacto',
    phone: 'Teléfono',
    email: 'Correo',
    website: 'Sitio web',
    details: 'Detalles',
    badges: 'Distintivos',
    photo: 'Foto de {name}',
    storeNotFound: 'Tienda no encontrada',
    storeNotFoundText: 'Esta tienda no existe o no está publicada.',
    finderNotFound: 'Buscador de tiendas no encontrado',
    finderNotFoundText: 'Este buscador de tiendas no existe o no es público.',
    seeAll: 'Ver todas las tiendas',
    other: 'Otros',
    finderTitle: '{name}: buscador de tiendas',
    finderDescription: 'Encuentra las tiendas de {name} más cercanas.',
    finder: 'Buscador de tiendas',
    noScript: 'El buscador de tiendas necesita JavaScript: actívalo en tu navegador para buscar tiendas.',
    directory: 'Directorio de tiendas',
    browse: 'Ver las tiendas por lugar',
    storesIn: 'Tiendas {in}',
    inPlace: 'en {place}',
    inOtherPlaces: 'en otros lugares',
    // "{of}": the country after "de" ("de Alemania", "del Reino Unido").
    elsewhereIn: 'en otros lugares {of}',
    otherPlaces: 'Otros lugares',
    breadcrumb: 'Ruta de navegación',
    pageOf: 'Página {page} de {pages}',
    pages: 'Páginas',
    previous: 'Página anterior',
    next: 'Página siguiente',
    placeNotFound: 'Lugar no encontrado',
    placeNotFoundText: 'No hay ninguna tienda publicada en este lugar, o su lista no tiene esa página.',
    noStores: 'Todavía no hay ninguna tienda publicada.',
    stores: { one: '{n} tienda', many: '{n} de tiendas', other: '{n} tiendas' },
    directoryDescription: 'Las tiendas de {name} por país y ciudad.',
    placeDescription: 'Las tiendas de {name} {in}.',
    languages: 'Idiomas',
    tooMany: 'Demasiadas solicitudes',
    tooManyText: 'Se han pedido demasiadas páginas desde esta dirección. Vuelve a intentarlo dentro de un minuto.',
    unavailable: 'No disponible temporalmente',
    unavailableText: 'La lista de tiendas no se puede leer en este momento. Vuelve a intentarlo en unos segundos.',
    failed: 'Algo ha salido mal',
    failedText: 'No se ha podido crear esta página. Vuelve a intentarlo más tarde.',
    starting: 'Iniciando',
    startingText: 'Este buscador de tiendas se está iniciando. La página se recargará en un momento.',
  },
  it: {
    back: 'Torna a tutti i negozi',
    address: 'Indirizzo',
    directions: 'Indicazioni con {name}',
    hours: 'Orari di apertura',
    day: 'Giorno',
    times: 'Orario',
    notGiven: 'Non indicato',
    special: 'Orari speciali',
    date: 'Data',
    contact: 'Contatti',
    phone: 'Telefono',
    email: 'E-mail',
    website: 'Sito web',
    details: 'Dettagli',
    badges: 'Distintivi',
    photo: 'Foto di {name}',
    storeNotFound: 'Negozio non trovato',
    storeNotFoundText: 'Questo negozio non esiste o non è pubblicato.',
    finderNotFound: 'Ricerca negozi non trovata',
    finderNotFoundText: 'Questa ricerca negozi non esiste o non è pubblica.',
    seeAll: 'Vedi tutti i negozi',
    other: 'Altro',
    finderTitle: '{name}: trova negozi',
    finderDescription: 'Trova i negozi {name} più vicini.',
    finder: 'Trova negozi',
    noScript: 'La ricerca negozi richiede JavaScript: attivalo nel browser per cercare i negozi.',
    directory: 'Elenco dei negozi',
    browse: 'Sfoglia i negozi per luogo',
    storesIn: 'Negozi {in}',
    inPlace: 'a {place}',
    inOtherPlaces: 'in altri luoghi',
    elsewhereIn: 'altrove {in}',
    otherPlaces: 'Altri luoghi',
    breadcrumb: 'Percorso di navigazione',
    pageOf: 'Pagina {page} di {pages}',
    pages: 'Pagine',
    previous: 'Pagina precedente',
    next: 'Pagina successiva',
    placeNotFound: 'Luogo non trovato',
    placeNotFoundText: 'In questo luogo non c’è alcun negozio pubblicato, oppure il suo elenco non ha questa pagina.',
    noStores: 'Non è ancora stato pubblicato alcun negozio.',
    stores: { one: '{n} negozio', many: '{n} di negozi', other: '{n} negozi' },
    directoryDescription: 'I negozi {name} per paese e città.',
    placeDescription: 'I negozi {name} {in}.',
    languages: 'Lingue',
    tooMany: 'Troppe richieste',
    tooManyText: 'Da questo indirizzo sono state richieste troppe pagine. Riprova tra un minuto.',
    unavailable: 'Temporaneamente non disponibile',
    unavailableText: 'Al momento non è possibile leggere l’elenco dei negozi. Riprova tra qualche secondo.',
    failed: 'Si è verificato un errore',
    failedText: 'Non è stato possibile creare questa pagina. Riprova più tardi.',
    starting: 'Avvio in corso',
    startingText: 'Questa ricerca negozi si sta avviando. La pagina si ricaricherà tra un momento.',
  },
  nl: {
    back: 'Terug naar alle winkels',
    address: 'Adres',
    directions: 'Route met {name}',
    hours: 'Openingstijden',
    day: 'Dag',
    times: 'Tijden',
    notGiven: 'Niet opgegeven',
    special: 'Afwijkende openingstijden',
    date: 'Datum',
    contact: 'Contact',
    phone: 'Telefoon',
    email: 'E-mail',
    website: 'Website',
    details: 'Details',
    badges: 'Kenmerken',
    photo: 'Foto van {name}',
    storeNotFound: 'Winkel niet gevonden',
    storeNotFoundText: 'Deze winkel bestaat niet of is niet gepubliceerd.',
    finderNotFound: 'Winkelzoeker niet gevonden',
    finderNotFoundText: 'Deze winkelzoeker bestaat niet of is niet openbaar.',
    seeAll: 'Alle winkels bekijken',
    other: 'Overig',
    finderTitle: '{name}: winkelzoeker',
    finderDescription: 'Vind de dichtstbijzijnde winkels van {name}.',
    finder: 'Winkelzoeker',
    noScript: 'De winkelzoeker heeft JavaScript nodig: zet het aan in uw browser om de winkels te zoeken.',
    directory: 'Winkeloverzicht',
    browse: 'Winkels per plaats bekijken',
    storesIn: 'Winkels {in}',
    inPlace: 'in {place}',
    inOtherPlaces: 'op andere plaatsen',
    elsewhereIn: 'elders {in}',
    otherPlaces: 'Overige plaatsen',
    breadcrumb: 'Kruimelpad',
    pageOf: 'Pagina {page} van {pages}',
    pages: 'Pagina’s',
    previous: 'Vorige pagina',
    next: 'Volgende pagina',
    placeNotFound: 'Plaats niet gevonden',
    placeNotFoundText: 'Op deze plaats is geen winkel gepubliceerd, of deze pagina van de lijst bestaat niet.',
    noStores: 'Er is nog geen winkel gepubliceerd.',
    stores: { one: '{n} winkel', other: '{n} winkels' },
    directoryDescription: 'De winkels van {name} per land en plaats.',
    placeDescription: 'De winkels van {name} {in}.',
    languages: 'Talen',
    tooMany: 'Te veel verzoeken',
    tooManyText: 'Vanaf dit adres zijn te veel pagina’s opgevraagd. Probeer het over een minuut opnieuw.',
    unavailable: 'Tijdelijk niet beschikbaar',
    unavailableText:
      'De winkellijst kan op dit moment niet worden gelezen. Probeer het over een paar seconden opnieuw.',
    failed: 'Er is iets misgegaan',
    failedText: 'Deze pagina kon niet worden gemaakt. Probeer het later opnieuw.',
    starting: 'Bezig met starten',
    startingText: 'Deze winkelzoeker wordt gestart. De pagina wordt zo opnieuw geladen.',
  },
}

/** The language a link's ?lang= names (its first two letters, any case); null for none or one not shipped. */
export const pageLang = (url: URL): Lang | null => langOf(url.searchParams.get('lang'))

export type LangTexts = PageTexts & {
  lang: Lang
  weekdays: string[]
  plurals: Intl.PluralRules
  numbers: Intl.NumberFormat
}

const madeTexts = new Map<Lang, LangTexts>()

/** A language's texts, with its weekday names (Monday first), plural rules and numbers, made once. */
export function pageTexts(lang: Lang): LangTexts {
  let made = madeTexts.get(lang)
  if (made === undefined) {
    const weekday = new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' })
    // 2024-01-01 was a Monday.
    const weekdays = Array.from({ length: 7 }, (_, d) => capitalise(weekday.format(Date.UTC(2024, 0, 1 + d)), lang))
    made = { ...TEXTS[lang], lang, weekdays, plurals: new Intl.PluralRules(lang), numbers: new Intl.NumberFormat(lang) }
    madeTexts.set(lang, made)
  }
  return made
}

const longDates = new Map<string, Intl.DateTimeFormat>()

/** A long date ("Monday, June 15, 2026") in a locale (core/hours-text.ts timeLocale), made once. */
export function longDate(locale: string): Intl.DateTimeFormat {
  let f = longDates.get(locale)
  if (f === undefined) {
    f = new Intl.DateTimeFormat(locale, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    })
    longDates.set(locale, f)
  }
  return f
}

/**
 * A weekday name or a date as a table's row header shows it: capitalised, as English and German
 * write them anyway ("Samedi 20 juin 2026").
 */
export const capitalise = (text: string, lang: string) => text.charAt(0).toLocaleUpperCase(lang) + text.slice(1)

/** A text with "{name}" replaced. */
export const named = (text: string, name: string) => text.replace('{name}', () => name) // "$&" in a name is text

/** A text with each "{key}" of `values` replaced ("{page}", "{place}"). */
export const filled = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (all, key: string) => (Object.hasOwn(values, key) ? String(values[key]) : all))

/**
 * A count as the page's language says it: the form of its plural category ("1 store", "2 stores";
 * French "0 magasin", "1 000 000 de magasins"), the number written as the language writes it.
 */
export function counted(texts: LangTexts, forms: Plural, n: number): string {
  const form = forms[texts.plurals.select(n)] ?? forms.other
  return form.replace('{n}', texts.numbers.format(n))
}
