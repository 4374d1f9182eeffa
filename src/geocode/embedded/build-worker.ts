// The worker thread of ensureGeodata (ensure.ts): builds the data at the path it is sent, and posts
// each step as it begins, then the result.
import { buildGeodata } from './build'
import type { BuildMessage } from './ensure'

declare const self: Worker
const post = (message: BuildMessage) => self.postMessage(message)

self.onmessage = async (event: MessageEvent<string>) => {
  try {
    post({ kind: 'done', stats: await buildGeodata(event.data, (index) => post({ kind: 'step', index })) })
  } catch (e) {
    post({ kind: 'failed', message: (e as Error).message })
  }
}
