// The worker thread of placeSearchAt().warm (place-source.ts): reads the data file at the path it is
// sent into a PlaceSearch's parts, and posts them back, their buffers moved, not copied.
import { GeodataDamagedError, openGeodata } from './open'
import { buildPlaceParts } from './place-parts'
import type { PlacesMessage } from './place-source'

declare const self: Worker

self.onmessage = (event: MessageEvent<string>) => {
  try {
    const db = openGeodata(event.data)
    const parts = buildPlaceParts(db)
    db.close()
    const buffers = new Set<ArrayBuffer>()
    for (const value of Object.values(parts)) {
      if (ArrayBuffer.isView(value)) buffers.add(value.buffer as ArrayBuffer)
      else if (value !== null && typeof value === 'object' && 'bytes' in value)
        for (const a of Object.values(value)) buffers.add((a as Uint8Array).buffer as ArrayBuffer)
    }
    self.postMessage({ kind: 'done', parts } satisfies PlacesMessage, [...buffers])
  } catch (e) {
    const damaged = e instanceof GeodataDamagedError
    self.postMessage({ kind: 'failed', message: (e as Error).message, damaged } satisfies PlacesMessage)
  }
}
