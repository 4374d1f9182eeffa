// Small hand-kept tables the packages do not ship. Region codes are GeoNames admin1 codes.

/** Languages whose country names are recognised (from i18n-iso-countries). */
export const COUNTRY_NAME_LANGUAGES = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'nl',
  'pt',
  'sv',
  'da',
  'nb',
  'fi',
  'pl',
  'cs',
  'ca',
  'ga',
] as const

/** Everyday names that the ISO lists lack. Keys are normalized with nameKey at build time. */
export const COUNTRY_ALIASES: Record<string, string> = {
  usa: 'US',
  'u.s.a.': 'US',
  'u.s.': 'US',
  'united states': 'US',
  'united states of america': 'US',
  america: 'US',
  uk: 'GB',
  'u.k.': 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  holland: 'NL',
  'the netherlands': 'NL',
  'republic of ireland': 'IE',
  'czech republic': 'CZ',
}

/** Cities' everyday short names, as visitors type them whole (name keys), to the text that finds the city. */
export const CITY_ALIASES: Record<string, string> = {
  la: 'Los Angeles, CA',
  sf: 'San Francisco, CA',
  dc: 'Washington, DC',
  nyc: 'New York, NY',
  nola: 'New Orleans, LA',
  kl: 'Kuala Lumpur',
  hk: 'Hong Kong',
}

export const CA_PROVINCES: Record<string, { name: string; admin1: string }> = {
  ab: { name: 'Alberta', admin1: '01' },
  bc: { name: 'British Columbia', admin1: '02' },
  mb: { name: 'Manitoba', admin1: '03' },
  nb: { name: 'New Brunswick', admin1: '04' },
  nl: { name: 'Newfoundland and Labrador', admin1: '05' },
  ns: { name: 'Nova Scotia', admin1: '07' },
  on: { name: 'Ontario', admin1: '08' },
  pe: { name: 'Prince Edward Island', admin1: '09' },
  qc: { name: 'Quebec', admin1: '10' },
  sk: { name: 'Saskatchewan', admin1: '11' },
  yt: { name: 'Yukon', admin1: '12' },
  nt: { name: 'Northwest Territories', admin1: '13' },
  nu: { name: 'Nunavut', admin1: '14' },
}

export const AU_STATES: Record<string, { name: string; admin1: string }> = {
  act: { name: 'Australian Capital Territory', admin1: '01' },
  nsw: { name: 'New South Wales', admin1: '02' },
  nt: { name: 'Northern Territory', admin1: '03' },
  qld: { name: 'Queensland', admin1: '04' },
  sa: { name: 'South Australia', admin1: '05' },
  tas: { name: 'Tasmania', admin1: '06' },
  vic: { name: 'Victoria', admin1: '07' },
  wa: { name: 'Western Australia', admin1: '08' },
}

/** How a region is written in an address: US state codes are GeoNames' own; CA and AU have theirs. */
const REGION_ABBR: Record<string, Record<string, string>> = {
  CA: Object.fromEntries(Object.entries(CA_PROVINCES).map(([abbr, r]) => [r.admin1, abbr.toUpperCase()])),
  AU: Object.fromEntries(Object.entries(AU_STATES).map(([abbr, r]) => [r.admin1, abbr.toUpperCase()])),
}
/** A region as an address writes it ("CA", "NSW"): none for a country without a short form. */
export const regionLabel = (country: string, admin1: string) =>
  country === 'US' ? admin1 : REGION_ABBR[country]?.[admin1]

/**
 * First-level regions (and GB counties) that tell the country but not a GeoNames admin1 code:
 * "St Ives, Cornwall" is in GB. Spanish communities and Italian regions come from the packages.
 * A name that is also a town of 10,000+ people in that country is skipped at build time.
 */
export const COUNTRY_REGIONS: Record<string, string[]> = {
  GB: [
    'England',
    'Scotland',
    'Wales',
    'Northern Ireland',
    'Bedfordshire',
    'Berkshire',
    'Buckinghamshire',
    'Cambridgeshire',
    'Cheshire',
    'Cornwall',
    'Cumbria',
    'Derbyshire',
    'Devon',
    'Dorset',
    'County Durham',
    'East Sussex',
    'Essex',
    'Gloucestershire',
    'Greater London',
    'Greater Manchester',
    'Hampshire',
    'Herefordshire',
    'Hertfordshire',
    'Isle of Wight',
    'Kent',
    'Lancashire',
    'Leicestershire',
    'Lincolnshire',
    'Merseyside',
    'Norfolk',
    'North Yorkshire',
    'Northamptonshire',
    'Northumberland',
    'Nottinghamshire',
    'Oxfordshire',
    'Rutland',
    'Shropshire',
    'Somerset',
    'South Yorkshire',
    'Staffordshire',
    'Suffolk',
    'Surrey',
    'Tyne and Wear',
    'Warwickshire',
    'West Midlands',
    'West Sussex',
    'West Yorkshire',
    'East Riding of Yorkshire',
    'Wiltshire',
    'Worcestershire',
    'Highland',
    'Fife',
    'Aberdeenshire',
    'Midlothian',
    'Gwynedd',
    'Powys',
    'Pembrokeshire',
    'County Antrim',
    'County Down',
  ],
  FR: [
    'Île-de-France',
    'Auvergne-Rhône-Alpes',
    'Bourgogne-Franche-Comté',
    'Bretagne',
    'Brittany',
    'Centre-Val de Loire',
    'Corse',
    'Grand Est',
    'Hauts-de-France',
    'Normandie',
    'Normandy',
    'Nouvelle-Aquitaine',
    'Occitanie',
    'Pays de la Loire',
    "Provence-Alpes-Côte d'Azur",
    'Provence',
    'Alsace',
    'Lorraine',
    'Aquitaine',
    'Bourgogne',
    'Burgundy',
    'Languedoc',
    'Picardie',
    'Champagne',
  ],
  DE: [
    'Baden-Württemberg',
    'Bayern',
    'Bavaria',
    'Berlin',
    'Brandenburg',
    'Bremen',
    'Hamburg',
    'Hessen',
    'Hesse',
    'Mecklenburg-Vorpommern',
    'Niedersachsen',
    'Lower Saxony',
    'Nordrhein-Westfalen',
    'North Rhine-Westphalia',
    'Rheinland-Pfalz',
    'Rhineland-Palatinate',
    'Saarland',
    'Sachsen',
    'Saxony',
    'Sachsen-Anhalt',
    'Saxony-Anhalt',
    'Schleswig-Holstein',
    'Thüringen',
    'Thuringia',
  ],
  AT: [
    'Burgenland',
    'Kärnten',
    'Carinthia',
    'Niederösterreich',
    'Lower Austria',
    'Oberösterreich',
    'Upper Austria',
    'Steiermark',
    'Styria',
    'Tirol',
    'Tyrol',
    'Vorarlberg',
    'Wien',
    'Salzburg',
  ],
  NL: [
    'Drenthe',
    'Flevoland',
    'Friesland',
    'Fryslân',
    'Gelderland',
    'Groningen',
    'Limburg',
    'Noord-Brabant',
    'Noord-Holland',
    'Overijssel',
    'Utrecht',
    'Zeeland',
    'Zuid-Holland',
  ],
  BE: [
    'Flanders',
    'Vlaanderen',
    'Wallonia',
    'Wallonie',
    'Antwerpen',
    'Limburg',
    'Oost-Vlaanderen',
    'West-Vlaanderen',
    'Vlaams-Brabant',
    'Brabant wallon',
    'Hainaut',
    'Liège',
    'Luxembourg',
    'Namur',
  ],
  CH: [
    'Zürich',
    'Bern',
    'Luzern',
    'Uri',
    'Schwyz',
    'Graubünden',
    'Ticino',
    'Valais',
    'Wallis',
    'Vaud',
    'Genève',
    'Aargau',
    'Thurgau',
    'St. Gallen',
  ],
  IE: [
    'Leinster',
    'Munster',
    'Connacht',
    'Ulster',
    'County Dublin',
    'County Cork',
    'County Galway',
    'County Kerry',
    'County Clare',
  ],
}

/**
 * The town hall (mairie) of each of Paris's 20 arrondissements, 1st to 20th, as [lat, lng]: the
 * point of its postcodes (75001-75020, and 75116 of the 16th). The gazetteer has Lyon's and
 * Marseille's arrondissements, but not Paris's. The 1st to 4th keep their own town halls' points,
 * though they share one council since 2020.
 */
export const PARIS_TOWN_HALLS: readonly (readonly [number, number])[] = [
  [48.8599, 2.3413], // 4 place du Louvre
  [48.8668, 2.3404], // 8 rue de la Banque
  [48.8638, 2.3614], // 2 rue Eugène-Spuller
  [48.8558, 2.3554], // 2 place Baudoyer
  [48.8466, 2.3446], // 21 place du Panthéon
  [48.8506, 2.3328], // 78 rue Bonaparte
  [48.8567, 2.32], // 116 rue de Grenelle
  [48.8777, 2.3175], // 3 rue de Lisbonne
  [48.8726, 2.3404], // 6 rue Drouot
  [48.8717, 2.3573], // 72 rue du Faubourg-Saint-Martin
  [48.8587, 2.3796], // 12 place Léon-Blum
  [48.8405, 2.3879], // 130 avenue Daumesnil
  [48.8317, 2.3557], // 1 place d'Italie
  [48.8332, 2.3266], // 2 place Ferdinand-Brunot
  [48.8413, 2.3004], // 31 rue Péclet
  [48.8637, 2.2763], // 71 avenue Henri-Martin
  [48.8838, 2.3219], // 16-20 rue des Batignolles
  [48.8924, 2.3444], // 1 place Jules-Joffrin
  [48.8823, 2.3823], // 5-7 place Armand-Carrel
  [48.8651, 2.3988], // 6 place Gambetta
]

/**
 * Vienna's 23 districts, 1st to 23rd, whose number a postcode's middle digits give (1130: the
 * 13th, Hietzing): each one's name, and its postcode's point. null: the gazetteer's point of the
 * district (its section of Vienna of admin3 code 9NN), within 1 km of the district's office. Else
 * the office (Amtshaus), as [lat, lng], by hand: the gazetteer lacks 14 districts, and its
 * points of the 10th, 11th, 12th, 16th and 17th are rounded to the minute of arc, 1.6 to 5 km
 * from their offices (the 17th's in the Wienerwald). Checked against 113 of the city's schools
 * (Vienna's open data): each point within 1.1 km of one of its district's, where any was.
 */
export const VIENNA_DISTRICTS: readonly { name: string; at: readonly [number, number] | null }[] = [
  { name: 'Innere Stadt', at: null },
  { name: 'Leopoldstadt', at: [48.2157, 16.3775] }, // Karmelitergasse 9
  { name: 'Landstraße', at: [48.2012, 16.392] }, // Karl-Borromäus-Platz 3
  { name: 'Wieden', at: [48.1946, 16.3705] }, // Favoritenstraße 18
  { name: 'Margareten', at: [48.1915, 16.3577] }, // Schönbrunner Straße 54
  { name: 'Mariahilf', at: [48.1972, 16.3516] }, // Amerlingstraße 11
  { name: 'Neubau', at: [48.2017, 16.346] }, // Hermanngasse 24-26
  { name: 'Josefstadt', at: [48.2107, 16.3475] }, // Schlesingerplatz 4
  { name: 'Alsergrund', at: [48.2207, 16.3544] }, // Währinger Straße 43
  { name: 'Favoriten', at: [48.1753, 16.3767] }, // Keplerplatz 5
  { name: 'Simmering', at: [48.1727, 16.4166] }, // Enkplatz 2
  { name: 'Meidling', at: [48.1834, 16.3305] }, // Schönbrunner Straße 259
  { name: 'Hietzing', at: null },
  { name: 'Penzing', at: [48.1979, 16.3007] }, // Hütteldorfer Straße 188
  { name: 'Rudolfsheim-Fünfhaus', at: [48.192, 16.3372] }, // Gasgasse 8-10
  { name: 'Ottakring', at: [48.2103, 16.3276] }, // Richard-Wagner-Platz 19
  { name: 'Hernals', at: [48.2177, 16.3318] }, // Elterleinplatz 14
  { name: 'Währing', at: [48.2262, 16.335] }, // Martinstraße 100
  { name: 'Döbling', at: [48.2385, 16.3535] }, // Gatterburggasse 14
  { name: 'Brigittenau', at: [48.2308, 16.3726] }, // Brigittaplatz 10
  { name: 'Floridsdorf', at: null },
  { name: 'Donaustadt', at: null },
  { name: 'Liesing', at: [48.1369, 16.286] }, // Perchtoldsdorfer Straße 2
]
