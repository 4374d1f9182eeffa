// map.js: the map's own code (markers, clusters, fitting, a press on the map), loaded with Leaflet
// by map-load.ts when a finder first draws a map, so widget.js and a page without a map carry none
// of it. It hands its functions to the script element that ran it: the page gets no global from
// it. It exports nothing: an entry's exports would cost map.js a module wrapper.
import { drawMap } from './map'
import type { MapScript } from './map-load'
import { mapPress } from './map-press'

;(document.currentScript as MapScript).storeloc = { drawMap, mapPress }
