// Distances, and the reaches and sizes the resolver and the place search read an address's places by alike.
import { distance } from 'geokdbush'

/** Great-circle distance in km, in the API's (lat, lng) order: geokdbush's formula, as the index uses. */
export const distanceKm = (aLat: number, aLng: number, bLat: number, bLng: number): number =>
  distance(aLng, aLat, bLng, bLat)

/** A town named beside a postcode confirms it when this close to it: "Freiburg" is the data's "Freiburg im Breisgau". */
export const CONFIRM_KM = 15
/** The dashes, as a character class's body: what stands between a town and its district. */
export const DASH = '\\-‐–—'
/** What stands between a town and its district: "Köln-Ehrenfeld", "Wien–Favoriten". */
export const DASHES = new RegExp(`[${DASH}]`, 'g')
/** A dash standing as a word of its own ("Frankfurt - Oder", "Frankfurt – Oder"): no word of a name. */
export const SPACED_DASH = new RegExp(`^[${DASH}]+$`, 'u')
/** A town written before a dash and its district has this many people: "Mont-Saint-Michel" is not in Mont. */
export const DISTRICT_TOWN_POPULATION = 20_000
/**
 * A town of this many people is what its name means over a region's or country's of its own
 * country ("Suite 200 Washington" is Washington, DC) and over a smaller place's other name.
 */
export const CITY_POPULATION = 100_000
/** A district lies within this of its town's point: greater London and Los Angeles reach about so far. */
export const DISTRICT_KM = 30
/** A town of this many people reaches DISTRICT_KM with a district named cut short of its join. */
export const METROPOLIS = 1_000_000
/** A place named before the town and within this distance of it is a suburb of it ("Bondi Beach, Sydney"). */
export const SUBURB_KM = 15
/**
 * A name that towns of this many people or more, of two names or more, bear as another name is an
 * old name they shared ("Newtown": Tallahassee, Hartford, Macon...), none's alone.
 */
export const SHARED_NAME_POPULATION = 50_000
