// Small hand-kept tables the packages do not ship. Region codes are GeoNames admin1 codes.

/** Languages whose country names are recognised (from i18n-iso-countries). */
export const COUNTRY_NAME_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'sv', 'da', 'nb', 'fi', 'pl', 'cs', 'ca', 'ga'] as const

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
