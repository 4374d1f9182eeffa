// Words a visitor types in a place box to mean where they are ("near me"): no place names them,
// and only the browser knows that position. The widget asks it for the position instead; the
// Query API says to send lat and lng. In the widget's languages.

const OWN_POSITION = new Set([
  'near me',
  'nearby',
  'near by',
  'close to me',
  'around me',
  'here',
  'my location',
  'current location',
  'my position',
  'in meiner nähe',
  'in der nähe',
  'près de moi',
  'pres de moi',
  'autour de moi',
  'ici',
  'cerca de mí',
  'cerca de mi',
  'aquí',
  'vicino a me',
  'bij mij in de buurt',
  'in de buurt',
])

/** Whether `text` asks for the visitor's own position ("near me", "in meiner Nähe"), not a place. */
export const asksOwnPosition = (text: string): boolean =>
  OWN_POSITION.has(
    text
      .trim()
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .replace(/[.!?]+$/, ''),
  )
