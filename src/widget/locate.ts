// The visitor's own position, as the browser gives it: asked for, or taken when it is shared
// without asking (the visitor allowed this site before).
import type { Texts } from './i18n'
import type { Origin } from './url-state'

/** Whether the browser gives the position without asking the visitor. */
export function positionShared(): Promise<boolean> {
  const asked = navigator.permissions?.query({ name: 'geolocation' })
  return asked ? asked.then((p) => p.state === 'granted').catch(() => false) : Promise.resolve(false)
}

/**
 * The visitor's position asked for, `status` saying so: `found` with it as a search's origin, else
 * `alert` says why not. Neither once `life` (the finder's) is aborted.
 */
export function locateSaying(
  texts: Texts,
  status: HTMLElement,
  alert: HTMLElement,
  life: AbortSignal,
  found: (origin: Origin) => void,
): void {
  alert.textContent = ''
  status.textContent = texts.locating
  const failed = (refused: boolean) => {
    if (life.aborted) return
    status.textContent = ''
    alert.textContent = refused ? texts.locateRefused : texts.locateFailed
  }
  // For up to 10 s; refused: the visitor said no.
  if (!navigator.geolocation) failed(false)
  else
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => life.aborted || found({ kind: 'geo', lat: coords.latitude, lng: coords.longitude }),
      (error) => failed(error.code === error.PERMISSION_DENIED),
      { timeout: 10_000, maximumAge: 300_000 },
    )
}
