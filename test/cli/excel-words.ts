// Yes and no as Excel writes them in CSV files saved in other locales.
/** TRUE and FALSE as Excel writes them in de, fr, es, it, pt, nl, sv, da, nb and pl. */
export const EXCEL_WORDS: [yes: string, no: string][] = [
  ['WAHR', 'FALSCH'],
  ['VRAI', 'FAUX'],
  ['VERDADERO', 'FALSO'],
  ['VERO', 'FALSO'],
  ['VERDADEIRO', 'FALSO'],
  ['WAAR', 'ONWAAR'],
  ['SANT', 'FALSKT'],
  ['SAND', 'FALSK'],
  ['SANN', 'USANN'],
  ['PRAWDA', 'FAŁSZ'],
]
