/**
 * Kills the mutants Stryker left alive in src/patches.ts (docs/testing.md, "Mutation testing").
 * Most were in the sentences of the errors: C2 wants every error to carry "a sentence a
 * person can read", so these tests pin what each sentence must tell (which splits are missing,
 * unknown or repeated, which split a patch would raise and by how much, which field is wrong and
 * what it must be). The others are behaviours of C4 no test looked at closely enough.
 */
import { issue } from '../../src/errors.js'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { PaymentError } from '../../src/errors.js'
import type { MoneySplit } from '../../src/payment.js'
import { applyPatch, toAdjustedSplits, toRefundedSplits } from '../../src/patches.js'
import { deleteSplitsPatch, proportionalPatch, setAmountsPatch } from '../../src/patchBuilders.js'
import type { MoneySplitPatch, PatchEntry } from '../../src/codecs/requests.js'
import { makeSplits, type SplitSpec } from '../support/fixtures.js'
import { FEE_ACCOUNT, PARTNER, PAYMENT_ID, SELLER } from '../support/builders.js'

const spec = (amount: number, isFee = false, connectedAccountID = SELLER): SplitSpec => ({ connectedAccountID, amount, isFee })

/** Splits 1..n with these amounts (a fee split where `fee` lists the position). */
const paymentOf = (amounts: ReadonlyArray<number>, fees: ReadonlyArray<number> = []): { moneySplits: ReadonlyArray<MoneySplit> } => ({
  moneySplits: makeSplits(
    PAYMENT_ID,
    amounts.map((a, i) => (fees.includes(i + 1) ? spec(a, true, FEE_ACCOUNT) : spec(a, false, i % 2 === 0 ? SELLER : PARTNER)))
  )
})

const keep = (splitID: number): PatchEntry => ({ splitID, updateType: 'DoNothing' })
const update = (splitID: number, newAmount: number): PatchEntry => ({ splitID, updateType: 'UpdateAmount', newAmount })
const patch = (newGrossAmount: number, ...entries: ReadonlyArray<PatchEntry>): MoneySplitPatch => ({ moneySplitPatch: entries, newGrossAmount })

const left = <A>(r: E.Either<PaymentError, A>): PaymentError => {
  if (E.isRight(r)) throw new Error(`expected a refusal, got ${JSON.stringify(r.right)}`)
  return r.left
}

const p3 = paymentOf([500, 300, 200])

describe('PatchSplitMismatch: the sentence counts the splitIDs of each kind, the fields list them', () => {
  it('missing, unknown and repeated, in that order, counted', () => {
    const e = left(applyPatch(p3, patch(700, keep(1), keep(2), keep(2), keep(7))))
    expect(e.code).toBe('PatchSplitMismatch')
    expect(e.message).toBe(
      'The patch must name each current split exactly once: 1 missing, 1 unknown, 1 repeated (see missing, unknown and repeated).'
    )
  })

  it('only the kinds that occur, each counted, the fields ascending', () => {
    expect(left(applyPatch(p3, patch(500, keep(1)))).message).toBe(
      'The patch must name each current split exactly once: 2 missing (see missing, unknown and repeated).'
    )
    expect(left(applyPatch(p3, patch(1000, keep(1), keep(2), keep(3), keep(9), keep(8)))).message).toBe(
      'The patch must name each current split exactly once: 2 unknown (see missing, unknown and repeated).'
    )
    expect(left(applyPatch(p3, patch(1000, keep(3), keep(1), keep(2), keep(3), keep(1)))).message).toBe(
      'The patch must name each current split exactly once: 2 repeated (see missing, unknown and repeated).'
    )
  })

  it('a splitID no split has, named twice, is both unknown and repeated', () => {
    const e = left(applyPatch(p3, patch(1000, keep(1), keep(2), keep(3), keep(5), keep(5))))
    expect(e).toMatchObject({ missing: [], unknown: [5], repeated: [5] })
    expect(e.message).toBe('The patch must name each current split exactly once: 1 unknown, 1 repeated (see missing, unknown and repeated).')
  })

  it('lists up to 100 splitIDs, the lowest, and counts them all in the message', () => {
    const payment = paymentOf(Array.from({ length: 200 }, () => 1))
    const many = (n: number): MoneySplitPatch =>
      patch(200, ...payment.moneySplits.map((s) => keep(s.splitID)), ...Array.from({ length: n }, (_, i) => keep(1000 - i)))
    const ids = (n: number): number[] => Array.from({ length: n }, (_, i) => 1000 - n + 1 + i)
    expect(left(applyPatch(payment, many(100))).unknown).toEqual(ids(100))
    const e = left(applyPatch(payment, many(101)))
    expect(e.unknown).toEqual(ids(101).slice(0, 100))
    expect(e.message).toBe('The patch must name each current split exactly once: 101 unknown (see missing, unknown and repeated).')
  })

  it('the builders do not call a split missing: they only name the splits to change', () => {
    expect(left(deleteSplitsPatch(p3, [4, 2, 4])).message).toBe(
      'The patch must name each current split exactly once: 1 unknown, 1 repeated (see missing, unknown and repeated).'
    )
    expect(left(setAmountsPatch(p3, [{ splitID: 2, amount: 1 }, { splitID: 2, amount: 2 }])).message).toBe(
      'The patch must name each current split exactly once: 1 repeated (see missing, unknown and repeated).'
    )
  })
})

describe('the other rules of C4: each sentence says what is wrong, quoting nothing from the input', () => {
  it('SplitAmountIncrease: that a patch only lowers a split', () => {
    const e = left(applyPatch(p3, patch(1001, keep(1), update(2, 301), keep(3))))
    expect(e.code).toBe('SplitAmountIncrease')
    expect(e.message).toBe('The patch asks a split for more than it holds; a patch can only lower a split.')
    expect(left(setAmountsPatch(p3, [{ splitID: 3, amount: 250 }])).message).toBe(
      'The patch asks a split for more than it holds; a patch can only lower a split.'
    )
  })

  it('NothingToChange: the sentence says every split keeps its amount', () => {
    const e = left(applyPatch(p3, patch(1000, keep(1), update(2, 300), keep(3))))
    expect(e.code).toBe('NothingToChange')
    expect(e.message).toBe('The patch changes nothing: every split keeps its amount.')
    expect(left(deleteSplitsPatch(p3, [])).message).toBe('The patch changes nothing: every split keeps its amount.')
    expect(left(setAmountsPatch(p3, [{ splitID: 1, amount: 500 }])).message).toBe(
      'The patch changes nothing: every split keeps its amount.'
    )
  })

  it('GrossAmountMismatch: the issue is at newGrossAmount, sum_mismatch, and quotes no amount', () => {
    const e = left(applyPatch(p3, patch(900, keep(1), update(2, 100), keep(3))))
    expect(e.issues).toEqual([
      { path: 'newGrossAmount', code: 'GrossAmountMismatch', reason: 'sum_mismatch', message: 'Must be the sum of the split amounts.' }
    ])
  })

  it('an updateType a JavaScript caller made up: the issue names the entry and the three update types', () => {
    const bogus = { splitID: 2, updateType: 'Bogus' } as unknown as PatchEntry
    for (const entries of [[keep(1), bogus, keep(3)], [keep(3), bogus, keep(1)]]) {
      expect(left(applyPatch(p3, patch(1000, ...entries))).issues).toEqual([
        issue('moneySplitPatch.1.updateType', 'not_one_of', { allowed: ['UpdateAmount', 'DoDeleteSplitEntry', 'DoNothing'] })
      ])
    }
  })
})

describe('C4 order: a PatchSplitMismatch anywhere in the patch comes before the other rules', () => {
  const bogus = (splitID: number): PatchEntry => ({ splitID, updateType: 'Bogus' }) as unknown as PatchEntry

  it('an increase in an early entry, a wrong splitID in a later one: PatchSplitMismatch', () => {
    // as many entries as splits, the first ones in the splits' order
    expect(left(applyPatch(p3, patch(1000, update(1, 900), keep(2), keep(7)))).code).toBe('PatchSplitMismatch')
    expect(left(applyPatch(p3, patch(1000, update(1, 900), keep(2), keep(2)))).code).toBe('PatchSplitMismatch')
    expect(left(applyPatch(p3, patch(1000, keep(1), update(2, 900), keep(1)))).code).toBe('PatchSplitMismatch')
    expect(left(applyPatch(p3, patch(1000, update(1, 900), keep(3), keep(2)))).code).toBe('SplitAmountIncrease')
  })

  it('an unknown updateType in an early entry, a wrong splitID in a later one: PatchSplitMismatch', () => {
    expect(left(applyPatch(p3, patch(1000, bogus(1), keep(2), keep(7)))).code).toBe('PatchSplitMismatch')
    expect(left(applyPatch(p3, patch(1000, bogus(1), keep(3), keep(3)))).code).toBe('PatchSplitMismatch')
    expect(left(applyPatch(p3, patch(1000, bogus(1), keep(2), keep(3)))).code).toBe('ValidationFailed')
  })

  it('SplitAmountIncrease also when the splits do not ascend', () => {
    const unordered = { moneySplits: [p3.moneySplits[1], p3.moneySplits[2], p3.moneySplits[0]] as MoneySplit[] } // 2, 3, 1
    const e = left(applyPatch(unordered, patch(1000, update(2, 999), keep(3), update(1, 999))))
    expect(e.code).toBe('SplitAmountIncrease')
    expect(e.message).toBe('The patch asks a split for more than it holds; a patch can only lower a split.')
  })

  it('splits that do not ascend are matched by splitID all the same', () => {
    const shuffled = { moneySplits: [...p3.moneySplits].reverse() } // 3, 2, 1
    expect(left(applyPatch(shuffled, patch(1000, update(3, 900), keep(2), keep(1)))).code).toBe('SplitAmountIncrease')
    expect(left(applyPatch(shuffled, patch(1000, update(3, 900), keep(2), keep(7)))).code).toBe('PatchSplitMismatch')
    const r = applyPatch(shuffled, patch(900, update(3, 100), keep(2), keep(1)))
    expect(E.isRight(r) && r.right.splitList.map((s) => [s.splitID, s.amount])).toEqual([[1, 500], [2, 300], [3, 100]])
  })
})

describe('C4 outcomes the other tests did not look at closely', () => {
  it('a patch listing the splits out of order is matched by splitID, not by position', () => {
    const r = applyPatch(p3, patch(900, keep(1), keep(3), update(2, 200)))
    expect(E.isRight(r) && r.right.splitList.map((s) => [s.splitID, s.amount])).toEqual([[1, 500], [2, 200], [3, 200]])
  })

  it('splitList and changes come out in splitID order even when the splits are not', () => {
    const shuffled = { moneySplits: [p3.moneySplits[1], p3.moneySplits[2], p3.moneySplits[0]] as MoneySplit[] } // 2, 3, 1
    const r = applyPatch(shuffled, patch(600, update(1, 100), keep(2), keep(3)))
    expect(E.isRight(r) && r.right.splitList.map((s) => s.splitID)).toEqual([1, 2, 3])
    expect(deleteSplitsPatch(shuffled, [3])).toEqual(
      E.right({
        moneySplitPatch: [keep(1), keep(2), { splitID: 3, updateType: 'DoDeleteSplitEntry', doDelete: true }],
        newGrossAmount: 800
      })
    )
  })

  it('a lowered split and the refunded/adjusted entries hold description and externalID only when the split has them', () => {
    const splits = makeSplits(PAYMENT_ID, [
      { connectedAccountID: SELLER, amount: 100, isFee: false },
      { connectedAccountID: SELLER, amount: 100, isFee: false, description: 'd2' },
      { connectedAccountID: SELLER, amount: 100, isFee: false, externalID: 'e3' },
      { connectedAccountID: SELLER, amount: 100, isFee: false, description: 'd4', externalID: 'e4' }
    ])
    const r = applyPatch({ moneySplits: splits }, patch(40, update(1, 10), update(2, 10), update(3, 10), update(4, 10)))
    if (E.isLeft(r)) throw new Error(r.left.message)
    const optional = (o: object): ReadonlyArray<string> => Object.keys(o).filter((k) => k === 'description' || k === 'externalID')
    expect(r.right.splitList.map(optional)).toEqual([[], ['description'], ['externalID'], ['description', 'externalID']])
    expect(r.right.splitList.map((s) => [s.description, s.externalID])).toEqual([
      [undefined, undefined],
      ['d2', undefined],
      [undefined, 'e3'],
      ['d4', 'e4']
    ])
    const refunded = toRefundedSplits(r.right)
    const adjusted = toAdjustedSplits(r.right)
    expect(refunded.map(optional)).toEqual([[], ['description'], ['externalID'], ['description', 'externalID']])
    expect(adjusted.map(optional)).toEqual([[], ['description'], ['externalID'], ['description', 'externalID']])
    expect(refunded[3]).toStrictEqual({ refundAmount: 90, connectedAccountID: SELLER, description: 'd4', externalID: 'e4', isFee: false })
    expect(adjusted[2]).toStrictEqual({ adjustedAmount: 90, connectedAccountID: SELLER, externalID: 'e3', isFee: false })
  })

  it('proportionalPatch: the units left go to the largest remainders first, then to the lower splitIDs among equal ones', () => {
    // 7 over 4/2/2/2 (total 10): shares 2.8, 1.4, 1.4, 1.4; floors 2, 1, 1, 1 leave 2 units: one to
    // the largest remainder (split 1), one to the lowest splitID of the equal ones (split 2)
    expect(proportionalPatch(paymentOf([4, 2, 2, 2]), 7)).toEqual(
      E.right({ moneySplitPatch: [update(1, 1), update(2, 0), update(3, 1), update(4, 1)], newGrossAmount: 3 })
    )
  })

  it('proportionalPatch is exact where amount × split passes 2^53 (BigInt reference)', () => {
    const amounts = [345561567971993, 2315183893329532] // total 2 660 745 461 301 525
    const amount = 2258292014943497
    const total = BigInt(amounts[0] ?? 0) + BigInt(amounts[1] ?? 0)
    const exact = amounts.map((a) => ({ q: (BigInt(amount) * BigInt(a)) / total, r: (BigInt(amount) * BigInt(a)) % total }))
    // one unit is left over, and goes to the larger exact remainder
    const [first, second] = exact as [{ q: bigint; r: bigint }, { q: bigint; r: bigint }]
    expect(first.q + second.q).toBe(BigInt(amount) - 1n)
    const parts = first.r > second.r ? [first.q + 1n, second.q] : [first.q, second.q + 1n]
    expect(parts.map(Number)).toEqual([293293342400659, 1964998672542838])
    expect(proportionalPatch(paymentOf(amounts), amount)).toEqual(
      E.right({
        moneySplitPatch: [update(1, 345561567971993 - 293293342400659), update(2, 2315183893329532 - 1964998672542838)],
        newGrossAmount: 2660745461301525 - amount
      })
    )
  })
})

describe('input that cannot be read: the issue names the argument', () => {
  const throwing = <T extends object>(target: T, key: string): T =>
    Object.defineProperty(target, key, {
      get() {
        throw new Error('boom')
      }
    })

  it('a payment whose splits cannot be read: the issue still names a field', () => {
    const e = left(applyPatch(throwing({}, 'moneySplits') as never, patch(0)))
    const first = e.issues?.[0]
    expect(first?.path).toMatch(/^[a-zA-Z]+$/)
    expect(first).toMatchObject({ reason: 'type', params: { expected: 'object' } })
  })

  it('applyPatch, proportionalPatch, deleteSplitsPatch and setAmountsPatch each name their own', () => {
    const hostileList = new Proxy([1], {
      get(target, key, receiver) {
        if (key === '0') throw new Error('boom')
        return Reflect.get(target, key, receiver) as unknown
      }
    })
    const cases: ReadonlyArray<readonly [string, E.Either<PaymentError, unknown>]> = [
      ['moneySplitPatch', applyPatch(p3, throwing({ newGrossAmount: 0 }, 'moneySplitPatch') as MoneySplitPatch)],
      ['amount', proportionalPatch(p3, 1, throwing({}, 'includeFees'))],
      ['splitIDs', deleteSplitsPatch(p3, hostileList)],
      ['amounts', setAmountsPatch(p3, hostileList as never)]
    ]
    for (const [path, r] of cases) {
      expect(path).not.toBe('')
      expect(left(r).issues).toEqual([issue(path, 'type', { expected: 'object' })])
    }
  })
})

describe('the builders: each refusal names the argument and what it must be', () => {
  it('proportionalPatch: amount from 1 to the total of the splits it may touch, the total named', () => {
    expect(left(proportionalPatch(p3, 0)).issues).toEqual([issue('amount', 'too_small', { min: 1 })])
    expect(left(proportionalPatch(p3, 1001)).issues).toEqual([issue('amount', 'too_big', { max: 1000 })])
    for (const amount of [1.5, Number.NaN]) {
      expect(left(proportionalPatch(p3, amount)).issues).toEqual([issue('amount', 'not_integer')])
    }
    const withFee = paymentOf([500, 300, 200], [3])
    expect(left(proportionalPatch(withFee, 801, { includeFees: false })).issues).toEqual([issue('amount', 'too_big', { max: 800 })])
  })

  it('proportionalPatch: splits that hold nothing it may touch allow at most 0', () => {
    expect(left(proportionalPatch(paymentOf([0, 0]), 1)).issues).toEqual([issue('amount', 'too_big', { max: 0 })])
    expect(left(proportionalPatch(paymentOf([100], [1]), 1, { includeFees: false })).issues).toEqual([
      issue('amount', 'too_big', { max: 0 })
    ])
  })

  it('proportionalPatch: includeFees must be a boolean', () => {
    expect(left(proportionalPatch(p3, 1, { includeFees: 'no' as never })).issues).toEqual([
      issue('includeFees', 'type', { expected: 'boolean' })
    ])
  })

  it('deleteSplitsPatch: an array of splitIDs, each a whole number from 1', () => {
    expect(left(deleteSplitsPatch(p3, '1' as never)).issues).toEqual([
      issue('splitIDs', 'type', { expected: 'array' })
    ])
    expect(left(deleteSplitsPatch(p3, [1, 0, 2.5])).issues).toEqual([
      issue('splitIDs.1', 'too_small', { min: 1 }),
      issue('splitIDs.2', 'not_integer')
    ])
  })

  it('setAmountsPatch: an array of { splitID, amount }, each field named where it is wrong', () => {
    expect(left(setAmountsPatch(p3, null as never)).issues).toEqual([
      issue('amounts', 'type', { expected: 'array' })
    ])
    expect(left(setAmountsPatch(p3, [{ splitID: 1, amount: 1 }, 7, { splitID: 0, amount: -1 }] as never)).issues).toEqual([
      issue('amounts.1', 'type', { expected: 'object' }),
      issue('amounts.2.splitID', 'too_small', { min: 1 }),
      issue('amounts.2.amount', 'too_small', { min: 0 })
    ])
  })
})
