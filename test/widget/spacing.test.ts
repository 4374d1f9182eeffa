// Discs kept off the map's controls (src/widget/spacing.ts): only one that reaches a control's box
// moves off it; one whose place is beyond the view's edge by the box leaves it, as any disc does.
import { describe, expect, test } from 'bun:test'
import { type Disc, spreadApart, underControls } from '../../src/widget/spacing'

/** A 400 x 300 view, its zoom buttons' box 10 px in from its corner, to (40, 80). */
const buttons = { x0: 10, y0: 10, x1: 40, y1: 80 }
const within = { x0: 0, y0: 0, x1: 400, y1: 300, keep: [buttons] }

/** Where one disc of radius 10 whose place is (x, y) is drawn. */
function drawn(x: number, y: number, keep = [buttons]): { x: number; y: number } {
  const disc: Disc = { x, y, r: 10, fixed: false, within: { ...within, keep } }
  spreadApart([disc])
  return { x: disc.x, y: disc.y }
}

describe("the map's controls", () => {
  test('a disc above or left of the view does not stand under them', () => {
    expect(underControls({ x: -5, y: -300, r: 10, fixed: true }, within)).toBe(false)
    expect(underControls({ x: -300, y: 20, r: 10, fixed: true }, within)).toBe(false)
    expect(underControls({ x: 20, y: -10, r: 10, fixed: true }, within)).toBe(false)
    expect(underControls({ x: 20, y: -9, r: 10, fixed: true }, within)).toBe(true)
    expect(underControls({ x: 49, y: 20, r: 10, fixed: true }, within)).toBe(true)
    expect(underControls({ x: 50, y: 20, r: 10, fixed: true }, within)).toBe(false)
  })

  test('a disc whose place is far above the view leaves it, not below the buttons', () => {
    // Half a radius left of the view: held on its edge (x 0), on its place's line upwards.
    expect(drawn(-5, -300)).toEqual({ x: 0, y: -300 })
    expect(drawn(-5, -40)).toEqual({ x: 0, y: -40 })
    expect(drawn(-300, 20)).toEqual({ x: -300, y: 20 })
  })

  test('a disc whole in the view under the buttons moves off them diagonally, away from the corner', () => {
    expect(drawn(20, 40)).toEqual({ x: 50, y: 70 })
    expect(drawn(20, 20)).toEqual({ x: 50, y: 50 })
    expect(drawn(200, 40)).toEqual({ x: 200, y: 40 })
  })

  test('a disc whose place is just above and left of the corner comes in beside them, not below', () => {
    // Its place 7.5 px out each way: held half out at (-5, -5), then moved off the buttons.
    expect(drawn(-7.5, -7.5)).toEqual({ x: 50, y: 50 })
    // Nearer the top edge than the left: beside them still, higher; along the line from (-10, -10).
    expect(drawn(-6, -9)).toEqual({ x: 50, y: 5 })
  })

  test('a control in another corner is kept clear from that corner, as the buttons are from theirs', () => {
    // The credit, 60 x 16 at the bottom right; the scale, 100 x 30 at the bottom left.
    const credit = { x0: 340, y0: 284, x1: 400, y1: 300 }
    const scale = { x0: 5, y0: 265, x1: 105, y1: 295 }
    expect(underControls({ x: 380, y: 280, r: 10, fixed: true }, { ...within, keep: [credit] })).toBe(true)
    expect(underControls({ x: 380, y: 270, r: 10, fixed: true }, { ...within, keep: [credit] })).toBe(false)
    // 20 px from the right, 10 from the foot: up and left till a radius above it.
    expect(drawn(380, 290, [credit])).toEqual({ x: 364, y: 274 })
    // Up and right till a radius above it.
    expect(drawn(50, 290, [scale])).toEqual({ x: 85, y: 255 })
    expect(drawn(200, 290, [scale])).toEqual({ x: 200, y: 290 })
  })

  test('a disc between two controls closer than its width stands on neither', () => {
    // A phone's scale and a long credit, 10 px apart: moved off one, a disc lands on the other.
    const scale = { x0: 5, y0: 265, x1: 105, y1: 295 }
    const credit = { x0: 115, y0: 284, x1: 400, y1: 300 }
    const keep = [buttons, scale, credit]
    for (const x of [100, 110, 120, 130])
      for (const y of [270, 280, 290]) {
        const { x: dx, y: dy } = drawn(x, y, keep)
        expect({ x, y, under: underControls({ x: dx, y: dy, r: 10, fixed: true }, { ...within, keep }) }).toEqual({
          x,
          y,
          under: false,
        })
      }
  })
})
