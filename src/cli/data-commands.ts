// The commands on a locator's data: custom fields, filters, priority rules, geocoding.
import { GeocoderUnavailableError } from '../geocode/http'
import { guessFrom } from '../locations/town-guess'
import {
  addCustomField,
  OperatorError,
  readJsonFile,
  removeCustomField,
  requireLocator,
  setFilters,
  setPriorityRules,
} from '../operator'
import type { Command } from './context'
import { cliGeocoder } from './geodata-path'
import { args, fieldJson, required, table } from './output'

export const DATA_COMMANDS: Record<string, Command> = {
  'filters set': ({ store, emit }, rest) => {
    const { values, positionals } = args(rest, { file: { type: 'string' } }, 1)
    const file = required(values, 'file')
    const locator = requireLocator(store, positionals[0]!)
    const groups = setFilters(store, locator.id, readJsonFile(file))
    const tags = groups.reduce((n, g) => n + g.tags.length, 0)
    emit(!!values.json, groups, `Set ${groups.length} filter group(s) with ${tags} tag(s) on ${locator.id}.`)
  },
  'filters show': ({ store, print }, rest) => {
    const { positionals } = args(rest, {}, 1) // JSON with or without --json
    const locator = requireLocator(store, positionals[0]!)
    print(JSON.stringify(store.filters.list(locator.id), null, 2))
  },
  'priority set': ({ store, emit }, rest) => {
    const { values, positionals } = args(rest, { file: { type: 'string' } }, 1)
    const file = required(values, 'file')
    const locator = requireLocator(store, positionals[0]!)
    const rules = setPriorityRules(store, locator.id, readJsonFile(file))
    emit(!!values.json, rules, `Set ${rules.length} priority rule(s) on ${locator.id}.`)
  },
  'priority show': ({ store, print }, rest) => {
    const { positionals } = args(rest, {}, 1) // JSON with or without --json
    const locator = requireLocator(store, positionals[0]!)
    print(JSON.stringify(store.priority.list(locator.id), null, 2))
  },
  'custom-field add': ({ store, emit }, rest) => {
    const spec = {
      id: { type: 'string' },
      name: { type: 'string' },
      type: { type: 'string' },
      label: { type: 'string' },
      color: { type: 'string' },
    } as const
    const { values, positionals } = args(rest, spec, 1)
    const field = addCustomField(store, positionals[0]!, {
      id: required(values, 'id'),
      name: required(values, 'name'),
      type: required(values, 'type'),
      label: (values.label as string | undefined) ?? null,
      color: (values.color as string | undefined) ?? null,
    })
    emit(!!values.json, fieldJson(field), `Added custom field ${field.id} (${field.type}) "${field.name}".`)
  },
  'custom-field list': ({ store, emit }, rest) => {
    const { values, positionals } = args(rest, {}, 1)
    const locator = requireLocator(store, positionals[0]!)
    const rows = store.customFields.list(locator.id).map(fieldJson)
    emit(!!values.json, rows, table(rows, ['id', 'name', 'type', 'label', 'color']))
  },
  'custom-field remove': ({ store, emit }, rest) => {
    const { values, positionals } = args(rest, { id: { type: 'string' } }, 1)
    const id = required(values, 'id')
    const { clearedLocations } = removeCustomField(store, positionals[0]!, id)
    emit(
      !!values.json,
      { removed: id, cleared_locations: clearedLocations },
      `Removed custom field ${id}; cleared its value on ${clearedLocations} location(s).`,
    )
  },
}

/** `geocode "ADDRESS"`: `argv` is what follows the word geocode. */
export const geocodeCommand = async (
  { store, config, emit }: Parameters<Command>[0],
  argv: string[],
): Promise<void> => {
  const { values, positionals } = args(argv, {}, 1)
  const stack = await cliGeocoder(config, store)
  try {
    const result = await stack.geocoder.geocode(positionals[0]!).catch((e) => {
      if (!(e instanceof GeocoderUnavailableError)) throw e
      const address = JSON.stringify(positionals[0])
      throw new OperatorError(
        e.scope === 'address'
          ? `Could not geocode ${address}: the geocoding service could not place it (${e.message}) and the embedded geocoder does not know it; the API would answer geocoding_failed.`
          : `Could not geocode ${address} now: the geocoding service is unavailable (${e.message}) and the embedded geocoder does not know it; the API would answer geocoding_failed.`,
      )
    })
    if (!result) {
      // The API's refusal names the town a misspelt one may mean: so does this.
      const guess = await guessFrom(stack.places)(positionals[0]!)
      const why =
        config.geocoder.provider === 'none'
          ? ' GEOCODER=none places no address: unset it for the embedded geocoder, or name an HTTP one.'
          : guess
            ? ` ${guess}`
            : ''
      throw new OperatorError(
        `Could not geocode ${JSON.stringify(positionals[0])}: the API would answer geocoding_failed.${why}`,
      )
    }
    const parts = Object.entries(result.parts)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')
    emit(
      !!values.json,
      result,
      `lat, lng:   ${result.lat}, ${result.lng}\nprecision:  ${result.precision}\nsource:     ${result.source}\nparsed:     ${parts || '-'}`,
    )
  } finally {
    stack.close()
  }
}
