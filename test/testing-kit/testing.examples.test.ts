/// <reference types="vite/client" />
/**
 * Every `@example` of the testing kit (src/testing/*.ts) runs, the way test/repo/examples.test.ts runs
 * those of the other entries: imports bound to the modules themselves (`paysplit/testing` to
 * src/testing.ts, fast-check to the installed one), types stripped, run. Every exported value of
 * `paysplit/testing` must have one.
 */
import * as assert from 'node:assert'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import { examplesOf, runExample } from '../support/examples.runner.js'
import * as camt054 from '../../src/camt054.js'
import * as codecs from '../../src/codecs.js'
import * as http from '../../src/http.js'
import * as paysplit from '../../src/index.js'
import * as testing from '../../src/testing.js'

const modules: Readonly<Record<string, unknown>> = {
  'node:assert': assert,
  'fast-check': { default: fc },
  'fp-ts/lib/Either.js': E,
  'fp-ts/lib/Option.js': O,
  paysplit,
  'paysplit/codecs': codecs,
  'paysplit/http': http,
  'paysplit/camt054': camt054,
  'paysplit/testing': testing
}

const files = ['src/testing/arbitraries.ts', 'src/testing/harness.ts', 'src/testing/conformance.ts', 'src/testing/normalise.ts', 'src/testing/report.ts', 'src/testing/ocr.ts', 'src/testing/camt054.ts', 'src/bankFiles/camt054Writer.ts']

const run = (code: string): Promise<void> => runExample(code, modules)

const all = files.flatMap(examplesOf)

describe('every @example of paysplit/testing runs', () => {
  it('every exported value of paysplit/testing has an example', () => {
    const documented = new Set(all.map((e) => e.name))
    expect(Object.keys(testing).filter((k) => !documented.has(k))).toStrictEqual([])
  })

  it.each(all.map((e) => [`${e.file} ${e.name}`, e] as const))('%s', async (_name, e) => {
    await run(e.code)
  })
})
