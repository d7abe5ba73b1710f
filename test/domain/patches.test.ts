import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { PaymentError } from '../../src/errors.js'
import type { MoneySplit, Payment } from '../../src/payment.js'
import { applyPatch, toAdjustedSplits, toRefundedSplits, type PatchOutcome } from '../../src/patches.js'
import { deleteSplitsPatch, proportionalPatch, setAmountsPatch } from '../../src/patchBuilders.js'
import type { MoneySplitPatch, PatchEntry } from '../../src/codecs/requests.js'
import { chargedCardWith } from '../support/fixtures.js'

// -------------------------------------------------------------------------------------
// fixtures
// -------------------------------------------------------------------------------------

const PAYMENT_ID = '3f1c2b9a-6d4e-4f8a-9b2c-1d2e3f4a5b6c'
const AT = '2026-11-21T10:00:00.000Z'
const FEE_ACCOUNT = 'aaaaaaaa-0000-4000-8000-000000000000'
const account = (splitID: number): string =>
  `bbbbbbbb-0000-4000-8000-${String(splitID).padStart(12, '0')}`

interface SplitSpec {
  readonly splitID: number
  readonly amount: number
  readonly isFee?: boolean
  readonly description?: string
  readonly externalID?: string
}

const makeSplit = (s: SplitSpec): MoneySplit => ({
  splitID: s.splitID,
  paymentReferenceID: PAYMENT_ID,
  connectedAccountID: s.isFee === true ? FEE_ACCOUNT : account(s.splitID),
  amount: s.amount,
  ...(s.description === undefined ? {} : { description: s.description }),
  insertTime: AT,
  ...(s.externalID === undefined ? {} : { externalID: s.externalID }),
  isFee: s.isFee === true
})

/** A Charged card payment with these splits (splitIDs 1..n unless given). */
const makePayment = (splits: ReadonlyArray<number | SplitSpec>): Payment => {
  const moneySplits = splits.map((s, i) =>
    makeSplit(typeof s === 'number' ? { splitID: i + 1, amount: s } : s)
  )
  return chargedCardWith(PAYMENT_ID, AT, moneySplits)
}

const update = (splitID: number, newAmount: number): PatchEntry => ({
  splitID,
  updateType: 'UpdateAmount',
  newAmount
})
const del = (splitID: number, doDelete = true): PatchEntry => ({
  splitID,
  updateType: 'DoDeleteSplitEntry',
  doDelete
})
const keep = (splitID: number): PatchEntry => ({ splitID, updateType: 'DoNothing' })
const patchOf = (newGrossAmount: number, ...entries: PatchEntry[]): MoneySplitPatch => ({
  moneySplitPatch: entries,
  newGrossAmount
})

const right = <A>(e: E.Either<PaymentError, A>): A => {
  if (E.isLeft(e)) throw new Error(`expected Right, got ${JSON.stringify(e.left)}`)
  return e.right
}
const left = <A>(e: E.Either<PaymentError, A>): PaymentError => {
  if (E.isRight(e)) throw new Error(`expected Left, got ${JSON.stringify(e.right)}`)
  return e.left
}
const amounts = (o: PatchOutcome): Array<[number, number]> =>
  o.splitList.map((s) => [s.splitID, s.amount])

const deepFreeze = <T>(v: T): T => {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v)
    for (const x of Object.values(v)) deepFreeze(x)
  }
  return v
}

// 1: 500, 2: 300, 3: 200 (gross 1000)
const p3 = deepFreeze(makePayment([500, 300, 200]))

// -------------------------------------------------------------------------------------
// C4 rules
// -------------------------------------------------------------------------------------

describe('applyPatch: C4 rules', () => {
  it('moneySplitPatch has exactly one entry per current split: a missing splitID → PatchSplitMismatch', () => {
    const e = left(applyPatch(p3, patchOf(1000, keep(1), keep(3))))
    expect(e.code).toBe('PatchSplitMismatch')
    expect(e.missing).toEqual([2])
    expect(e.unknown).toEqual([])
    expect(e.repeated).toEqual([])
    expect(e.message).toContain('1 missing')
  })

  it('moneySplitPatch has exactly one entry per current split: an unknown splitID → PatchSplitMismatch', () => {
    const e = left(applyPatch(p3, patchOf(1000, keep(1), keep(2), keep(3), keep(7))))
    expect(e).toMatchObject({ code: 'PatchSplitMismatch', missing: [], unknown: [7], repeated: [] })
    expect(e.message).toContain('1 unknown')
  })

  it('moneySplitPatch has exactly one entry per current split: a repeated splitID → PatchSplitMismatch', () => {
    // same length as the splits, but 2 twice and 3 never
    const e = left(applyPatch(p3, patchOf(1000, keep(1), keep(2), update(2, 100))))
    expect(e).toMatchObject({ code: 'PatchSplitMismatch', missing: [3], unknown: [], repeated: [2] })
    expect(e.message).toContain('1 missing, 1 repeated')
  })

  it('PatchSplitMismatch lists missing, unknown and repeated splitIDs, each once, ascending', () => {
    const payment = makePayment([10, 20, 30, 40, 50, 60])
    const e = left(
      applyPatch(
        payment,
        patchOf(
          0,
          keep(9),
          keep(5),
          keep(5),
          keep(1),
          keep(12),
          keep(5),
          keep(9),
          keep(1),
          keep(8),
          keep(3)
        )
      )
    )
    expect(e.code).toBe('PatchSplitMismatch')
    expect(e.missing).toEqual([2, 4, 6])
    expect(e.unknown).toEqual([8, 9, 12])
    // a splitID named more than once is repeated, whether a split has it or not
    expect(e.repeated).toEqual([1, 5, 9])
  })

  it('An empty patch on a payment with splits is a mismatch (every split missing)', () => {
    const e = left(applyPatch(p3, patchOf(1000)))
    expect(e).toMatchObject({ code: 'PatchSplitMismatch', missing: [1, 2, 3], unknown: [], repeated: [] })
  })

  it("UpdateAmount more than the split's current amount → SplitAmountIncrease", () => {
    const e = left(applyPatch(p3, patchOf(1001, keep(1), update(2, 301), keep(3))))
    expect(e.code).toBe('SplitAmountIncrease')
    // the message quotes nothing from the input: no splitID, no amount (docs/rules.md C3)
    expect(e.message).not.toMatch(/\d/)
  })

  it('SplitAmountIncrease when splits are raised, whatever their order', () => {
    const e = left(applyPatch(p3, patchOf(0, update(3, 900), update(2, 900), keep(1))))
    expect(e.code).toBe('SplitAmountIncrease')
    expect(e.message).toBe('The patch asks a split for more than it holds; a patch can only lower a split.')
  })

  it('A split updated to 0 stays, with amount 0', () => {
    const o = right(applyPatch(p3, patchOf(700, keep(1), update(2, 0), keep(3))))
    expect(amounts(o)).toEqual([
      [1, 500],
      [2, 0],
      [3, 200]
    ])
    expect(o.changes).toEqual([{ split: p3.moneySplits[1], removedAmount: 300, deleted: false }])
    expect(o.removedAmount).toBe(300)
  })

  it('DoDeleteSplitEntry with doDelete true removes the split and its whole amount', () => {
    const o = right(applyPatch(p3, patchOf(500, keep(1), del(2), del(3))))
    expect(amounts(o)).toEqual([[1, 500]])
    expect(o.changes).toEqual([
      { split: p3.moneySplits[1], removedAmount: 300, deleted: true },
      { split: p3.moneySplits[2], removedAmount: 200, deleted: true }
    ])
    expect(o.removedAmount).toBe(500)
    expect(o.newGrossAmount).toBe(500)
  })

  it('Deleting a zero split is still a change', () => {
    const payment = makePayment([500, 0])
    const o = right(applyPatch(payment, patchOf(500, keep(1), del(2))))
    expect(amounts(o)).toEqual([[1, 500]])
    expect(o.changes).toEqual([{ split: payment.moneySplits[1], removedAmount: 0, deleted: true }])
    expect(o.removedAmount).toBe(0)
    expect(toRefundedSplits(o)).toEqual([
      { refundAmount: 0, connectedAccountID: account(2), isFee: false }
    ])
  })

  it('DoDeleteSplitEntry with doDelete false leaves the split unchanged', () => {
    const o = right(applyPatch(p3, patchOf(800, del(1, false), keep(2), update(3, 0))))
    expect(amounts(o)).toEqual([
      [1, 500],
      [2, 300],
      [3, 0]
    ])
    expect(o.splitList[0]).toBe(p3.moneySplits[0])
    expect(o.changes.map((c) => c.split.splitID)).toEqual([3])
  })

  it('A DoNothing split keeps its amount (I2.5)', () => {
    const o = right(applyPatch(p3, patchOf(900, keep(1), update(2, 200), keep(3))))
    expect(o.splitList[0]).toBe(p3.moneySplits[0])
    expect(o.splitList[2]).toBe(p3.moneySplits[2])
    expect(amounts(o)).toEqual([
      [1, 500],
      [2, 200],
      [3, 200]
    ])
  })

  it('A deleted split reduces the total by its amount (I2.5)', () => {
    const o = right(applyPatch(p3, patchOf(700, keep(1), del(2), keep(3))))
    expect(o.newGrossAmount).toBe(p3.grossAmount - 300)
    expect(o.removedAmount).toBe(300)
    expect(o.splitList.reduce((s, x) => s + x.amount, 0)).toBe(700)
  })

  it('newGrossAmount ≠ Σ amounts after the patch → GrossAmountMismatch', () => {
    const e = left(applyPatch(p3, patchOf(750, keep(1), del(2), keep(3))))
    expect(e.code).toBe('GrossAmountMismatch')
    expect(e.issues).toEqual([
      {
        path: 'newGrossAmount',
        code: 'GrossAmountMismatch',
        reason: 'sum_mismatch',
        message: 'Must be the sum of the split amounts.'
      }
    ])
  })

  it('A patch that changes nothing → NothingToChange', () => {
    for (const patch of [
      patchOf(1000, keep(1), keep(2), keep(3)),
      patchOf(1000, update(1, 500), del(2, false), keep(3)),
      patchOf(1000, update(3, 200), update(1, 500), update(2, 300))
    ]) {
      expect(left(applyPatch(p3, patch)).code).toBe('NothingToChange')
    }
  })

  it('A patch on a payment without splits: only the empty patch fits, and it changes nothing', () => {
    const empty = makePayment([])
    expect(left(applyPatch(empty, patchOf(0))).code).toBe('NothingToChange')
    expect(left(applyPatch(empty, patchOf(0, keep(1)))).unknown).toEqual([1])
  })

  it('Each of these is checked in the order listed', () => {
    // mismatch before increase, gross and nothing-to-change
    expect(left(applyPatch(p3, patchOf(5, update(1, 9999), keep(2)))).code).toBe('PatchSplitMismatch')
    // increase before gross mismatch
    expect(left(applyPatch(p3, patchOf(5, update(1, 9999), keep(2), keep(3)))).code).toBe(
      'SplitAmountIncrease'
    )
    // increase even when the gross would match
    expect(left(applyPatch(p3, patchOf(1100, update(1, 600), keep(2), keep(3)))).code).toBe(
      'SplitAmountIncrease'
    )
    // gross mismatch before nothing-to-change
    expect(left(applyPatch(p3, patchOf(999, keep(1), keep(2), keep(3)))).code).toBe(
      'GrossAmountMismatch'
    )
  })
})

describe('applyPatch: the outcome', () => {
  it('Partial refund result: splitList = remaining splits with their new amounts; refundedSplit = one entry per reduced or deleted split', () => {
    const payment = deepFreeze(
      makePayment([
        { splitID: 1, amount: 800, description: 'Seller', externalID: 'line-1' },
        { splitID: 2, amount: 150, externalID: 'line-2' },
        { splitID: 3, amount: 50, isFee: true, description: 'Platform fee' }
      ])
    )
    const o = right(applyPatch(payment, patchOf(750, update(1, 600), del(3), keep(2))))
    expect(amounts(o)).toEqual([
      [1, 600],
      [2, 150]
    ])
    expect(o.splitList[0]).toEqual({ ...payment.moneySplits[0], amount: 600 })
    expect(toRefundedSplits(o)).toEqual([
      {
        refundAmount: 200,
        connectedAccountID: account(1),
        description: 'Seller',
        externalID: 'line-1',
        isFee: false
      },
      { refundAmount: 50, connectedAccountID: FEE_ACCOUNT, description: 'Platform fee', isFee: true }
    ])
    expect(toAdjustedSplits(o)).toEqual([
      {
        adjustedAmount: 200,
        connectedAccountID: account(1),
        description: 'Seller',
        externalID: 'line-1',
        isFee: false
      },
      { adjustedAmount: 50, connectedAccountID: FEE_ACCOUNT, description: 'Platform fee', isFee: true }
    ])
    // optional strings only when the split has them
    expect(Object.keys(toRefundedSplits(o)[1] ?? {})).toEqual([
      'refundAmount',
      'connectedAccountID',
      'description',
      'isFee'
    ])
  })

  it('changes and splitList are in splitID order whatever the order of the patch', () => {
    const o = right(applyPatch(p3, patchOf(600, update(3, 100), keep(2), update(1, 200))))
    expect(o.changes.map((c) => [c.split.splitID, c.removedAmount])).toEqual([
      [1, 300],
      [3, 100]
    ])
    expect(amounts(o)).toEqual([
      [1, 200],
      [2, 300],
      [3, 100]
    ])
  })

  it('leaves its inputs untouched and returns fresh objects for the changed splits', () => {
    const patch = deepFreeze(patchOf(700, update(1, 200), keep(2), keep(3)))
    const before = JSON.stringify([p3, patch])
    const o = right(applyPatch(p3, patch))
    expect(JSON.stringify([p3, patch])).toBe(before)
    expect(o.splitList[0]).not.toBe(p3.moneySplits[0])
    expect(Object.isFrozen(o.splitList)).toBe(false)
    expect(o.changes[0]?.split).toBe(p3.moneySplits[0])
  })

  it('works with gaps in the splitIDs (splits deleted earlier)', () => {
    const payment = makePayment([
      { splitID: 2, amount: 100 },
      { splitID: 5, amount: 200 },
      { splitID: 9, amount: 300 }
    ])
    const o = right(applyPatch(payment, patchOf(450, keep(9), update(5, 150), del(2))))
    expect(amounts(o)).toEqual([
      [5, 150],
      [9, 300]
    ])
    const e = left(applyPatch(payment, patchOf(600, keep(1), keep(2), keep(5))))
    expect(e).toMatchObject({ missing: [9], unknown: [1], repeated: [] })
  })

  it('works with very sparse splitIDs', () => {
    const payment = makePayment([
      { splitID: 3, amount: 100 },
      { splitID: 2 ** 40, amount: 200 },
      { splitID: Number.MAX_SAFE_INTEGER, amount: 300 }
    ])
    const o = right(
      applyPatch(payment, patchOf(400, keep(3), del(2 ** 40), keep(Number.MAX_SAFE_INTEGER)))
    )
    expect(amounts(o)).toEqual([
      [3, 100],
      [Number.MAX_SAFE_INTEGER, 300]
    ])
    expect(left(applyPatch(payment, patchOf(600, keep(3), keep(4), keep(2 ** 40)))).unknown).toEqual([4])
  })

  it('PatchSplitMismatch lists at most 100 splitIDs each, the lowest; the message counts them', () => {
    const payment = makePayment(Array.from({ length: 150 }, () => 1))
    const e = left(applyPatch(payment, patchOf(0)))
    expect(e.missing).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    expect(e.message).toContain('150 missing')
    expect(e.message.length).toBeLessThan(200)
  })

  it('handles 100k splits (the time per split: bench/patch.bench.ts)', () => {
    const n = 100_000
    const payment = makePayment(Array.from({ length: n }, (_, i) => (i % 7) * 100 + 1))
    const entries = payment.moneySplits.map((s, i) =>
      i % 3 === 0 ? update(s.splitID, 0) : i % 3 === 1 ? del(s.splitID) : keep(s.splitID)
    )
    const expected = payment.moneySplits.reduce((sum, s, i) => sum + (i % 3 === 2 ? s.amount : 0), 0)
    const o = right(applyPatch(payment, { moneySplitPatch: entries, newGrossAmount: expected }))
    expect(o.splitList).toHaveLength(n - Math.ceil((n - 1) / 3))
    expect(o.removedAmount).toBe(payment.grossAmount - expected)
  })
})

// -------------------------------------------------------------------------------------
// builders
// -------------------------------------------------------------------------------------

describe('proportionalPatch', () => {
  it('removes amount in proportion to the splits', () => {
    const patch = right(proportionalPatch(p3, 100))
    expect(patch).toEqual(patchOf(900, update(1, 450), update(2, 270), update(3, 180)))
    expect(right(applyPatch(p3, patch)).removedAmount).toBe(100)
  })

  it('hands out the remainder by largest remainder', () => {
    // 10 over 500/300/200: 5, 3, 2 exactly; 7 over them: 3.5, 2.1, 1.4 → 3, 2, 1 + 1 to split 1
    expect(right(proportionalPatch(p3, 7))).toEqual(
      patchOf(993, update(1, 496), update(2, 298), update(3, 199))
    )
    // 1 over 500/300/200: remainders 0.5, 0.3, 0.2 → split 1
    expect(right(proportionalPatch(p3, 1))).toEqual(patchOf(999, update(1, 499), keep(2), keep(3)))
  })

  it('equal remainders go to the lower splitID', () => {
    const payment = makePayment([100, 100, 100])
    expect(right(proportionalPatch(payment, 2))).toEqual(
      patchOf(298, update(1, 99), update(2, 99), keep(3))
    )
    expect(right(proportionalPatch(payment, 1))).toEqual(patchOf(299, update(1, 99), keep(2), keep(3)))
  })

  it('never takes a split below 0 and leaves zero splits alone', () => {
    const payment = makePayment([1, 0, 2, 0])
    expect(right(proportionalPatch(payment, 3))).toEqual(
      patchOf(0, update(1, 0), keep(2), update(3, 0), keep(4))
    )
  })

  it('leaves fee splits alone with includeFees: false', () => {
    const payment = makePayment([
      { splitID: 1, amount: 600 },
      { splitID: 2, amount: 100, isFee: true },
      { splitID: 3, amount: 300 }
    ])
    expect(right(proportionalPatch(payment, 90, { includeFees: false }))).toEqual(
      patchOf(910, update(1, 540), keep(2), update(3, 270))
    )
    expect(right(proportionalPatch(payment, 100, { includeFees: true }))).toEqual(
      patchOf(900, update(1, 540), update(2, 90), update(3, 270))
    )
  })

  it('amount must be a safe integer from 1 to the total of the splits it may touch', () => {
    const payment = makePayment([
      { splitID: 1, amount: 600 },
      { splitID: 2, amount: 100, isFee: true }
    ])
    for (const [amount, options] of [
      [0, undefined],
      [-1, undefined],
      [701, undefined],
      [601, { includeFees: false }],
      [1.5, undefined],
      [Number.NaN, undefined],
      [Number.POSITIVE_INFINITY, undefined],
      ['5' as unknown as number, undefined]
    ] as const) {
      const e = left(proportionalPatch(payment, amount, options))
      expect(e.code).toBe('ValidationFailed')
      expect(e.issues?.[0]?.path).toBe('amount')
    }
    expect(right(proportionalPatch(payment, 700)).newGrossAmount).toBe(0)
    expect(right(proportionalPatch(payment, 600, { includeFees: false })).newGrossAmount).toBe(100)
    // nothing to take from
    expect(left(proportionalPatch(makePayment([0, 0]), 1)).code).toBe('ValidationFailed')
    expect(
      left(proportionalPatch(makePayment([{ splitID: 1, amount: 5, isFee: true }]), 1, { includeFees: false }))
        .code
    ).toBe('ValidationFailed')
  })

  it('includeFees must be a boolean when given', () => {
    const e = left(proportionalPatch(p3, 1, { includeFees: 'no' as unknown as boolean }))
    expect(e.code).toBe('ValidationFailed')
    expect(e.issues?.[0]?.path).toBe('includeFees')
  })

  it('stays exact where amount × split passes 2^53', () => {
    const big = 2 ** 52
    const payment = makePayment([big, big / 2 + 1, 3])
    const total = big + big / 2 + 4
    const amount = total - 7
    const patch = right(proportionalPatch(payment, amount))
    const o = right(applyPatch(payment, patch))
    expect(o.removedAmount).toBe(amount)
    // exact shares: BigInt reference
    const shares = payment.moneySplits.map((s) => (BigInt(amount) * BigInt(s.amount)) / BigInt(total))
    o.changes.forEach((c, i) => {
      const floor = Number(shares[i])
      expect(c.removedAmount === floor || c.removedAmount === floor + 1).toBe(true)
    })
  })
})

describe('deleteSplitsPatch', () => {
  it('deletes the listed splits and keeps the others', () => {
    const patch = right(deleteSplitsPatch(p3, [3, 1]))
    expect(patch).toEqual(patchOf(300, del(1), keep(2), del(3)))
    expect(right(applyPatch(p3, patch)).removedAmount).toBe(700)
  })

  it('unknown splitIDs → PatchSplitMismatch', () => {
    expect(left(deleteSplitsPatch(p3, [4, 1, 9, 4]))).toMatchObject({
      code: 'PatchSplitMismatch',
      missing: [],
      unknown: [4, 9],
      repeated: [4]
    })
  })

  it('repeated splitIDs → PatchSplitMismatch', () => {
    expect(left(deleteSplitsPatch(p3, [2, 2]))).toMatchObject({
      code: 'PatchSplitMismatch',
      missing: [],
      unknown: [],
      repeated: [2]
    })
  })

  it('an empty list → NothingToChange', () => {
    expect(left(deleteSplitsPatch(p3, [])).code).toBe('NothingToChange')
  })

  it('a splitID that is not a positive safe integer → ValidationFailed', () => {
    const e = left(deleteSplitsPatch(p3, [1, 0, 2.5, '3' as unknown as number]))
    expect(e.code).toBe('ValidationFailed')
    expect(e.issues?.map((i) => i.path)).toEqual(['splitIDs.1', 'splitIDs.2', 'splitIDs.3'])
    expect(left(deleteSplitsPatch(p3, 'all' as unknown as number[])).code).toBe('ValidationFailed')
  })

  it('deleting a zero split gives a patch that passes', () => {
    const payment = makePayment([5, 0])
    const patch = right(deleteSplitsPatch(payment, [2]))
    expect(right(applyPatch(payment, patch)).changes).toHaveLength(1)
  })
})

describe('setAmountsPatch', () => {
  it('sets the listed splits and keeps the others', () => {
    const patch = right(
      setAmountsPatch(p3, [
        { splitID: 3, amount: 0 },
        { splitID: 1, amount: 450 }
      ])
    )
    expect(patch).toEqual(patchOf(750, update(1, 450), keep(2), update(3, 0)))
    expect(amounts(right(applyPatch(p3, patch)))).toEqual([
      [1, 450],
      [2, 300],
      [3, 0]
    ])
  })

  it('unknown and repeated splitIDs → PatchSplitMismatch', () => {
    expect(
      left(
        setAmountsPatch(p3, [
          { splitID: 5, amount: 1 },
          { splitID: 1, amount: 1 },
          { splitID: 1, amount: 2 }
        ])
      )
    ).toMatchObject({ code: 'PatchSplitMismatch', missing: [], unknown: [5], repeated: [1] })
  })

  it('an amount that is not a safe integer ≥ 0 → ValidationFailed', () => {
    const e = left(
      setAmountsPatch(p3, [
        { splitID: 1, amount: -1 },
        { splitID: 2, amount: 0.5 },
        { splitID: 0, amount: 1 },
        null as unknown as { splitID: number; amount: number }
      ])
    )
    expect(e.code).toBe('ValidationFailed')
    expect(e.issues?.map((i) => i.path)).toEqual([
      'amounts.0.amount',
      'amounts.1.amount',
      'amounts.2.splitID',
      'amounts.3'
    ])
  })

  it('raising a split → SplitAmountIncrease', () => {
    const e = left(setAmountsPatch(p3, [{ splitID: 2, amount: 301 }]))
    expect(e.code).toBe('SplitAmountIncrease')
    expect(e.message).not.toContain('301')
  })

  it('no change at all → NothingToChange', () => {
    expect(left(setAmountsPatch(p3, [])).code).toBe('NothingToChange')
    expect(left(setAmountsPatch(p3, [{ splitID: 2, amount: 300 }])).code).toBe('NothingToChange')
  })

  it('validation comes before mismatch, mismatch before increase', () => {
    expect(
      left(
        setAmountsPatch(p3, [
          { splitID: 9, amount: 1 },
          { splitID: 1, amount: -1 }
        ])
      ).code
    ).toBe('ValidationFailed')
    expect(
      left(
        setAmountsPatch(p3, [
          { splitID: 9, amount: 1 },
          { splitID: 1, amount: 9999 }
        ])
      ).code
    ).toBe('PatchSplitMismatch')
  })
})

describe('hostile input', () => {
  it('never throws on objects with throwing getters', () => {
    const hostile = new Proxy([{ splitID: 1, amount: 1 }], {
      get(target, key, receiver) {
        if (key === '0') throw new Error('boom')
        return Reflect.get(target, key, receiver) as unknown
      }
    })
    expect(left(setAmountsPatch(p3, hostile)).code).toBe('ValidationFailed')
    const hostileOptions = Object.defineProperty({}, 'includeFees', {
      get() {
        throw new Error('boom')
      }
    }) as { includeFees?: boolean }
    expect(left(proportionalPatch(p3, 1, hostileOptions)).code).toBe('ValidationFailed')
    const hostilePatch = Object.defineProperty({ newGrossAmount: 0 }, 'moneySplitPatch', {
      get() {
        throw new Error('boom')
      }
    }) as MoneySplitPatch
    expect(left(applyPatch(p3, hostilePatch)).code).toBe('ValidationFailed')
  })
})
