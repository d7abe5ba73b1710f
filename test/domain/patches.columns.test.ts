/**
 * The decider reads a split patch into columns (`decodePatchColumns`) and applies it with
 * `applyColumns`, the core `applyPatch` also runs on: for large payments (typed-array columns,
 * entries matched by position when the patch lists the splits in order) the outcome must be
 * exactly what `applyPatch` gives for the decoded patch, whatever the order of the entries, and
 * every state and event `transition` returns must stay deep-frozen.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeMoneySplitPatch } from '../../src/codecs.js'
import { replay, transition } from '../../src/decider.js'
import type { Payment } from '../../src/payment.js'
import { applyColumns, applyPatch, toRefundedSplits } from '../../src/patches.js'
import { decodePatchColumns } from '../../src/patchColumns.js'
import type { MoneySplitPatch, PatchEntry, PaymentIntentRequest } from '../../src/codecs/requests.js'
import { charge, ids, paymentArb } from '../support/fixtures.js'

const AT = '2026-11-21T10:00:00.000Z'
const LATER = '2026-11-21T10:05:00.000Z'

/** A trusted Charged card payment with `n` splits of 100 each (built by replay, admitted by a first refund). */
const chargedWithSplits = (n: number): Payment => {
  const request = {
    externalPaymentReferenceID: 'order-1',
    environment: 'test',
    paymentGateway: 'creditcard',
    chargeImmediately: true,
    sellerConnectedAccountID: ids.seller,
    grossAmount: 100 * n,
    currency: 'NOK',
    moneySplitList: Array.from({ length: n }, (_, i) => ({
      connectedAccountID: i === n - 1 ? ids.platform : ids.partner,
      amount: 100,
      isFee: i === n - 1,
      ...(i % 3 === 0 ? { description: `line ${String(i)}` } : {}),
      ...(i % 5 === 0 ? { externalID: `x-${String(i)}` } : {})
    })),
    customerExternalID: 'c-1',
    webhookSubscriptions: [],
    successUrl: 'https://shop.example/ok',
    failedUrl: 'https://shop.example/failed',
    metaData: {}
  } as PaymentIntentRequest
  const replayed = replay([
    { type: 'PaymentCreated', at: AT, paymentReferenceID: ids.cardPayment, request },
    { type: 'PaymentCharged', at: AT, paymentReferenceID: ids.cardPayment, chargedAmount: 100 * n, excessRefundedAmount: 0 }
  ])
  const first = transition(replayed, {
    type: 'RefundPartially',
    at: AT,
    patch: {
      moneySplitPatch: Array.from({ length: n }, (_, i): PatchEntry =>
        i === 0 ? { splitID: 1, updateType: 'UpdateAmount', newAmount: 99 } : { splitID: i + 1, updateType: 'DoNothing' }
      ),
      newGrossAmount: 100 * n - 1
    }
  })
  if (E.isLeft(first)) throw new Error(first.left.message)
  return first.right[0] as Payment
}

/** A patch touching every kind of entry: lowered, zeroed, deleted, kept by doDelete false, untouched. */
const mixedPatch = (p: Payment): MoneySplitPatch => {
  let gross = 0
  const moneySplitPatch = p.moneySplits.map((s, i): PatchEntry => {
    switch (i % 7) {
      case 0:
        gross += s.amount - 10
        return { splitID: s.splitID, updateType: 'UpdateAmount', newAmount: s.amount - 10 }
      case 1:
        return { splitID: s.splitID, updateType: 'UpdateAmount', newAmount: 0 }
      case 2:
        return { splitID: s.splitID, updateType: 'DoDeleteSplitEntry', doDelete: true }
      case 3:
        gross += s.amount
        return { splitID: s.splitID, updateType: 'DoDeleteSplitEntry', doDelete: false }
      default:
        gross += s.amount
        return { splitID: s.splitID, updateType: 'DoNothing' }
    }
  })
  return { moneySplitPatch, newGrossAmount: gross }
}

const isDeepFrozen = (v: unknown, seen = new Set<unknown>()): boolean => {
  if (typeof v !== 'object' || v === null || seen.has(v)) return true
  seen.add(v)
  return Object.isFrozen(v) && Object.values(v).every((x) => isDeepFrozen(x, seen))
}

const decoded = (patch: unknown): MoneySplitPatch => {
  const d = decodeMoneySplitPatch(patch)
  if (E.isLeft(d)) throw new Error(d.left.message)
  return d.right
}

describe('a split patch read into columns', () => {
  const large = chargedWithSplits(1_000)

  it('gives the outcome applyPatch gives, in order, shuffled and reversed (1 000 splits, typed columns)', () => {
    const patch = mixedPatch(large)
    const expected = applyPatch(large, decoded(patch))
    expect(E.isRight(expected)).toBe(true)
    const reversed = { ...patch, moneySplitPatch: [...patch.moneySplitPatch].reverse() }
    const rotated = { ...patch, moneySplitPatch: [...patch.moneySplitPatch.slice(400), ...patch.moneySplitPatch.slice(0, 400)] }
    for (const p of [patch, reversed, rotated]) {
      const columns = decodePatchColumns(p)
      expect(columns.issues).toStrictEqual([])
      if (columns.patch === undefined) throw new Error('no columns')
      expect(columns.patch.splitIDs).toBeInstanceOf(Float64Array)
      expect(applyColumns(large, columns.patch)).toStrictEqual(expected)
      expect(applyPatch(large, decoded(p))).toStrictEqual(expected)
    }
  })

  it('makes the events and state transition gave before columns (1 000 splits), the state deep-frozen', () => {
    const patch = mixedPatch(large)
    const outcome = applyPatch(large, decoded(patch))
    if (E.isLeft(outcome)) throw new Error(outcome.left.message)
    const r = transition(large, { type: 'RefundPartially', at: LATER, patch })
    if (E.isLeft(r)) throw new Error(r.left.message)
    const [after, events] = r.right
    expect(events[0]).toStrictEqual({
      type: 'PaymentPartiallyRefunded',
      at: LATER,
      paymentReferenceID: ids.cardPayment,
      newGrossAmount: outcome.right.newGrossAmount,
      refundAmount: outcome.right.removedAmount,
      splitList: outcome.right.splitList,
      refundedSplit: toRefundedSplits(outcome.right)
    })
    expect((after as Payment).moneySplits).toStrictEqual(outcome.right.splitList)
    expect(isDeepFrozen(after)).toBe(true)
    // the splits the patch left alone are the payment's own (frozen) objects, not copies
    const kept = (after as Payment).moneySplits.find((s) => s.splitID === 5)
    expect(kept).toBe(large.moneySplits.find((s) => s.splitID === 5))
  })

  it('still puts a splitID mismatch first when the patch breaks its order after a raised split', () => {
    const p = chargedWithSplits(300)
    const entries = p.moneySplits.map((s): PatchEntry => ({ splitID: s.splitID, updateType: 'DoNothing' }))
    entries[0] = { splitID: p.moneySplits[0]?.splitID ?? 1, updateType: 'UpdateAmount', newAmount: 10_000 }
    const last = p.moneySplits.length - 1
    for (const broken of [
      { splitID: 9_999, updateType: 'DoNothing' as const }, // unknown
      { splitID: p.moneySplits[1]?.splitID ?? 2, updateType: 'DoNothing' as const } // repeated, the last one missing
    ]) {
      const patch = { moneySplitPatch: entries.map((e, i) => (i === last ? broken : e)), newGrossAmount: 0 }
      const viaColumns = decodePatchColumns(patch).patch
      if (viaColumns === undefined) throw new Error('valid shape')
      const r = applyColumns(p, viaColumns)
      expect(E.isLeft(r) && r.left.code).toBe('PatchSplitMismatch')
      expect(r).toStrictEqual(applyPatch(p, decoded(patch)))
    }
    const raised = applyColumns(p, decodePatchColumns({ moneySplitPatch: entries, newGrossAmount: 0 }).patch ?? { splitIDs: [], kinds: [], newAmounts: [], newGrossAmount: 0 })
    expect(E.isLeft(raised) && raised.left.code).toBe('SplitAmountIncrease')
  })

  it('grows past its first size, and stops at the first hole of an array that claims a huge length', () => {
    const n = (1 << 16) + 5
    const entries = Array.from({ length: n }, (_, i): PatchEntry => ({ splitID: i + 1, updateType: 'DoNothing' }))
    const r = decodePatchColumns({ moneySplitPatch: entries, newGrossAmount: 0 })
    expect(r.patch?.splitIDs.length).toBe(n)
    expect(r.patch?.splitIDs[n - 1]).toBe(n)
    const sparse: unknown[] = [{ splitID: 1, updateType: 'DoNothing' }]
    sparse.length = 2 ** 32 - 1
    const holey = decodePatchColumns({ moneySplitPatch: sparse, newGrossAmount: 0 })
    expect(holey.issues.map((i) => i.path)).toStrictEqual(['moneySplitPatch.1'])
    expect(holey.patch).toBeUndefined()
  })

  it('reports the same issues as decodeMoneySplitPatch for any input', () => {
    fc.assert(
      fc.property(fc.anything(), fc.array(fc.anything(), { maxLength: 5 }), (u, entries) => {
        for (const input of [u, { moneySplitPatch: entries, newGrossAmount: u }]) {
          const d = decodeMoneySplitPatch(input)
          const c = decodePatchColumns(input)
          expect(c.issues).toStrictEqual(E.isLeft(d) ? d.left.issues : [])
          expect(c.patch === undefined).toBe(E.isLeft(d))
        }
      })
    )
  })

  it('applyColumns agrees with applyPatch on any payment and patch (small, plain columns)', () => {
    fc.assert(
      fc.property(paymentArb, fc.array(fc.tuple(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 3 }), fc.nat(20000))), (p, picks) => {
        const payment = p.status === 'Initiated' && p.kind === 'card' ? charge(p) : p
        const entries = picks.map(([i, kind, amount]): PatchEntry => {
          const splitID = payment.moneySplits[i]?.splitID ?? i + 100
          return kind === 0
            ? { splitID, updateType: 'UpdateAmount', newAmount: amount }
            : kind === 1
              ? { splitID, updateType: 'DoDeleteSplitEntry', doDelete: amount % 2 === 0 }
              : { splitID, updateType: 'DoNothing' }
        })
        const patch = { moneySplitPatch: entries, newGrossAmount: picks.length === 0 ? 0 : (picks[0]?.[2] ?? 0) }
        const c = decodePatchColumns(patch)
        if (c.patch === undefined) throw new Error('the patch has a valid shape')
        expect(applyColumns(payment, c.patch)).toStrictEqual(applyPatch(payment, decoded(patch)))
      })
    )
  })

})
