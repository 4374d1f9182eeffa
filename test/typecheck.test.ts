// Strict TypeScript is part of green: the whole tree (src, test, bench) must type-check, the
// widget's browser code against the DOM's types (its own tsconfig), and a Node project's script
// against storeloc/client's .d.ts alone (no Bun types, Node's module resolution). The whole
// tree takes over 30 s on a loaded 2-core machine, hence its own limit.
import { expect, test } from 'bun:test'
import { join } from 'node:path'

const root = join(import.meta.dir, '..')

for (const project of [root, join(root, 'src/widget'), join(root, 'test/fixtures/client-node')]) {
  test(`tsc --noEmit -p ${project.slice(root.length + 1) || '.'} passes`, () => {
    const p = Bun.spawnSync([join(root, 'node_modules/.bin/tsc'), '--noEmit', '-p', project], { cwd: root })
    const out = p.stdout.toString() + p.stderr.toString()
    expect(out).toBe('')
    expect(p.exitCode).toBe(0)
  }, 120_000)
}
