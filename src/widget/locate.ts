// The visitor's own position, as the browser gives it: asked for, or taken when it is shared
// without asking (the visitor allowed this site before).

/** Asks the browser for the position, for up to 10 s: `found` with it, else `failed` (refused: the visitor said no). */
export function ownPosition(found: (lat: number, lng: number) => void, failed: (refused: boolean) => void): void {
  if (!navigator.geolocation) failed(false)
  else
    navigator.geolocation.getCurrentPosition(
      (position) => found(position.coords.latitude, position.coords.longitude),
      (error) => failed(error.code === error.PERMISSION_DENIED),
      { timeout: 10_000, maximumAge: 300_000 },
    )
}

/** Whether the browser gives the position without asking the visitor. */
export function positionShared(): Promise<boolean> {
  const asked = navigator.permissions?.query({ name: 'geolocation' })
  return asked ? asked.then((p) => p.state === 'granted').catch(() => false) : Promise.resolve(false)
}
