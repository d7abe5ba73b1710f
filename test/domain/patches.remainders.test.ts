/**
 * Branches of src/patches.ts that the other tests left uncovered (measured with
 * `npm run test:coverage`): an update type a JavaScript caller invents, given to `applyPatch`
 * (whose patch is meant to be decoded already), and the remainder corrections of
 * `proportionalPatch`, which only split amounts that are not whole numbers reach. The branches
 * that no input can reach are marked `v8 ignore` in src/ and listed in docs/testing.md.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { applyPatch } from '../../src/patches.js'
import { proportionalPatch } from '../../src/patchBuilders.js'
import type { MoneySplitPatch } from '../../src/codecs/requests.js'
import { cardPayment } from '../support/fixtures.js'

const payment = cardPayment() // splits 1: 7000, 2: 2000, 3: 1000

const withUnknownType = (order: ReadonlyArray<number>): MoneySplitPatch =>
  ({
    moneySplitPatch: order.map((splitID) =>
      splitID === 1 ? { splitID, updateType: 'Bogus' } : { splitID, updateType: 'DoNothing' }
    ),
    newGrossAmount: 10000
  }) as never

describe('applyPatch: an update type it does not know', () => {
  it('is ValidationFailed at that entry, with the entries in the order of the splits', () => {
    const r = applyPatch(payment, withUnknownType([1, 2, 3]))
    expect(E.isLeft(r) && r.left.code).toBe('ValidationFailed')
    expect(E.isLeft(r) && r.left.issues?.map((i) => i.path)).toEqual(['moneySplitPatch.0.updateType'])
  })

  it('is ValidationFailed at that entry also when the entries are out of order (matched by splitID)', () => {
    const r = applyPatch(payment, withUnknownType([1, 3, 2]))
    expect(E.isLeft(r) && r.left.code).toBe('ValidationFailed')
    expect(E.isLeft(r) && r.left.issues?.map((i) => i.path)).toEqual(['moneySplitPatch.0.updateType'])
  })

  it('comes after PatchSplitMismatch: a missing split is reported first', () => {
    const r = applyPatch(payment, withUnknownType([1, 2]))
    expect(E.isLeft(r) && r.left.code).toBe('PatchSplitMismatch')
  })
})

const fractional = (amounts: ReadonlyArray<number>) => ({
  moneySplits: amounts.map((amount, i) => ({
    ...(payment.moneySplits[0] as (typeof payment.moneySplits)[number]),
    splitID: i + 1,
    amount
  }))
})

/** The whole-number part each split gives up, checked to be whole, and their sum. */
const partsOf = (p: ReturnType<typeof fractional>, patch: MoneySplitPatch): ReadonlyArray<number> =>
  patch.moneySplitPatch.map((e, i) => {
    const before = (p.moneySplits[i] as { amount: number }).amount
    const part = e.updateType === 'UpdateAmount' ? before - e.newAmount : 0
    expect(Math.abs(part - Math.round(part))).toBeLessThan(1e-9)
    return Math.round(part)
  })

describe('proportionalPatch: the remainder corrections of floating-point quotients', () => {
  // Found by a search over split amounts with one or two decimals: the float quotient
  // amount · split / total lands on the wrong side of a whole number.
  it('corrects a quotient rounded up past a whole number (remainder below 0)', () => {
    const p = fractional([69, 20.7]) // 78 · 20.7 / 89.7 = 18 - ε, computed as 18
    const r = proportionalPatch(p, 78)
    expect(E.isRight(r)).toBe(true)
    if (E.isRight(r)) expect(partsOf(p, r.right)).toEqual([60, 18])
  })

  it('corrects a quotient rounded down below a whole number (remainder of at least the total)', () => {
    const p = fractional([3.97, 83.5, 3.54, 4.49, 9.71])
    const r = proportionalPatch(p, 63)
    expect(E.isRight(r)).toBe(true)
    if (E.isRight(r)) {
      const parts = partsOf(p, r.right)
      expect(parts.reduce((a, b) => a + b, 0)).toBe(63)
      expect(parts[1]).toBe(50) // 63 · 83.5 / 105.21 = 50.0000…, computed just below 50
    }
  })
})
