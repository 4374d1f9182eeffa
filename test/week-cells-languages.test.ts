// Week cells whose days' names are read by the language of the cell's other days: Spanish
// abbreviations as back-office exports write them, and words of other languages they could be.
import { testCells, type WeekCells } from './week-cells-table'

const SPANISH: WeekCells = [
  // Lun, Mar, Mié/Mie/Mier, Jue/Juev, Vie/Vier, Sáb/Sab, Dom/Dgo.
  ['Lun-Vier 9-18', '1-5 09:00-18:00'],
  ['Lun a Vier: 9-18, Sáb: 9-13', '1-5 09:00-18:00; 6 09:00-13:00'],
  ['Lun. a Vier. 9-18', '1-5 09:00-18:00'],
  ['Lun, Mier, Vier 9-18', '1,3,5 09:00-18:00'],
  ['Lun-Mier 9-18, Juev-Vier 9-20', '1-3 09:00-18:00; 4-5 09:00-20:00'],
  ['Lun a Juev 9-18, Vier 9-15, Sáb y Dgo cerrado', '1-4 09:00-18:00; 5 09:00-15:00; 6-7 closed'],
  ['Lun-Vie 9-18, Sáb 10-14, Dgo cerrado', '1-5 09:00-18:00; 6 10:00-14:00; 7 closed'],
  ['Lun-Vie 9-18, Sab 10-14, Dgo. cerrado', '1-5 09:00-18:00; 6 10:00-14:00; 7 closed'],
  ['Lun a Sáb 9-21, Dgo 10-14', '1-6 09:00-21:00; 7 10:00-14:00'],
  ['Mier 9-14', '3 09:00-14:00'],
  ['Juev 9-18', '4 09:00-18:00'],
  // "vier" is four in German and Dutch: a day only beside days Spanish names so, else a word kept unread.
  ['Mo-Fr 9-18, Sa 9-13, vier Wochen geschlossen', '1-5 09:00-18:00; 6 ?'],
  ['Mo-Fr 9-18 Uhr, im August vier Wochen Betriebsferien', '1-5 ?'],
  ['Vier 9-18', null],
]

testCells(SPANISH)
