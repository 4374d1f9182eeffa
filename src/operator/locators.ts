// Locators: made with their first key, their settings, their public token.
import { domainToASCII } from 'node:url'
import { LANGS } from '../core/languages'
import { DEFAULT_RADIUS, MAX_RADIUS } from '../core/limits'
import { codePoints } from '../core/text'
import type { Store } from '../store'
import type { ApiKey } from '../store/keys'
import type { Locator, LocatorSettings } from '../store/locators'
import { cleanText, type Deliver, OperatorError, printable, requireLocator, writeFor } from './shared'
import { cliCommand } from '../core/cli-command'

/** A new locator and its first secret key, committed together. */
export function createLocator(
  store: Store,
  name: string,
  deliver: Deliver<{ locator: Locator; key: ApiKey; secret: string }> = () => {},
): { locator: Locator; key: ApiKey; secret: string } {
  return store.write(() => {
    const locator = createKeylessLocator(store, name)
    const { key, secret } = store.keys.insert(locator.id, null)
    deliver({ locator, key, secret })
    return { locator, key, secret }
  })
}

/** A new locator with no key (the demo's: a key no one is shown is one no one can revoke knowingly). */
export function createKeylessLocator(store: Store, name: string): Locator {
  const trimmed = locatorName(name)
  return store.write(() => store.locators.insert(trimmed))
}

/** A locator's name as given, cleaned; 1 to 200 printable characters. */
function locatorName(name: string): string {
  const trimmed = cleanText(name)
  if (trimmed === '' || codePoints(trimmed) > 200)
    throw new OperatorError('The locator name must be 1 to 200 characters.')
  printable(trimmed, 'The locator name')
  return trimmed
}

export const MAX_RATE_LIMIT = 1_000_000
const MAX_REFERRERS = 100
const HOST_LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?'
/** An exact host (shop.example.com, localhost) or a wildcard over a domain's subdomains (*.example.com). */
const REFERRER_ENTRY = new RegExp(`^(?:\\*\\.)?(?:${HOST_LABEL}\\.)*${HOST_LABEL}$`)

/**
 * An entry's host as browsers send it in Origin and Referer: an international name (münchen.de,
 * *.bücher.example) in its punycode form (xn--mnchen-3ya.de), the way URL parsing spells it; ''
 * when it is no domain name. ASCII entries are left to REFERRER_ENTRY, as they are.
 */
function asciiHost(entry: string): string {
  if (!/[^\x00-\x7f]/.test(entry)) return entry
  const wildcard = entry.startsWith('*.') ? '*.' : ''
  const ascii = domainToASCII(entry.slice(wildcard.length))
  return ascii === '' ? '' : wildcard + ascii
}

/** The options of `locator set`, for a message that asks for one of them. */
export const SETTING_OPTIONS =
  '--name, --active, --query-api, --referrers, --radius, --unit, --rate-limit, --public-external-id, --language'

/** Raw operator input, as typed on the command line. */
export type LocatorSettingsInput = {
  /** The locator's name, as `locator create` takes it. */
  name?: string
  /** on | off: off switches the whole locator off (its keys get 401, its public token 404). */
  active?: string
  /** on | off */
  queryApi?: string
  /** Comma-separated hosts or *.host; '' clears the allowlist (every site may call), a list of only commas or spaces is refused. */
  referrers?: string
  /** Default search radius in the locator's unit, > 0 and <= 1000; '' (not blank: refused) goes back to the API default (25). */
  radius?: string
  /** miles | km: the unit of `radius` (answers are in the unit a query asks for, miles by default). */
  unit?: string
  /** Public requests per minute per token, 1 to 1,000,000. */
  rateLimit?: string
  /** on | off: whether the Query API shows each location's external_id. */
  publicExternalId?: string
  /** en | de | fr | es | it | nl: its pages' language when a link asks for none; '' goes back to English. */
  language?: string
}

/**
 * Hosts as the referrer check compares them: lowercased, no scheme, path or port; duplicates dropped.
 * '' (and only '') is the empty list: a list of commas or spaces is a mistake (a variable that came
 * out empty, a host left out), not a request to let every site call.
 */
export function parseReferrers(raw: string): string[] {
  if (raw === '') return []
  if (raw.replaceAll(',', '').trim() === '') {
    throw new OperatorError(
      `--referrers ${JSON.stringify(raw)} names no host; to clear the allowlist (every site may call), give --referrers ''.`,
    )
  }
  const out: string[] = []
  for (const part of raw.split(',')) {
    const entry = part.trim().toLowerCase()
    if (entry === '') continue
    const shown = JSON.stringify(part.trim())
    if (entry === '*' || entry === '*.*') {
      throw new OperatorError(
        `--referrers: ${shown} would allow every site; to allow every site, clear the list with --referrers ''.`,
      )
    }
    if (entry.includes('://') || entry.includes('/')) {
      throw new OperatorError(
        `--referrers takes hosts, not URLs: write example.com, not https://example.com/; got ${shown}.`,
      )
    }
    // An IPv6 address ("[::1]", "::1") holds colons too: it is no port, and no domain name either.
    if (entry.startsWith('[') || (entry.match(/:/g)?.length ?? 0) > 1) {
      throw new OperatorError(
        `--referrers takes domain names; an IPv6 address cannot be listed (a page served from one sends it as its Origin, and the allowlist is for sites); got ${shown}.`,
      )
    }
    if (entry.includes(':'))
      throw new OperatorError(`--referrers takes hosts without a port (any port matches); got ${shown}.`)
    const host = asciiHost(entry)
    if (host === '')
      throw new OperatorError(
        `--referrers: ${shown} is not a domain name; entries are exact hosts such as shop.example.com or münchen.de, or wildcards such as *.example.com.`,
      )
    if (host.length > 253 || !REFERRER_ENTRY.test(host)) {
      throw new OperatorError(
        `--referrers entries must be exact hosts such as shop.example.com or wildcards such as *.example.com; got ${shown}.`,
      )
    }
    if (host.startsWith('*.') && !host.slice(2).includes('.')) {
      throw new OperatorError(
        `--referrers: ${shown} would allow a whole top-level domain; name a domain such as *.example.com.`,
      )
    }
    if (!out.includes(host)) out.push(host)
  }
  if (out.length > MAX_REFERRERS)
    throw new OperatorError(`--referrers may list at most ${MAX_REFERRERS} hosts; got ${out.length}.`)
  return out
}

function parseSettings(input: LocatorSettingsInput): LocatorSettings {
  const patch: LocatorSettings = {}
  if (input.name !== undefined) patch.name = locatorName(input.name)
  if (input.active !== undefined) {
    if (input.active !== 'on' && input.active !== 'off')
      throw new OperatorError(`--active must be on or off; got ${JSON.stringify(input.active)}.`)
    patch.active = input.active === 'on'
  }
  if (input.queryApi !== undefined) {
    if (input.queryApi !== 'on' && input.queryApi !== 'off')
      throw new OperatorError(`--query-api must be on or off; got ${JSON.stringify(input.queryApi)}.`)
    patch.queryApiEnabled = input.queryApi === 'on'
  }
  if (input.referrers !== undefined) patch.referrers = parseReferrers(input.referrers)
  if (input.radius !== undefined) {
    const raw = input.radius.trim()
    if (input.radius === '') patch.defaultRadius = null
    else {
      const radius = Number(raw)
      if (!/^(\d+(\.\d*)?|\.\d+)$/.test(raw) || !(radius > 0) || radius > MAX_RADIUS) {
        throw new OperatorError(
          `--radius must be a number greater than 0 and at most ${MAX_RADIUS} (in the locator's unit), or '' for the default of ${DEFAULT_RADIUS}; got ${JSON.stringify(input.radius)}.`,
        )
      }
      patch.defaultRadius = radius
    }
  }
  if (input.unit !== undefined) {
    if (input.unit !== 'miles' && input.unit !== 'km')
      throw new OperatorError(`--unit must be miles or km; got ${JSON.stringify(input.unit)}.`)
    patch.defaultUnit = input.unit
  }
  if (input.rateLimit !== undefined) {
    const raw = input.rateLimit.trim()
    const limit = Number(raw)
    if (!/^\d{1,7}$/.test(raw) || limit < 1 || limit > MAX_RATE_LIMIT) {
      throw new OperatorError(
        `--rate-limit must be a whole number of requests per minute from 1 to ${MAX_RATE_LIMIT}; got ${JSON.stringify(input.rateLimit)}.`,
      )
    }
    patch.rateLimit = limit
  }
  if (input.publicExternalId !== undefined) {
    if (input.publicExternalId !== 'on' && input.publicExternalId !== 'off')
      throw new OperatorError(`--public-external-id must be on or off; got ${JSON.stringify(input.publicExternalId)}.`)
    patch.publicExternalId = input.publicExternalId === 'on'
  }
  if (input.language !== undefined) {
    // A code alone, any case: "de-AT" names a region, which the pages take from each store's country.
    const lang = LANGS.find((l) => l === input.language!.trim().toLowerCase()) ?? null
    if (input.language !== '' && lang === null) {
      throw new OperatorError(
        `--language must be one of ${LANGS.join(', ')}, or '' for English (the pages' language when a link asks for none); got ${JSON.stringify(input.language)}.`,
      )
    }
    patch.language = lang
  }
  return patch
}

/** Validates every setting first, then changes them all in one transaction (or none). */
export function setLocatorSettings(store: Store, id: string, input: LocatorSettingsInput): Locator {
  requireLocator(store, id)
  const patch = parseSettings(input)
  if (Object.keys(patch).length === 0) {
    throw new OperatorError(`Nothing to change: give at least one of ${SETTING_OPTIONS}.`)
  }
  return writeFor(store, id, () => store.locators.updateSettings(id, patch))
}

/** A new public token; the old one stops naming the locator as soon as this commits. */
export function rotatePublicToken(store: Store, id: string): Locator {
  requireLocator(store, id)
  return writeFor(store, id, () => store.locators.rotateToken(id))
}

/** "1 key", "3 keys". */
export const counted = (n: number, noun: string): string => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`

/** What a locator held when it was deleted (or would be, unconfirmed). */
export type DeletedLocator = { locator: Locator; published: number; draft: number; keys: number }

/**
 * Deletes a locator and all it holds, in one transaction, when `confirmed`; else refuses, saying
 * what would go. The last locator stays: a start on a database with none makes a new one, with
 * the demo.
 */
export function deleteLocator(store: Store, id: string, confirmed: boolean): DeletedLocator {
  return store.write(() => {
    const locator = requireLocator(store, id)
    if (store.locators.count() === 1) {
      throw new OperatorError(
        `${locator.id} is the only locator: a start on a database with none makes a new one and loads the demo. Switch it off instead (${cliCommand(`locator set ${locator.id} --active off`)}), or make the locator that replaces it first (${cliCommand('locator create --name NAME')}).`,
      )
    }
    const held: DeletedLocator = {
      locator,
      published: store.locations.count(id, 'published'),
      draft: store.locations.count(id, 'draft'),
      keys: store.keys.listForLocator(id).length,
    }
    if (!confirmed) {
      throw new OperatorError(
        `Deleting ${locator.id} ("${locator.name}") removes for good ${counted(held.published + held.draft, 'location')}, ${counted(held.keys, 'key')}, its custom fields, filters and priority rules; its public token and keys stop working. Make a backup first (${cliCommand('backup FILE')}), then add --yes.`,
      )
    }
    store.locators.delete(id)
    return held
  })
}
