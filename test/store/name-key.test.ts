// The stored name_key column (migration 13, filled by src/store/name-keys.ts) holds each
// location's name as nameKey folds it, and a bulk import finds the stored stores its rows repeat by
// that column. A change to this table's keys is a change to nameKey's folding: it needs a new
// migration that fills name_key again, or rows stored before it are never found by their names.
import { expect, test } from 'bun:test'
import { nameKey } from '../../src/core/text'

const KEYS: [name: string, key: string][] = [
  // Case
  ['CORNER Shop', 'corner shop'],
  ['İstanbul ISTANBUL', 'istanbul istanbul'],
  // Accents, and letters folded to the Latin letters they are written as
  ['Café Zoë', 'cafe zoe'],
  ['Crème Brûlée', 'creme brulee'],
  ['Ångström', 'angstrom'],
  ['Bahnhofstraße', 'bahnhofstrasse'],
  ['Œuvre Cæsar', 'oeuvre caesar'],
  ['Søren Łódź', 'soren lodz'],
  ['Đakovo Ðorđe', 'dakovo dorde'],
  ['Þórsmörk', 'thorsmork'],
  // Punctuation and symbols separate words
  ["McDonald's", 'mcdonald s'],
  ['Main St. #5', 'main st 5'],
  ['A&B—Shop (Mitte)', 'a b shop mitte'],
  ['Smith-Jones / Co.', 'smith jones co'],
  ['Shop 🙂 ☕', 'shop'],
  [' - ', ''],
  ['', ''],
  // Spaces of every kind, runs of them, at the ends
  ['  Corner\t\tShop \n', 'corner shop'],
  ['Corner\u00a0Shop', 'corner shop'],
  // Compatibility forms
  ['１２３ Ｓｈｏｐ', '123 shop'],
  ['ﬁne ﬂowers', 'fine flowers'],
  ['Call ℡ 5, 20℃', 'call tel 5 20 c'],
  // Other scripts: letters kept, nonspacing marks dropped, Hangul as its jamo
  ['ΟΔΟΣ Οδοστρωτήρας', 'οδοσ οδοστρωτηρασ'],
  ['Москва Центр', 'москва центр'],
  ['Йошкар-Ола', 'иошкар ола'],
  ['東京駅 店', '東京駅 店'],
  ['がっこう', 'かっこう'],
  ['서울 매장', '\u1109\u1165\u110b\u116e\u11af \u1106\u1162\u110c\u1161\u11bc'],
  ['مُحَمَّد', 'محمد'],
  ['שָׁלוֹם', 'שלום'],
  ['नमस्ते किताब', 'नमसत किताब'],
  ['ร้านกาแฟ', 'รานกาแฟ'],
]

// Failing here means every stored row's name_key is stale: add a migration that sets name_key
// to NULL and fills it again with fillNameKeys (as db.ts does after migration 13), then update
// this table.
test.each(KEYS)('the name key of %p is %p', (name, key) => {
  expect(nameKey(name)).toBe(key)
})
