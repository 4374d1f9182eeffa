// The names of the months a text of hours or dates may write, one table for the week's reader
// (week-months.ts) and a locations CSV's special hours dates (locations/csv-dates.ts).

/**
 * Each month's names, January first, whole and short, in English, German, French, Spanish,
 * Italian, Dutch, Swedish, Danish and Norwegian, lower case, as written (accents kept) and as
 * typed without accents.
 */
export const MONTH_NAMES: readonly (readonly string[])[] = [
  'january|jan|januar|jänner|janner|janvier|janv|enero|ene|gennaio|gen|januari',
  'february|feb|februar|février|fevrier|févr|fevr|fév|fev|febrero|febbraio|februari',
  'march|mar|märz|marz|mär|mrz|mars|marzo|maart|mrt|marts',
  'april|apr|avril|avr|abril|abr|aprile',
  'may|mai|mayo|maggio|mag|mei|maj',
  'june|jun|juni|juin|junio|giugno|giu',
  'july|jul|juli|juillet|juil|julio|luglio|lug',
  'august|aug|août|aout|agosto|ago|augustus|augusti',
  'september|sep|sept|septembre|septiembre|setiembre|settembre|set',
  'october|oct|oktober|okt|octobre|octubre|ottobre|ott',
  'november|nov|novembre|noviembre',
  'december|dec|dezember|dez|décembre|decembre|déc|diciembre|dic|dicembre|desember|des',
].map((names) => names.split('|'))
