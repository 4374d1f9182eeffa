// storeloc locations import: the warnings of a row whose coordinates and address disagree, one for
// each mistake, run as a real subprocess against a real database file.
import { beforeEach, describe, expect, test } from 'bun:test'
import { dryRunLines, file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Importer').locator.id
})

describe('import warnings about a point', () => {
  test('lat and lng swapped, with a country and a postcode, is told once', () => {
    const text =
      'external_id,name,street,postcode,city,country,lat,lng\n' +
      'F1,Bordeaux,1 rue Sainte-Catherine,33000,Bordeaux,France,-0.575,44.841\n'
    expect(dryRunLines(locatorId, 'swapped.csv', text).slice(1, 4)).toEqual([
      'Check 1 location:',
      '  line 2 (external_id "F1"): The coordinates -0.575, 44.841 are near no town, but the row\'s country is France. Are lat and lng swapped?',
      '',
    ])
  })
})

describe('import refusals of an address', () => {
  test('a street and a postcode, no town nor country, are told what is missing', () => {
    const r = storeloc(
      'locations',
      'import',
      locatorId,
      '--file',
      file('zip.csv', 'external_id,name,address\nS1,A,"0 Main St, 10001"\nS2,B,"5 High St, 10001 New York"\n'),
      '--dry-run',
    )
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain(
      '  line 2 (external_id "S1"): The address "0 Main St, 10001" could not be geocoded. It gives the postcode 10001 but no town or country, and a postcode alone may be of several countries (US, DE, FR, ES, IT): add the town and the country after it. Fix the address or fill in the row\'s "lat" and "lng" columns.',
    )
  })
})

describe('import warnings about an address', () => {
  test('an address placed only at its town names the region the geocoder chose, and a group the towns', () => {
    const one = dryRunLines(locatorId, 'one.csv', 'external_id,name,address\nS1,A,"Portland, USA"\n')
    expect(one).toContain(
      '  line 2 (external_id "S1"): The address was placed only at city level (Portland, Oregon): check it, or send coordinates.',
    )
    const many = dryRunLines(
      locatorId,
      'many.csv',
      'external_id,name,address\nS1,A,"Portland, USA"\nS2,B,Paris\nS3,C,"Hamburg"\n',
    )
    expect(many).toContain(
      '  3 rows (line 2: Portland, line 3: Paris, line 4: Hamburg): The address was placed only at city level: check them, or send coordinates.',
    )
  })
})
