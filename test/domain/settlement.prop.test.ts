import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Payment } from '../../src/payment.js'
import { settlement } from '../../src/settlement.js'
import { validateState } from '../../src/state/storedState.js'
import { paymentArb } from '../support/fixtures.js'

const sum = (xs: ReadonlyArray<number>): number => xs.reduce((n, x) => n + x, 0)
const isCharged = (p: Payment): boolean => p.status === 'Charged' || p.status === 'Refunded'

describe('settlement laws (C8), on valid payments with random splits and refunds', () => {
  it('the generated payments are valid states (so the laws speak of real payments)', () => {
    fc.assert(fc.property(paymentArb, (p) => E.isRight(validateState(p))))
  })

  it('Σ net = grossAmount', () => {
    fc.assert(
      fc.property(paymentArb, (p) => {
        expect(sum(settlement(p).rows.map((r) => r.net))).toBe(p.grossAmount)
      })
    )
  })

  it('once charged: Σ allocated = chargedAmount − excessRefundedAmount', () => {
    fc.assert(
      fc.property(paymentArb, (p) => {
        fc.pre(isCharged(p))
        expect(sum(settlement(p).rows.map((r) => r.allocated))).toBe(p.chargedAmount - p.excessRefundedAmount)
      })
    )
  })

  it('once charged: Σ refunded = refundedAmount − excessRefundedAmount', () => {
    fc.assert(
      fc.property(paymentArb, (p) => {
        fc.pre(isCharged(p))
        expect(sum(settlement(p).rows.map((r) => r.refunded))).toBe(p.refundedAmount - p.excessRefundedAmount)
      })
    )
  })

  it('before the charge: allocated = planned, refunded = 0, net = allocated', () => {
    fc.assert(
      fc.property(paymentArb, (p) => {
        fc.pre(!isCharged(p))
        const rows = settlement(p).rows
        expect(rows.every((r) => r.refunded === 0 && r.net === r.allocated)).toBe(true)
        expect(sum(rows.map((r) => r.allocated))).toBe(p.grossAmount)
      })
    )
  })

  it('every row: net = allocated − refunded, 0 ≤ refunded ≤ allocated', () => {
    fc.assert(
      fc.property(paymentArb, (p) => {
        for (const r of settlement(p).rows) {
          expect(r.net).toBe(r.allocated - r.refunded)
          expect(r.refunded).toBeGreaterThanOrEqual(0)
          expect(r.refunded).toBeLessThanOrEqual(r.allocated)
        }
      })
    )
  })

  it('one row per (account, fee flag), in the order of the first splitID where each appears', () => {
    fc.assert(
      fc.property(paymentArb, (p) => {
        const entries = isCharged(p) ? p.allocation : p.moneySplits
        const expected: Array<string> = []
        for (const e of [...entries].sort((a, b) => a.splitID - b.splitID)) {
          const key = `${String(e.isFee)}:${e.connectedAccountID.toLowerCase()}`
          if (!expected.includes(key)) expected.push(key)
        }
        const s = settlement(p)
        expect(s.rows.map((r) => `${String(r.isFee)}:${r.connectedAccountID.toLowerCase()}`)).toEqual(expected)
        expect(s.excessRefundedAmount).toBe(p.excessRefundedAmount)
      })
    )
  })
})
