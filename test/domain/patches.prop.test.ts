import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { ErrorCode, PaymentError } from '../../src/errors.js'
import type { MoneySplit, Payment } from '../../src/payment.js'
import { applyPatch, toAdjustedSplits, toRefundedSplits, type PatchOutcome } from '../../src/patches.js'
import { deleteSplitsPatch, proportionalPatch, setAmountsPatch } from '../../src/patchBuilders.js'
import type { MoneySplitPatch, PatchEntry } from '../../src/codecs/requests.js'
import { chargedCardWith } from '../support/fixtures.js'

// -------------------------------------------------------------------------------------
// arbitraries
// -------------------------------------------------------------------------------------

const PAYMENT_ID = '3f1c2b9a-6d4e-4f8a-9b2c-1d2e3f4a5b6c'
const AT = '2026-11-21T10:00:00.000Z'
const FEE_ACCOUNT = 'aaaaaaaa-0000-4000-8000-000000000000'

interface SplitSeed {
  readonly gap: number
  readonly amount: number
  readonly isFee: boolean
  readonly description: string | undefined
  readonly externalID: string | undefined
}

/** A valid Charged payment from split seeds: splitIDs ascending from 1 with the seeds' gaps. */
const paymentOf = (seeds: ReadonlyArray<SplitSeed>): Payment => {
  let id = 0
  const moneySplits: MoneySplit[] = seeds.map((s) => {
    id += 1 + s.gap
    return {
      splitID: id,
      paymentReferenceID: PAYMENT_ID,
      connectedAccountID: s.isFee
        ? FEE_ACCOUNT
        : `bbbbbbbb-0000-4000-8000-${String(id).padStart(12, '0')}`,
      amount: s.amount,
      ...(s.description === undefined ? {} : { description: s.description }),
      insertTime: AT,
      ...(s.externalID === undefined ? {} : { externalID: s.externalID }),
      isFee: s.isFee
    }
  })
  return chargedCardWith(PAYMENT_ID, AT, moneySplits)
}

/** Split amounts: mostly small, some zero, some huge (their sum stays a safe integer for ≤ 30). */
const amountArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 10_000 }) },
  { weight: 2, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: Math.floor(Number.MAX_SAFE_INTEGER / 32) }) }
)

const splitSeedArb: fc.Arbitrary<SplitSeed> = fc.record({
  gap: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 5 }) }),
  amount: amountArb,
  isFee: fc.boolean(),
  description: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
  externalID: fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: undefined })
})

const paymentArb: fc.Arbitrary<Payment> = fc
  .array(splitSeedArb, { minLength: 1, maxLength: 30 })
  .map(paymentOf)

/** A patch entry for `splitID` whose shape is valid; newAmount near or below the split's amount. */
const entryArb = (splitID: number, current: number): fc.Arbitrary<PatchEntry> =>
  fc.oneof(
    fc.record({
      splitID: fc.constant(splitID),
      updateType: fc.constant('UpdateAmount' as const),
      newAmount: fc.oneof(
        fc.integer({ min: 0, max: current }),
        fc.constant(current),
        fc.integer({ min: 0, max: current + 3 })
      )
    }),
    fc.record({
      splitID: fc.constant(splitID),
      updateType: fc.constant('DoDeleteSplitEntry' as const),
      doDelete: fc.boolean()
    }),
    fc.record({ splitID: fc.constant(splitID), updateType: fc.constant('DoNothing' as const) })
  )

/** A payment with a shape-valid patch: usually one entry per split, sometimes not. */
const paymentAndPatchArb: fc.Arbitrary<readonly [Payment, MoneySplitPatch]> = paymentArb.chain(
  (payment) => {
    const ids = payment.moneySplits.map((s) => s.splitID)
    const maxID = ids[ids.length - 1] ?? 0
    const amountOf = new Map(payment.moneySplits.map((s) => [s.splitID, s.amount]))
    const exactIDs = fc.shuffledSubarray(ids, { minLength: ids.length, maxLength: ids.length })
    const looseIDs = fc.array(
      fc.oneof(fc.constantFrom(...ids), fc.integer({ min: 1, max: maxID + 3 })),
      { maxLength: ids.length + 2 }
    )
    return fc
      .oneof({ weight: 4, arbitrary: exactIDs }, { weight: 1, arbitrary: looseIDs })
      .chain((patchIDs) =>
        fc.tuple(...patchIDs.map((id) => entryArb(id, amountOf.get(id) ?? 5))).chain((entries) => {
          const sumAfter = expectedSum(payment, entries)
          return fc
            .oneof(
              { weight: 3, arbitrary: fc.constant(sumAfter) },
              { weight: 1, arbitrary: fc.nat({ max: payment.grossAmount + 5 }) }
            )
            .map((newGrossAmount) => [payment, { moneySplitPatch: entries, newGrossAmount }] as const)
        })
      )
  }
)

// -------------------------------------------------------------------------------------
// a reference model of C4, written plainly
// -------------------------------------------------------------------------------------

const expectedSum = (payment: Payment, entries: ReadonlyArray<PatchEntry>): number => {
  let sum = 0
  for (const s of payment.moneySplits) {
    const e = entries.find((x) => x.splitID === s.splitID)
    if (e === undefined || e.updateType === 'DoNothing') sum += s.amount
    else if (e.updateType === 'UpdateAmount') sum += e.newAmount
    else if (!e.doDelete) sum += s.amount
  }
  return sum
}

type ModelResult =
  | { readonly code: 'PatchSplitMismatch'; readonly missing: number[]; readonly unknown: number[]; readonly repeated: number[] }
  | { readonly code: Exclude<ErrorCode, 'PatchSplitMismatch'> }
  | { readonly code: 'ok'; readonly amounts: Array<[number, number]>; readonly removed: number }

const model = (payment: Payment, patch: MoneySplitPatch): ModelResult => {
  const ids = new Set(payment.moneySplits.map((s) => s.splitID))
  const counts = new Map<number, number>()
  for (const e of patch.moneySplitPatch) counts.set(e.splitID, (counts.get(e.splitID) ?? 0) + 1)
  const byNumber = (a: number, b: number): number => a - b
  const missing = [...ids].filter((id) => !counts.has(id)).sort(byNumber)
  const unknown = [...counts.keys()].filter((id) => !ids.has(id)).sort(byNumber)
  const repeated = [...counts.entries()].filter(([, c]) => c > 1).map(([id]) => id).sort(byNumber)
  if (missing.length + unknown.length + repeated.length > 0) {
    return { code: 'PatchSplitMismatch', missing, unknown, repeated }
  }
  const entryOf = (id: number): PatchEntry =>
    patch.moneySplitPatch.find((e) => e.splitID === id) as PatchEntry
  for (const s of payment.moneySplits) {
    const e = entryOf(s.splitID)
    if (e.updateType === 'UpdateAmount' && e.newAmount > s.amount) return { code: 'SplitAmountIncrease' }
  }
  if (expectedSum(payment, patch.moneySplitPatch) !== patch.newGrossAmount) {
    return { code: 'GrossAmountMismatch' }
  }
  const amounts: Array<[number, number]> = []
  let removed = 0
  let changed = false
  for (const s of payment.moneySplits) {
    const e = entryOf(s.splitID)
    if (e.updateType === 'DoDeleteSplitEntry' && e.doDelete) {
      removed += s.amount
      changed = true
    } else if (e.updateType === 'UpdateAmount') {
      amounts.push([s.splitID, e.newAmount])
      removed += s.amount - e.newAmount
      if (e.newAmount !== s.amount) changed = true
    } else amounts.push([s.splitID, s.amount])
  }
  return changed ? { code: 'ok', amounts, removed } : { code: 'NothingToChange' }
}

// -------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------

const deepFreeze = <T>(v: T): T => {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v)
    for (const x of Object.values(v)) deepFreeze(x)
  }
  return v
}

const sum = (xs: ReadonlyArray<number>): number => xs.reduce((a, b) => a + b, 0)

const applies = (payment: Payment, patch: E.Either<PaymentError, MoneySplitPatch>): PatchOutcome => {
  if (E.isLeft(patch)) throw new Error(`builder failed: ${JSON.stringify(patch.left)}`)
  const outcome = applyPatch(payment, patch.right)
  if (E.isLeft(outcome)) throw new Error(`patch did not apply: ${JSON.stringify(outcome.left)}`)
  return outcome.right
}

const checkOutcome = (payment: Payment, o: PatchOutcome): void => {
  expect(sum(o.splitList.map((s) => s.amount))).toBe(o.newGrossAmount)
  expect(o.removedAmount).toBe(payment.grossAmount - o.newGrossAmount)
  expect(sum(o.changes.map((c) => c.removedAmount))).toBe(o.removedAmount)
  const before = new Map(payment.moneySplits.map((s) => [s.splitID, s]))
  let last = 0
  for (const s of o.splitList) {
    const old = before.get(s.splitID)
    expect(old).toBeDefined()
    expect(s.amount).toBeLessThanOrEqual(old?.amount ?? -1)
    expect(s.splitID).toBeGreaterThan(last)
    last = s.splitID
    // the same record with its new amount, fields in the same order
    expect(JSON.stringify(s)).toBe(JSON.stringify({ ...old, amount: s.amount }))
  }
  expect(toRefundedSplits(o).map((r) => r.refundAmount)).toEqual(o.changes.map((c) => c.removedAmount))
  expect(toAdjustedSplits(o).map((r) => r.adjustedAmount)).toEqual(o.changes.map((c) => c.removedAmount))
}

const touchedTotal = (payment: Payment, includeFees: boolean): number =>
  sum(payment.moneySplits.filter((s) => includeFees || !s.isFee).map((s) => s.amount))

// -------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------

describe('applyPatch properties', () => {
  it('agrees with a plain model of C4 on every shape-valid patch', () => {
    fc.assert(
      fc.property(paymentAndPatchArb, ([payment, patch]) => {
        const got = applyPatch(payment, patch)
        const want = model(payment, patch)
        if (want.code === 'ok') {
          expect(E.isRight(got)).toBe(true)
          if (E.isRight(got)) {
            expect(got.right.splitList.map((s) => [s.splitID, s.amount])).toEqual(want.amounts)
            expect(got.right.removedAmount).toBe(want.removed)
          }
        } else {
          expect(E.isLeft(got) && got.left.code).toBe(want.code)
          if (want.code === 'PatchSplitMismatch' && E.isLeft(got)) {
            expect(got.left.missing).toEqual(want.missing)
            expect(got.left.unknown).toEqual(want.unknown)
            expect(got.left.repeated).toEqual(want.repeated)
          }
        }
      })
    )
  })

  it('a shape-valid patch fails with one of the four codes, or sums to newGrossAmount and raises no split', () => {
    fc.assert(
      fc.property(paymentAndPatchArb, ([payment, patch]) => {
        const got = applyPatch(payment, patch)
        if (E.isLeft(got)) {
          expect(['PatchSplitMismatch', 'SplitAmountIncrease', 'GrossAmountMismatch', 'NothingToChange']).toContain(
            got.left.code
          )
          expect(got.left.message.length).toBeGreaterThan(0)
        } else {
          expect(got.right.newGrossAmount).toBe(patch.newGrossAmount)
          expect(got.right.changes.length).toBeGreaterThan(0)
          checkOutcome(payment, got.right)
        }
      })
    )
  })

  it('never mutates a deep-frozen payment or patch, and is deterministic', () => {
    fc.assert(
      fc.property(paymentAndPatchArb, ([payment, patch]) => {
        const snapshot = JSON.stringify([payment, patch])
        deepFreeze(payment)
        deepFreeze(patch)
        const first = applyPatch(payment, patch)
        const second = applyPatch(payment, patch)
        expect(JSON.stringify([payment, patch])).toBe(snapshot)
        expect(second).toEqual(first)
      })
    )
  })
})

describe('builder properties', () => {
  it('proportionalPatch: the patch applies and the parts sum exactly to amount, none above its split', () => {
    fc.assert(
      fc.property(
        paymentArb,
        fc.boolean(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (payment, includeFees, fraction) => {
          const total = touchedTotal(payment, includeFees)
          fc.pre(total >= 1)
          const amount = Math.min(total, Math.max(1, Math.floor(total * fraction)))
          const o = applies(payment, proportionalPatch(payment, amount, { includeFees }))
          checkOutcome(payment, o)
          expect(o.removedAmount).toBe(amount)
          for (const c of o.changes) {
            expect(c.deleted).toBe(false)
            expect(c.removedAmount).toBeLessThanOrEqual(c.split.amount)
            if (!includeFees) expect(c.split.isFee).toBe(false)
          }
        }
      )
    )
  })

  it('proportionalPatch: each part is the floor of its exact share or one more, by largest remainder', () => {
    fc.assert(
      fc.property(paymentArb, fc.boolean(), fc.nat(), (payment, includeFees, seed) => {
        const total = touchedTotal(payment, includeFees)
        fc.pre(total >= 1)
        const amount = 1 + (seed % total)
        const patch = proportionalPatch(payment, amount, { includeFees })
        const o = applies(payment, patch)
        const removedOf = new Map(o.changes.map((c) => [c.split.splitID, c.removedAmount]))
        const T = BigInt(total)
        const rows = payment.moneySplits
          .filter((s) => includeFees || !s.isFee)
          .map((s) => {
            const p = BigInt(amount) * BigInt(s.amount)
            return { id: s.splitID, floor: Number(p / T), rem: p % T, got: removedOf.get(s.splitID) ?? 0 }
          })
        for (const r of rows) expect(r.got === r.floor || r.got === r.floor + 1).toBe(true)
        // every split that got the extra unit beats every one that did not: larger remainder, or
        // an equal one and a lower splitID
        const up = rows.filter((r) => r.got === r.floor + 1)
        const down = rows.filter((r) => r.got === r.floor)
        for (const u of up) {
          for (const d of down) {
            expect(u.rem > d.rem || (u.rem === d.rem && u.id < d.id)).toBe(true)
          }
        }
        // deterministic
        expect(proportionalPatch(payment, amount, { includeFees })).toEqual(patch)
      })
    )
  })

  it('proportionalPatch: an amount outside 1 .. the total is ValidationFailed', () => {
    fc.assert(
      fc.property(paymentArb, fc.boolean(), fc.integer({ min: 1, max: 1000 }), (payment, includeFees, over) => {
        const total = touchedTotal(payment, includeFees)
        for (const amount of [0, -over, total + over, 0.5]) {
          const r = proportionalPatch(payment, amount, { includeFees })
          expect(E.isLeft(r) && r.left.code).toBe('ValidationFailed')
        }
      })
    )
  })

  it('deleteSplitsPatch: deleting a non-empty subset applies and removes exactly those splits', () => {
    fc.assert(
      fc.property(
        paymentArb.chain((payment) =>
          fc.tuple(
            fc.constant(payment),
            fc.shuffledSubarray(payment.moneySplits.map((s) => s.splitID), { minLength: 1 })
          )
        ),
        ([payment, ids]) => {
          const o = applies(payment, deleteSplitsPatch(payment, ids))
          checkOutcome(payment, o)
          const gone = new Set(ids)
          expect(o.splitList.map((s) => s.splitID)).toEqual(
            payment.moneySplits.filter((s) => !gone.has(s.splitID)).map((s) => s.splitID)
          )
          expect(o.removedAmount).toBe(sum(payment.moneySplits.filter((s) => gone.has(s.splitID)).map((s) => s.amount)))
          expect(o.changes.every((c) => c.deleted)).toBe(true)
        }
      )
    )
  })

  it('setAmountsPatch: the patch applies when it lowers something, else the rules’ own error', () => {
    fc.assert(
      fc.property(
        paymentArb.chain((payment) =>
          fc.tuple(
            fc.constant(payment),
            fc
              .shuffledSubarray(payment.moneySplits.slice())
              .chain((splits) =>
                fc.tuple(
                  ...splits.map((s) =>
                    fc
                      .oneof(fc.integer({ min: 0, max: s.amount }), fc.constant(s.amount), fc.integer({ min: 0, max: s.amount + 2 }))
                      .map((amount) => ({ splitID: s.splitID, amount }))
                  )
                )
              )
          )
        ),
        ([payment, amounts]) => {
          const r = setAmountsPatch(payment, amounts)
          const current = new Map(payment.moneySplits.map((s) => [s.splitID, s.amount]))
          const raised = amounts.some((a) => a.amount > (current.get(a.splitID) ?? 0))
          const lowered = amounts.some((a) => a.amount < (current.get(a.splitID) ?? 0))
          if (raised) expect(E.isLeft(r) && r.left.code).toBe('SplitAmountIncrease')
          else if (!lowered) expect(E.isLeft(r) && r.left.code).toBe('NothingToChange')
          else {
            const o = applies(payment, r)
            checkOutcome(payment, o)
            const want = new Map(amounts.map((a) => [a.splitID, a.amount]))
            for (const s of o.splitList) expect(s.amount).toBe(want.get(s.splitID) ?? current.get(s.splitID))
            expect(o.splitList).toHaveLength(payment.moneySplits.length)
          }
        }
      )
    )
  })

  it('builders never mutate a deep-frozen payment and are deterministic', () => {
    fc.assert(
      fc.property(paymentArb, fc.nat(), (payment, seed) => {
        const snapshot = JSON.stringify(payment)
        deepFreeze(payment)
        const ids = payment.moneySplits.filter((_, i) => (seed >> i) % 2 === 1).map((s) => s.splitID)
        const amounts = payment.moneySplits.map((s) => ({ splitID: s.splitID, amount: Math.floor(s.amount / 2) }))
        const total = payment.grossAmount
        const runs = (): unknown[] => [
          proportionalPatch(payment, total === 0 ? 1 : 1 + (seed % total)),
          deleteSplitsPatch(payment, ids),
          setAmountsPatch(payment, amounts)
        ]
        expect(runs()).toEqual(runs())
        expect(JSON.stringify(payment)).toBe(snapshot)
      })
    )
  })
})
