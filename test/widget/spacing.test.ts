// Discs kept off the map's zoom buttons (src/widget/spacing.ts): only one that reaches the buttons'
// box moves off it; one whose place is above or left of the view leaves it, as any disc does.
import { describe, expect, test } from 'bun:test'
import { type Disc, spreadApart, underButtons } from '../../src/widget/spacing'

/** A 400 x 300 view, its zoom buttons' box from its corner to (40, 80). */
const within = { x0: 0, y0: 0, x1: 400, y1: 300, cx: 40, cy: 80 }

/** Where one disc of radius 10 whose place is (x, y) is drawn. */
function drawn(x: number, y: number): { x: number; y: number } {
  const disc: Disc = { x, y, r: 10, fixed: false, within }
  spreadApart([disc])
  return { x: disc.x, y: disc.y }
}

describe('the zoom buttons', () => {
  test('a disc above or left of the view does not stand under them', () => {
    expect(underButtons({ x: -5, y: -300, r: 10, fixed: true }, within)).toBe(false)
    expect(underButtons({ x: -300, y: 20, r: 10, fixed: true }, within)).toBe(false)
    expect(underButtons({ x: 20, y: -10, r: 10, fixed: true }, within)).toBe(false)
    expect(underButtons({ x: 20, y: -9, r: 10, fixed: true }, within)).toBe(true)
    expect(underButtons({ x: 49, y: 20, r: 10, fixed: true }, within)).toBe(true)
    expect(underButtons({ x: 50, y: 20, r: 10, fixed: true }, within)).toBe(false)
  })

  test('a disc whose place is far above the view leaves it, not below the buttons', () => {
    // Half a radius left of the view: held on its edge (x 0), on its place's line upwards.
    expect(drawn(-5, -300)).toEqual({ x: 0, y: -300 })
    expect(drawn(-5, -40)).toEqual({ x: 0, y: -40 })
    expect(drawn(-300, 20)).toEqual({ x: -300, y: 20 })
  })

  test('a disc in the view under the buttons moves off them along the line from a radius past the corner', () => {
    expect(drawn(20, 40)).toEqual({ x: 50, y: 90 })
    expect(drawn(20, 20)).toEqual({ x: 50, y: 50 })
    expect(drawn(200, 40)).toEqual({ x: 200, y: 40 })
  })

  test('a disc whose place is just above and left of the corner comes in beside them, not below', () => {
    // Its place 7.5 px out each way: held half out at (-5, -5), then moved off the buttons.
    expect(drawn(-7.5, -7.5)).toEqual({ x: 50, y: 50 })
    // Nearer the top edge than the left: beside them still, higher.
    expect(drawn(-6, -9)).toEqual({ x: 50, y: 5 })
  })
})
