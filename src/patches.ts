/**
 * Split-patch arithmetic (docs/rules.md C4, docs/rules.md I2.5): what a money-split patch does to a payment's splits,
 * shared by the partial refund of a `Charged` payment and the adjustment of an `Initiated`
 * invoice. The builders that write a patch for the caller are in `patchBuilders.ts`; the split
 * index, the tally and the list bounds they share with the rules are in `patchColumns.ts`.
 *
 * Everything here is pure and runs in time linear in the number of splits and patch entries. Splits are
 * indexed by `splitID` with typed arrays, not per-entry maps. Inputs are never mutated.
 *
 * @module patches
 */
import * as E from './internal/either.js'
import { own } from './internal/own.js'
import { ARRAY, NUMBER, OBJECT } from './codecs/fields.js'
import { invalid, issue, paymentError, validationError, type PaymentError } from './errors.js'
import {
  DELETE_SPLIT,
  DO_NOTHING,
  KEEP_SPLIT,
  UPDATE_AMOUNT,
  guarded,
  kindOf,
  indexSplits,
  listBound,
  mismatchError,
  decodeSplits,
  tally,
  tooLong,
  type PatchColumns
} from './patchColumns.js'
import type { AdjustedSplit, RefundedSplit } from './events.js'
import type { MoneySplit, Payment } from './payment.js'
import type { MoneySplitPatch, PatchEntry } from './codecs/requests.js'

/**
 * `Object.prototype`: a value found is own for sure when it lacks the key (docs/decisions.md, "Own
 * properties only"). The decider's modules share it.
 *
 * @internal
 */
export const OP: object = Object.prototype


// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One split a patch lowered or deleted. */
export interface SplitChange {
  /** The split as it was before the patch. */
  readonly split: MoneySplit
  /** What the patch took from it: its whole amount when deleted (0 for a deleted zero split). */
  readonly removedAmount: number
  /** True when the patch deleted the split (`DoDeleteSplitEntry` with `doDelete: true`). */
  readonly deleted: boolean
}

/** What a patch that passed every rule of docs/rules.md C4 does to a payment's splits. */
export interface PatchOutcome {
  /** The patch's `newGrossAmount`: Σ `splitList[].amount`. */
  readonly newGrossAmount: number
  /**
   * The splits that remain, in splitID order, with their new amounts: fresh objects for the
   * lowered ones, the payment's own split objects for the ones the patch left alone.
   */
  readonly splitList: ReadonlyArray<MoneySplit>
  /** One entry per lowered or deleted split, in ascending splitID order. */
  readonly changes: ReadonlyArray<SplitChange>
  /** Σ `changes[].removedAmount`: the old gross minus `newGrossAmount`. */
  readonly removedAmount: number
}


export const increaseError = (): PaymentError =>
  paymentError('SplitAmountIncrease', 'The patch asks a split for more than it holds; a patch can only lower a split.')

export const nothingToChange = (): PaymentError =>
  paymentError('NothingToChange', 'The patch changes nothing: every split keeps its amount.')

/**
 * A fresh copy of `split` holding `amount`, with the fields of {@link MoneySplit} in their order
 * (optional strings only when the split has them), written out rather than spread (docs/performance.md, "Why the code looks like this").
 *
 * @internal
 */
export const withAmount = (s: MoneySplit, amount: number): MoneySplit => {
  // optional fields only when the split's own (docs/decisions.md, "Own properties only")
  const description = s.description
  const externalID = s.externalID
  const withDescription = description !== undefined && (!('description' in OP) || Object.hasOwn(s, 'description'))
  const withExternalID = externalID !== undefined && (!('externalID' in OP) || Object.hasOwn(s, 'externalID'))
  return withDescription
    ? withExternalID
      ? {
          splitID: s.splitID,
          paymentReferenceID: s.paymentReferenceID,
          connectedAccountID: s.connectedAccountID,
          amount,
          description,
          insertTime: s.insertTime,
          externalID,
          isFee: s.isFee
        }
      : {
          splitID: s.splitID,
          paymentReferenceID: s.paymentReferenceID,
          connectedAccountID: s.connectedAccountID,
          amount,
          description,
          insertTime: s.insertTime,
          isFee: s.isFee
        }
    : withExternalID
      ? {
          splitID: s.splitID,
          paymentReferenceID: s.paymentReferenceID,
          connectedAccountID: s.connectedAccountID,
          amount,
          insertTime: s.insertTime,
          externalID,
          isFee: s.isFee
        }
      : {
          splitID: s.splitID,
          paymentReferenceID: s.paymentReferenceID,
          connectedAccountID: s.connectedAccountID,
          amount,
          insertTime: s.insertTime,
          isFee: s.isFee
        }
}

// -------------------------------------------------------------------------------------
// apply
// -------------------------------------------------------------------------------------

/**
 * Applies a money-split patch whose shape is already checked (`decodeMoneySplitPatch`) to the
 * payment's current splits, checking the rules of docs/rules.md C4 in order; the first that fails is the
 * error:
 *
 * 1. exactly one entry per current split, else `PatchSplitMismatch` with `missing`, `unknown` and
 *    `repeated` (each ascending, each splitID once, all three present);
 * 2. `UpdateAmount` never raises a split, else `SplitAmountIncrease` (for the lowest such splitID);
 * 3. `newGrossAmount` = Σ amounts after the patch, else `GrossAmountMismatch` (issue at
 *    `newGrossAmount`);
 * 4. something changes, else `NothingToChange`.
 *
 * `UpdateAmount` to 0 keeps the split with amount 0; `DoDeleteSplitEntry` with `doDelete: true`
 * removes the split and its whole amount (a zero split too: still a change); `doDelete: false`
 * and `DoNothing` keep it. Reads only `payment.moneySplits` (any `Payment` will do); status guards
 * are the decider's.
 * Linear in the number of splits and entries.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { applyPatch } from 'paysplit'
 * const split = (splitID: number, amount: number) => ({
 *   splitID, amount, paymentReferenceID: 'p-1', insertTime: '2026-11-21T10:00:00.000Z',
 *   connectedAccountID: 'b7f2a1c4-0000-4000-8000-00000000000' + String(splitID), isFee: false
 * })
 * const payment = { moneySplits: [split(1, 700), split(2, 300)] }
 * const outcome = applyPatch(payment, {
 *   moneySplitPatch: [
 *     { splitID: 1, updateType: 'UpdateAmount', newAmount: 500 },
 *     { splitID: 2, updateType: 'DoDeleteSplitEntry', doDelete: true }
 *   ],
 *   newGrossAmount: 500
 * })
 * assert.ok(E.isRight(outcome))
 * assert.strictEqual(outcome.right.removedAmount, 500)
 * assert.deepStrictEqual(outcome.right.splitList.map((s) => [s.splitID, s.amount]), [[1, 500]])
 * const wrong = applyPatch(payment, { moneySplitPatch: [], newGrossAmount: 1000 })
 * assert.ok(E.isLeft(wrong) && wrong.left.code === 'PatchSplitMismatch')
 * assert.deepStrictEqual(wrong.left.missing, [1, 2])
 */
export const applyPatch = (
  payment: Pick<Payment, 'moneySplits'>,
  patch: MoneySplitPatch
): E.Either<PaymentError, PatchOutcome> =>
  guarded('moneySplitPatch', () => {
    const splits = decodeSplits(payment)
    if (E.isLeft(splits)) return splits
    const entries = own(patch, 'moneySplitPatch')
    const newGrossAmount = own(patch, 'newGrossAmount')
    if (!Array.isArray(entries)) return E.left(invalid('moneySplitPatch', 'type', ARRAY))
    if (typeof newGrossAmount !== 'number') return E.left(invalid('newGrossAmount', 'type', NUMBER))
    const list: ReadonlyArray<unknown> = entries
    const m = list.length
    const bound = listBound(splits.right.length)
    if (m > bound) return E.left(tooLong('moneySplitPatch', bound))
    const splitIDs = new Array<number>(m)
    const kinds = new Array<number>(m)
    const newAmounts = new Array<number>(m)
    for (let k = 0; k < m; k++) {
      const at = `moneySplitPatch.${String(k)}`
      const entry = own(list, k) as PatchEntry | undefined
      if (entry === undefined) return E.left(invalid(at, 'required'))
      if (typeof entry !== 'object' || entry === null) return E.left(invalid(at, 'type', OBJECT))
      splitIDs[k] = own(entry, 'splitID') as number
      const updateType = own(entry, 'updateType')
      kinds[k] = kindOf(updateType, updateType === 'DoDeleteSplitEntry' ? own(entry, 'doDelete') : undefined)
      newAmounts[k] = updateType === 'UpdateAmount' ? (own(entry, 'newAmount') as number) : 0
    }
    return applyColumns({ moneySplits: splits.right }, { splitIDs, kinds, newAmounts, newGrossAmount })
  })

/**
 * {@link applyPatch} on a patch in columns (what `readMoneySplitPatch` gives the decider): the
 * same rules in the same order, the same outcome. When the patch lists the splits in their own
 * order (it usually does: a patch is written from the payment's splits), its entries are matched
 * to the splits by position, without indexing the splits by splitID at all.
 *
 * With `freeze` (the decider's case: the payment's splits are frozen, it is a trusted state) the
 * new split objects and `splitList` come out frozen, so that freezing the event after does not
 * walk the (possibly 100 000) splits it shares with the payment.
 *
 * @internal
 */
export const applyColumns = (
  payment: Pick<Payment, 'moneySplits'>,
  patch: PatchColumns,
  freeze = false
): E.Either<PaymentError, PatchOutcome> =>
  guarded('moneySplitPatch', () => {
    const splits = payment.moneySplits
    if (patch.splitIDs.length === splits.length) {
      const outcome = applyMatched(splits, undefined, patch, freeze)
      if (outcome !== OUT_OF_ORDER) return outcome
    }
    const index = indexSplits(splits)
    const t = tally(index, patch.splitIDs.length, (k) => patch.splitIDs[k] as number)
    if (t.unknown !== undefined || t.repeated || patch.splitIDs.length !== index.splits.length) {
      return E.left(mismatchError(index, t, true))
    }
    return applyMatched(index.splits, t.first, patch, freeze) as E.Either<PaymentError, PatchOutcome>
  })

/** {@link applyMatched} found that the patch does not list the splits in their order. */
const OUT_OF_ORDER = Symbol()

/** True when entries `from`.. name splits `from`.. in order, the splits still ascending. */
const restInOrder = (
  splits: ReadonlyArray<MoneySplit>,
  splitIDs: ArrayLike<number>,
  from: number,
  previous: number
): boolean => {
  for (let i = from; i < splits.length; i++) {
    const id = (splits[i] as MoneySplit).splitID
    if (typeof id !== 'number' || !(id > previous) || splitIDs[i] !== id) return false
    previous = id
  }
  return true
}

/**
 * The rules of {@link applyPatch} after the splitID check, and the outcome, in one pass over the
 * splits (a payment may hold 100 000). `first[i]` is the entry that names split `i`; without
 * `first`, entry `i` is taken to name split `i`, which is checked on the way (the splits must
 * ascend and the entry's splitID be the split's): when it does not hold, the answer is
 * {@link OUT_OF_ORDER} and the caller matches the entries by splitID instead, so that a
 * `PatchSplitMismatch` still comes before every other rule.
 */
const applyMatched = (
  splits: ReadonlyArray<MoneySplit>,
  first: Int32Array | undefined,
  patch: PatchColumns,
  freeze: boolean
): E.Either<PaymentError, PatchOutcome> | typeof OUT_OF_ORDER => {
  const { splitIDs, kinds, newAmounts } = patch
  const n = splits.length
  // every split is named by exactly one entry here, so the deleting entries say how many remain:
  // the list is made at its final size rather than shortened after (docs/performance.md)
  let deleted = 0
  for (let k = 0; k < kinds.length; k++) if (kinds[k] === DELETE_SPLIT) deleted++
  const splitList = new Array<MoneySplit>(n - deleted)
  const changes: SplitChange[] = []
  let sumAfter = 0
  let removedAmount = 0
  let s = 0
  let previous = 0
  for (let i = 0; i < n; i++) {
    const split = splits[i] as MoneySplit
    let k = i
    if (first === undefined) {
      const id = split.splitID
      if (typeof id !== 'number' || !(id > previous) || splitIDs[i] !== id) return OUT_OF_ORDER
      previous = id
    } else {
      k = first[i] as number
    }
    let amount: number
    switch (kinds[k]) {
      case UPDATE_AMOUNT:
        amount = newAmounts[k] as number
        if (amount > split.amount) {
          if (first === undefined && !restInOrder(splits, splitIDs, i + 1, previous)) return OUT_OF_ORDER
          return E.left(increaseError())
        }
        break
      case DELETE_SPLIT:
        amount = -1
        break
      case KEEP_SPLIT:
      case DO_NOTHING:
        amount = split.amount
        break
      default:
        if (first === undefined && !restInOrder(splits, splitIDs, i + 1, previous)) return OUT_OF_ORDER
        return E.left(
          invalid(`moneySplitPatch.${String(k)}.updateType`, 'not_one_of', { allowed: ['UpdateAmount', 'DoDeleteSplitEntry', 'DoNothing'] })
        )
    }
    if (amount < 0) {
      removedAmount += split.amount
      changes.push({ split, removedAmount: split.amount, deleted: true })
    } else {
      sumAfter += amount
      if (amount === split.amount) {
        splitList[s++] = split
      } else {
        removedAmount += split.amount - amount
        const lowered = withAmount(split, amount)
        splitList[s++] = freeze ? Object.freeze(lowered) : lowered
        changes.push({ split, removedAmount: split.amount - amount, deleted: false })
      }
    }
  }

  if (patch.newGrossAmount !== sumAfter) {
    return E.left(validationError([issue('newGrossAmount', 'sum_mismatch', undefined, 'GrossAmountMismatch')]))
  }
  if (changes.length === 0) return E.left(nothingToChange())
  if (freeze) Object.freeze(splitList)
  return E.right({ newGrossAmount: sumAfter, splitList, changes, removedAmount })
}

/**
 * `{ [amountKey]: amount, connectedAccountID, description?, externalID?, isFee }` for a split: the
 * entry of `refundedSplit` / `adjustedSplit`, fields in that order, the optional strings only
 * when the split has them. Object literals, not spreads (a refund may list 100 000 splits). The
 * decider's full refund lists its splits with it too.
 *
 * @internal
 */
export const returnedSplit = (split: MoneySplit, amount: number): RefundedSplit => {
  const description = split.description
  const externalID = split.externalID
  const withDescription = description !== undefined && (!('description' in OP) || Object.hasOwn(split, 'description'))
  const withExternalID = externalID !== undefined && (!('externalID' in OP) || Object.hasOwn(split, 'externalID'))
  const connectedAccountID = split.connectedAccountID
  const isFee = split.isFee
  return withDescription
    ? withExternalID
      ? { refundAmount: amount, connectedAccountID, description, externalID, isFee }
      : { refundAmount: amount, connectedAccountID, description, isFee }
    : withExternalID
      ? { refundAmount: amount, connectedAccountID, externalID, isFee }
      : { refundAmount: amount, connectedAccountID, isFee }
}

/**
 * The `refundedSplit` entries of a partial refund (docs/rules.md I2.6): one per lowered or deleted split,
 * `{ refundAmount, connectedAccountID, description?, externalID?, isFee }`, in ascending splitID
 * order; `description` and `externalID` only when the split has them.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { applyPatch, toRefundedSplits } from 'paysplit'
 * const payment = {
 *   moneySplits: [{
 *     splitID: 1, amount: 1000, paymentReferenceID: 'p-1', insertTime: '2026-11-21T10:00:00.000Z',
 *     connectedAccountID: 'b7f2a1c4-0000-4000-8000-000000000001', isFee: false, externalID: 'line-1'
 *   }]
 * }
 * const outcome = applyPatch(payment, {
 *   moneySplitPatch: [{ splitID: 1, updateType: 'UpdateAmount', newAmount: 600 }],
 *   newGrossAmount: 600
 * })
 * assert.ok(E.isRight(outcome))
 * assert.deepStrictEqual(toRefundedSplits(outcome.right), [{
 *   refundAmount: 400, connectedAccountID: 'b7f2a1c4-0000-4000-8000-000000000001',
 *   externalID: 'line-1', isFee: false
 * }])
 */
export const toRefundedSplits = (outcome: PatchOutcome): ReadonlyArray<RefundedSplit> =>
  outcome.changes.map((c) => returnedSplit(c.split, c.removedAmount))

/**
 * The `adjustedSplit` entries of an invoice adjustment: as {@link toRefundedSplits}, with
 * `adjustedAmount` for `refundAmount`.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { applyPatch, toAdjustedSplits } from 'paysplit'
 * const payment = {
 *   moneySplits: [{
 *     splitID: 1, amount: 1000, paymentReferenceID: 'p-1', insertTime: '2026-11-21T10:00:00.000Z',
 *     connectedAccountID: 'b7f2a1c4-0000-4000-8000-000000000001', isFee: true
 *   }]
 * }
 * const outcome = applyPatch(payment, {
 *   moneySplitPatch: [{ splitID: 1, updateType: 'DoDeleteSplitEntry', doDelete: true }],
 *   newGrossAmount: 0
 * })
 * assert.ok(E.isRight(outcome))
 * assert.deepStrictEqual(toAdjustedSplits(outcome.right), [{
 *   adjustedAmount: 1000, connectedAccountID: 'b7f2a1c4-0000-4000-8000-000000000001', isFee: true
 * }])
 */
export const toAdjustedSplits = (outcome: PatchOutcome): ReadonlyArray<AdjustedSplit> =>
  outcome.changes.map((c) => {
    // the refund entry with its amount renamed, first as before (an invoice adjustment is rare: the spread costs nothing that matters)
    const { refundAmount, ...rest } = returnedSplit(c.split, c.removedAmount)
    return { adjustedAmount: refundAmount, ...rest }
  })
