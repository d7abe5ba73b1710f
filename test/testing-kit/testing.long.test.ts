/**
 * The long runs, scaled by PAYSPLIT_NUM_RUNS_FACTOR (skipped below 100, so `npm test`
 * stays fast): random payment lives from `scenarioArb` with money conserved after every command
 * (1000 × factor lives), and arbitrary inputs to the public functions without a throw
 * (10000 × factor inputs); PAYSPLIT_LONG=1 runs them at a smaller factor. `npm run test:long` (factor 100) runs 10⁵ lives and 10⁶ inputs; the
 * targets, 10⁶ lives and 10⁷ inputs, are factor 1000:
 * `PAYSPLIT_NUM_RUNS_FACTOR=1000 npx vitest run --config .config/vitest.config.ts test/testing-kit/testing.long.test.ts --testTimeout=0`.
 * Each test logs its throughput; docs/testing.md records the measured figures.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, it } from 'vitest'
import { decodeMoneySplitPatch, decodePaymentIntentRequest } from '../../src/codecs.js'
import { decide } from '../../src/decide.js'
import { transition } from '../../src/decider.js'
import { emptyWorld, handle } from '../../src/http.js'
import { initialState, type Payment, type PaymentState } from '../../src/payment.js'
import { scenarioArb } from '../../src/testing.js'

const raw = Number(process.env['PAYSPLIT_NUM_RUNS_FACTOR'] ?? '1')
const factor = Number.isFinite(raw) ? raw : 1
const long = factor >= 100 || process.env['PAYSPLIT_LONG'] === '1' ? describe : describe.skip

const timed = (label: string, runs: number, f: () => void): void => {
  const t0 = performance.now()
  f()
  const s = (performance.now() - t0) / 1000
  console.log(`${label}: ${String(runs)} in ${s.toFixed(1)} s (${(runs / s).toFixed(0)}/s)`)
}

long('long runs', () => {
  it('random payment lives: money conserved after every command', () => {
    const runs = Math.round(1000 * factor)
    timed('lives', runs, () => {
      fc.assert(
        fc.property(scenarioArb({ maxCommands: 12 }), ({ commands }) => {
          let s: PaymentState = initialState
          for (const c of commands) {
            const r = transition(s, c)
            if (E.isLeft(r)) return false
            s = r.right[0]
            const p = s as Payment
            if (p.grossAmount !== p.moneySplits.reduce((a, x) => a + x.amount, 0)) return false
            if ((p.status === 'Charged' || p.status === 'Refunded') && (p.chargedAmount !== p.grossAmount + p.refundedAmount || p.refundedAmount > p.chargedAmount)) return false
          }
          return true
        }),
        { numRuns: runs }
      )
    })
  })

  it('arbitrary inputs to the public functions never throw', () => {
    const runs = Math.round(10_000 * factor)
    timed('inputs', runs, () => {
      fc.assert(
        fc.property(fc.anything({ withNullPrototype: true, withMap: true, withSet: true, withTypedArray: true }), fc.anything(), (a, b) => {
          transition(a as never, b as never)
          decide(initialState, a as never)
          decodePaymentIntentRequest(a)
          decodeMoneySplitPatch(b)
          handle(emptyWorld, { method: 'POST', path: '/payments', body: a }, { at: '2026-11-21T10:00:00.000Z', paymentReferenceID: '0b7e3f1c-2a4d-4e8f-9c1b-5d6e7f8a9b0c' })
        }),
        { numRuns: runs }
      )
    })
  })
})
