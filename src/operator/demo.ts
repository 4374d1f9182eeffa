// Loads a demo data set (data/demo/demo.json by default) as a new locator with the Query API on:
// its settings, custom fields, filter groups, priority rules and locations. All of it is written
// in one transaction: a bad entry anywhere leaves the database as it was.
import { Type as t } from '@sinclair/typebox'
import { LocationError } from '../locations/errors'
import { schemaErrors } from '../core/validation'
import { normalizeLocationBody, pickLocationFields } from '../locations/normalize'
import { newLocationRecord } from '../locations/record'
import {
  addCustomField,
  createKeylessLocator,
  OperatorError,
  readJsonFile,
  setFilters,
  setLocatorSettings,
  setPriorityRules,
} from './index'
import type { Store } from '../store'
import type { Locator } from '../store/locators'

export const DEFAULT_DEMO_PATH = 'data/demo/demo.json'

/**
 * The file's outline. The sections are checked in depth by the operator functions that write them
 * (setFilters, setPriorityRules, addCustomField) and by the Management API's location rules.
 */
const DemoFile = t.Object({
  locator: t.Object(
    {
      name: t.String(),
      radius: t.Optional(t.Number()),
      unit: t.Optional(t.String()),
    },
    { additionalProperties: false },
  ),
  custom_fields: t.Optional(
    t.Array(
      t.Object(
        {
          id: t.String(),
          name: t.String(),
          type: t.String(),
          label: t.Optional(t.String()),
          color: t.Optional(t.String()),
        },
        { additionalProperties: false },
      ),
    ),
  ),
  filters: t.Optional(t.Array(t.Unknown())),
  priority: t.Optional(t.Array(t.Unknown())),
  locations: t.Array(t.Unknown()),
})
type DemoFile = typeof DemoFile.static

function readDemo(path: string): DemoFile {
  const json = readJsonFile(path)
  const problems: string[] = []
  const seen = new Set<string>()
  for (const e of schemaErrors(DemoFile, json)) {
    const at = e.path.replace(/^\//, '').replaceAll('/', '.') || '(the top level)'
    if (seen.has(at)) continue
    seen.add(at)
    problems.push(`  ${at}: ${e.message}`)
  }
  if (problems.length > 0) throw new OperatorError(`${path} is not a demo file:\n${problems.slice(0, 20).join('\n')}`)
  return json as DemoFile
}

/** Runs fn, naming the file's section in its OperatorError (whose message speaks of CLI options). */
function within<T>(section: string, fn: () => T): T {
  try {
    return fn()
  } catch (e) {
    if (e instanceof OperatorError) throw new OperatorError(`${section}: ${e.message}`)
    throw e
  }
}

/**
 * Creates a new locator from the demo file at `path` and returns it with the number of locations
 * written. Locations must carry coordinates: the loader never geocodes.
 */
export function loadDemo(store: Store, path: string = DEFAULT_DEMO_PATH): { locator: Locator; locations: number } {
  const demo = readDemo(path)
  try {
    return store.write(() => {
      // The operator functions each open their own transaction; nested here they become savepoints
      // of this one, so nothing commits until every location is in.
      const locator = within('locator', () => {
        const locator = createKeylessLocator(store, demo.locator.name)
        const radius = demo.locator.radius === undefined ? undefined : String(demo.locator.radius)
        return setLocatorSettings(store, locator.id, { queryApi: 'on', radius, unit: demo.locator.unit })
      })
      ;(demo.custom_fields ?? []).forEach((field, i) =>
        within(`custom_fields[${i}]`, () => addCustomField(store, locator.id, field)),
      )
      setFilters(store, locator.id, demo.filters ?? [])
      setPriorityRules(store, locator.id, demo.priority ?? [])

      const definitions = store.customFields.list(locator.id)
      const now = new Date().toISOString()
      const records = demo.locations.map((raw, i) => {
        const which = `locations[${i}]`
        if (!raw || typeof raw !== 'object' || Array.isArray(raw))
          throw new OperatorError(`${which} must be an object of location fields.`)
        const fields = pickLocationFields(raw as Record<string, unknown>)
        const named = typeof fields.name === 'string' && fields.name !== '' ? ` (${JSON.stringify(fields.name)})` : ''
        if (fields.coordinates === undefined) {
          throw new OperatorError(
            `${which}${named} coordinates: a demo location must carry coordinates ({"lat": ..., "lng": ...}); the loader does not geocode.`,
          )
        }
        try {
          return newLocationRecord(locator.id, normalizeLocationBody(fields, 'create', definitions), null, null, now)
        } catch (e) {
          if (e instanceof LocationError) throw new OperatorError(`${which}${named} is invalid: ${e.text}`)
          throw e
        }
      })
      for (const record of records) store.locations.insert(record)
      return { locator: store.locators.get(locator.id)!, locations: records.length }
    })
  } catch (e) {
    if (e instanceof OperatorError)
      throw new OperatorError(`Demo ${path} was not loaded (nothing was written): ${e.message}`)
    throw e
  }
}
