// What an operator does to the database (locators, keys, settings, custom field definitions, filter
// groups, priority rules), shared by the `storeloc` CLI, the demo loader and the first-start
// bootstrap. Plain functions over the store; errors are OperatorError with a message a person can
// act on, and a refused operation writes nothing.
export { addCustomField, removeCustomField } from './custom-fields'
export { FiltersInput, parseFilters, setFilters } from './filters'
export { createKey, revokeKey, rotateKey } from './keys'
export {
  counted,
  createKeylessLocator,
  createLocator,
  type DeletedLocator,
  deleteLocator,
  type LocatorSettingsInput,
  MAX_RATE_LIMIT,
  parseReferrers,
  rotatePublicToken,
  SETTING_OPTIONS,
  setLocatorSettings,
} from './locators'
export { parsePriorityRules, setPriorityRules } from './priority'
export { type Deliver, OperatorError, type Refusal, readFileBytes, readJsonFile, requireLocator } from './shared'
