/**
 * The library the benchmarks measure: the BUILT package (`dist/`, what `npm install paysplit`
 * gives a user), not the TypeScript sources. `npm run bench` builds first. Run through tsx, the
 * sources are ~1.7× slower on a `transition` step than the same code bundled by tsup (tsx's
 * per-module transform reads every cross-module import through a getter), which would measure
 * the dev loader, not paysplit.
 *
 * Loaded by URL so that type-checking does not need a build: the types are the sources' own.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type * as Codecs from '../src/codecs.js'
import type * as Http from '../src/http.js'
import type * as Lib from '../src/index.js'

const dist = new URL('../dist/', import.meta.url)
if (!existsSync(fileURLToPath(new URL('index.js', dist)))) {
  throw new Error('bench: dist/ is missing; run `npm run build` first (`npm run bench` does)')
}
const lib = (await import(new URL('index.js', dist).href)) as typeof Lib
const codecs = (await import(new URL('codecs.js', dist).href)) as typeof Codecs
const http = (await import(new URL('http.js', dist).href)) as typeof Http

export const { transition, replay, initialState, validateState, kid } = lib
export const { decodePaymentIntentRequest, decodeMoneySplitPatch, PaymentIntentRequest } = codecs
export const { handle, worldOf, IDEMPOTENCY_KEY_TTL_MS } = http
