/// <reference types="vite/client" />
/**
 * Every `@example` of the testing kit (src/testing/*.ts), the conformance runner
 * (src/conformance/*.ts) and the command's HTTP driver and receiver (src/cli/) runs, the way
 * test/repo/examples.test.ts runs those of the other entries: imports bound to the modules
 * themselves (`paysplit/testing` to src/testing.ts, `paysplit/conformance` to src/conformance.ts,
 * fast-check to the installed one), types stripped, run. Every exported value of `paysplit/testing`
 * and `paysplit/conformance` must have one.
 */
import * as assert from 'node:assert'
import * as nodeHttp from 'node:http'
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
import * as conformance from '../../src/conformance.js'
import * as retries from '../../src/conformance/retries.js'
import * as runner from '../../src/conformance/runner.js'

const modules: Readonly<Record<string, unknown>> = {
  'node:assert': assert,
  'fast-check': { default: fc },
  'fp-ts/lib/Either.js': E,
  'fp-ts/lib/Option.js': O,
  paysplit,
  'paysplit/codecs': codecs,
  'paysplit/http': http,
  'paysplit/camt054': camt054,
  'paysplit/testing': testing,
  'paysplit/conformance': conformance,
  'node:http': nodeHttp,
  './retries.js': retries,
  './runner.js': runner
}

const files = [
  'src/testing/arbitraries.ts',
  'src/testing/harness.ts',
  'src/testing/ocr.ts',
  'src/testing/camt054.ts',
  'src/bankFiles/camt054Writer.ts',
  'src/conformance/runner.ts',
  'src/conformance/normalise.ts',
  'src/conformance/report.ts',
  'src/conformance/retries.ts',
  'src/cli/httpService.ts',
  'src/cli/receiver.ts'
]

const run = (code: string): Promise<void> => runExample(code, modules)

const all = files.flatMap(examplesOf)

describe('every @example of paysplit/testing and paysplit/conformance runs', () => {
  it('every exported value of paysplit/testing and paysplit/conformance has an example (ocrGiroText: paysplit/http runs it)', () => {
    const documented = new Set([...all.map((e) => e.name), 'ocrGiroText'])
    expect([...Object.keys(testing), ...Object.keys(conformance)].filter((k) => !documented.has(k))).toStrictEqual([])
  })

  it.each(all.map((e) => [`${e.file} ${e.name}`, e] as const))('%s', async (_name, e) => {
    await run(e.code)
  })
})
