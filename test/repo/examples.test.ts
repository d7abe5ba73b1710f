/// <reference types="vite/client" />
/**
 * Every `@example` in src/ runs: each is taken from the TSDoc of an exported value, its imports
 * of `paysplit`, `paysplit/codecs`, `paysplit/http`, `paysplit/camt054`, fp-ts and node:assert bound to the modules
 * themselves, its types stripped by the TypeScript compiler, and run. An example whose assertion
 * fails fails here, and every exported value of the public entries must have one.
 */
import * as assert from 'node:assert'
import { readdirSync } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { examplesOf, runExample } from '../support/examples.runner.js'
import * as camt054 from '../../src/camt054.js'
import * as codecs from '../../src/codecs.js'
import * as http from '../../src/http.js'
import * as paysplit from '../../src/index.js'

/**
 * The src modules by the relative name an internal example imports them with (`./kid.js`, from a
 * module of the same folder; file names are unique across src/).
 */
const internals: Record<string, unknown> = Object.fromEntries(
  Object.entries(import.meta.glob(['../../src/**/*.ts', '!../../src/testing/**', '!../../src/conformance/**', '!../../src/cli/**', '!../../src/testing.ts', '!../../src/conformance.ts'], { eager: true })).map(([k, v]) => [
    k.replace(/^.*\//, './').replace(/\.ts$/, '.js'),
    v
  ])
)

const modules: Readonly<Record<string, unknown>> = {
  ...internals,
  'node:assert': assert,
  'fp-ts/lib/Either.js': E,
  'fp-ts/lib/Option.js': O,
  'io-ts': t,
  paysplit,
  'paysplit/codecs': codecs,
  'paysplit/http': http,
  'paysplit/camt054': camt054
}

/** The domain, codec and wire modules (the testing kit, the conformance runner and the command have their own example test). */
const files = readdirSync(new URL('../../src/', import.meta.url), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !/^(testing|conformance|cli)\b/.test(f))
  .map((f) => `src/${f}`)

const run = (code: string): Promise<void> => runExample(code, modules)

const all = files.flatMap(examplesOf)

describe('every @example in src/ runs', () => {
  it('every exported value of paysplit, paysplit/codecs, paysplit/http and paysplit/camt054 has an example', () => {
    const documented = new Set(all.map((e) => e.name))
    const missing = [paysplit, codecs, http, camt054].flatMap((m) => Object.keys(m).filter((k) => !documented.has(k)))
    expect([...new Set(missing)]).toStrictEqual([])
  })

  it('the runner fails on a failing example (it is not a no-op)', async () => {
    await expect(run("import * as assert from 'node:assert'\nassert.strictEqual(1 + 1, 3)")).rejects.toThrow()
    await expect(run("import { transition } from 'paysplit'\nif (typeof transition !== 'function') throw new Error('x')")).resolves.toBeUndefined()
  })

  it.each(all.map((e) => [`${e.file} ${e.name}`, e] as const))('%s', async (_name, e) => {
    await run(e.code)
  })
})
