// The texts of the service's own pages in each language the service ships (core/languages.ts),
// which a link picks with ?lang=. "{name}" is replaced by a name. Weekdays and dates come from
// Intl in that language.
import { type Lang, langOf } from '../../core/languages'

const EN = {
  back: 'Back to all stores',
  address: 'Address',
  directions: 'Directions with {name}',
  hours: 'Opening hours',
  day: 'Day',
  times: 'Hours',
  notGiven: 'Not given',
  closed: 'Closed',
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
    closed: 'Geschlossen',
    special: 'Besondere Öffnungszeiten',
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
    finderDescription: 'Finden Sie die nächsten Geschäfte von {name}.',
    finder: 'Filialsuche',
    noScript: 'Die Filialsuche braucht JavaScript: Schalten Sie es in Ihrem Browser ein, um die Geschäfte zu suchen.',
  },
  fr: {
    back: 'Retour à tous les magasins',
    address: 'Adresse',
    directions: 'Itinéraire avec {name}',
    hours: 'Horaires d’ouverture',
    day: 'Jour',
    times: 'Horaires',
    notGiven: 'Non indiqué',
    closed: 'Fermé',
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
    finderNotFound: 'Localisateur de magasins introuvable',
    finderNotFoundText: 'Ce localisateur de magasins n’existe pas ou n’est pas public.',
    seeAll: 'Voir tous les magasins',
    other: 'Autres',
    finderTitle: '{name} : localisateur de magasins',
    finderDescription: 'Trouvez les magasins {name} les plus proches.',
    finder: 'Localisateur de magasins',
    noScript:
      'Le localisateur de magasins a besoin de JavaScript : activez-le dans votre navigateur pour chercher les magasins.',
  },
  es: {
    back: 'Volver a todas las tiendas',
    address: 'Dirección',
    directions: 'Cómo llegar con {name}',
    hours: 'Horario de apertura',
    day: 'Día',
    times: 'Horario',
    notGiven: 'Sin indicar',
    closed: 'Cerrado',
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
    finderDescription: 'Encuentre las tiendas de {name} más cercanas.',
    finder: 'Buscador de tiendas',
    noScript: 'El buscador de tiendas necesita JavaScript: actívelo en su navegador para buscar las tiendas.',
  },
  it: {
    back: 'Torna a tutti i negozi',
    address: 'Indirizzo',
    directions: 'Indicazioni con {name}',
    hours: 'Orari di apertura',
    day: 'Giorno',
    times: 'Orario',
    notGiven: 'Non indicato',
    closed: 'Chiuso',
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
    finderNotFound: 'Pagina dei negozi non trovata',
    finderNotFoundText: 'Questa pagina dei negozi non esiste o non è pubblica.',
    seeAll: 'Vedi tutti i negozi',
    other: 'Altro',
    finderTitle: '{name}: trova negozi',
    finderDescription: 'Trova i negozi {name} più vicini.',
    finder: 'Trova negozi',
    noScript: 'Il trova negozi ha bisogno di JavaScript: attivalo nel browser per cercare i negozi.',
  },
  nl: {
    back: 'Terug naar alle winkels',
    address: 'Adres',
    directions: 'Route met {name}',
    hours: 'Openingstijden',
    day: 'Dag',
    times: 'Tijden',
    notGiven: 'Niet opgegeven',
    closed: 'Gesloten',
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
  },
}

/** The language a link's ?lang= names (its first two letters, any case); null for none or one not shipped. */
export const pageLang = (url: URL): Lang | null => langOf(url.searchParams.get('lang'))

export type LangTexts = PageTexts & { lang: Lang; weekdays: string[]; longDate: Intl.DateTimeFormat }

const madeTexts = new Map<Lang, LangTexts>()

/** A language's texts, with its weekday names (Monday first) and a long date format, made once. */
export function pageTexts(lang: Lang): LangTexts {
  let made = madeTexts.get(lang)
  if (made === undefined) {
    const weekday = new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' })
    // 2024-01-01 was a Monday.
    const weekdays = Array.from({ length: 7 }, (_, d) => capitalise(weekday.format(Date.UTC(2024, 0, 1 + d)), lang))
    const longDate = new Intl.DateTimeFormat(lang, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    })
    made = { ...TEXTS[lang], lang, weekdays, longDate }
    madeTexts.set(lang, made)
  }
  return made
}

/** A weekday name as a table's row header shows it: capitalised, as English and German write them anyway. */
const capitalise = (text: string, lang: string) => text.charAt(0).toLocaleUpperCase(lang) + text.slice(1)

/** A text with "{name}" replaced. */
export const named = (text: string, name: string) => text.replace('{name}', () => name) // "$&" in a name is text
