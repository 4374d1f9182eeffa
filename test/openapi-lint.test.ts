// GET /openapi.json read by an independent tool, as a script writer's generator reads it: Redocly's
// recommended rules for OpenAPI 3.1 find no error, and no warning beyond the three kept on purpose.
import { expect, test } from 'bun:test'
import { createConfig, lintFromString } from '@redocly/openapi-core'
import { doc, useOpenApiDocument } from './openapi-fixture'

useOpenApiDocument()

/** Warnings the document keeps: health checks answer no 4xx, the package has no licence, and one error example is listed for the guide only. */
const KEPT = ['operation-4xx-response', 'info-license', 'no-unused-components']

test('Redocly finds no error in the document, and no warning beyond the kept ones', async () => {
  const config = await createConfig({ extends: ['recommended'] })
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: '/openapi.json', config })
  const shown = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)
  expect(shown.filter((line) => line.startsWith('error'))).toEqual([])
  expect(problems.filter((p) => p.severity === 'warn' && !KEPT.includes(p.ruleId)).map((p) => p.ruleId)).toEqual([])
})
