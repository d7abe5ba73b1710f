/**
 * Patch builders (docs/rules.md C4): each writes a money-split patch for the caller, so nobody does the
 * arithmetic by hand: a proportional reduction by largest remainder, deleting splits, setting
 * amounts. A patch they return always passes the rules of `patches.ts`; where the patch asked for
 * would fail them, the builder returns `Left` with the code the rules would give.
 *
 * Pure, inputs never mutated; linear in the number of splits, except that the proportional
 * builder sorts the remainders it has to break ties between.
 *
 * @module patchBuilders
 */
import * as E from './internal/either.js'
import { own } from './internal/own.js'
import { invalid, validationError, type PaymentError } from './errors.js'
import { AMOUNT, ARRAY, check, fail, type Issues, OBJECT, POSITIVE } from './codecs/fields.js'
import type { MoneySplit, Payment } from './payment.js'
import { increaseError, nothingToChange } from './patches.js'
import { guarded, indexSplits, listBound, mismatchError, decodeSplits, tally, tooLong, type Tally } from './patchColumns.js'
import type { MoneySplitPatch, PatchEntry } from './codecs/requests.js'

/** Options of {@link proportionalPatch}. */
export interface ProportionalOptions {
  /** Whether fee splits (`isFee: true`) take part in the reduction. Default `true`. */
  readonly includeFees?: boolean
}

/** A split named by a builder, with the amount it should hold. */
export interface SplitAmount {
  readonly splitID: number
  readonly amount: number
}

/** Products up to this bound, and their quotient corrections, stay exact in float arithmetic. */
const EXACT_PRODUCT = 2 ** 52

/**
 * A patch that removes `amount` across the payment's current splits in proportion to their
 * amounts, by largest remainder: each split gives up ⌊amount · its amount / total⌋, and what is
 * left of `amount` goes, one unit each, to the splits with the largest remainders, the lower
 * splitID first on equal remainders. The parts sum exactly to `amount`, and no split goes below 0.
 * With `includeFees: false` fee splits are left alone (and do not count in the total). Exact
 * integer arithmetic throughout (BigInt where amount × split could pass 2^52).
 *
 * `amount` must be a safe integer from 1 to the total of the splits it may touch, else
 * `ValidationFailed` at path `amount`. Lowered splits get `UpdateAmount`, the others `DoNothing`;
 * `newGrossAmount` is Σ current splits − `amount`. The patch always passes `applyPatch`.
 * Reads only `payment.moneySplits` (any `Payment` will do).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { proportionalPatch } from 'paysplit'
 * const split = (splitID: number, amount: number, isFee = false) => ({
 *   splitID, amount, isFee, paymentReferenceID: 'p-1', insertTime: '2026-11-21T10:00:00.000Z',
 *   connectedAccountID: 'b7f2a1c4-0000-4000-8000-00000000000' + String(splitID)
 * })
 * const payment = { moneySplits: [split(1, 500), split(2, 400), split(3, 100, true)] }
 * // 100 over 500/400/100: exact shares 50, 40, 10
 * assert.deepStrictEqual(proportionalPatch(payment, 100), E.right({
 *   moneySplitPatch: [
 *     { splitID: 1, updateType: 'UpdateAmount', newAmount: 450 },
 *     { splitID: 2, updateType: 'UpdateAmount', newAmount: 360 },
 *     { splitID: 3, updateType: 'UpdateAmount', newAmount: 90 }
 *   ],
 *   newGrossAmount: 900
 * }))
 * // 1 over 500/400 without fees: shares 5/9 and 4/9, the larger remainder takes the unit
 * assert.deepStrictEqual(proportionalPatch(payment, 1, { includeFees: false }), E.right({
 *   moneySplitPatch: [
 *     { splitID: 1, updateType: 'UpdateAmount', newAmount: 499 },
 *     { splitID: 2, updateType: 'DoNothing' },
 *     { splitID: 3, updateType: 'DoNothing' }
 *   ],
 *   newGrossAmount: 999
 * }))
 * const tooMuch = proportionalPatch(payment, 901, { includeFees: false })
 * assert.ok(E.isLeft(tooMuch) && tooMuch.left.code === 'ValidationFailed')
 */
export const proportionalPatch = (
  payment: Pick<Payment, 'moneySplits'>,
  amount: number,
  options?: ProportionalOptions
): E.Either<PaymentError, MoneySplitPatch> =>
  guarded('amount', () => {
    const given = own(options, 'includeFees')
    const includeFees = given ?? true
    if (typeof includeFees !== 'boolean') {
      return E.left(invalid('includeFees', 'type', { expected: 'boolean' }))
    }
    const moneySplits = decodeSplits(payment)
    if (E.isLeft(moneySplits)) return moneySplits
    const splits = indexSplits(moneySplits.right).splits
    const n = splits.length
    const touched = (s: MoneySplit): boolean => includeFees || !s.isFee
    let total = 0
    let gross = 0
    for (const s of splits) {
      gross += s.amount
      if (touched(s)) total += s.amount
    }
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > total) {
      return E.left(
        // the bound is the total of the splits the amount may touch
        Number.isSafeInteger(amount) ? (amount < 1 ? invalid('amount', 'too_small', { min: 1 }) : invalid('amount', 'too_big', { max: total })) : invalid('amount', 'not_integer')
      )
    }

    // ⌊amount · a / total⌋ and its remainder for every touched split
    const parts = new Float64Array(n)
    const remainders = new Float64Array(n)
    let assigned = 0
    let withRemainder = 0
    const exact = amount <= Math.floor((EXACT_PRODUCT - 1) / total)
    const bigAmount = exact ? 0n : BigInt(amount)
    const bigTotal = exact ? 0n : BigInt(total)
    for (let i = 0; i < n; i++) {
      const s = splits[i] as MoneySplit
      if (!touched(s) || s.amount === 0) continue
      let q: number
      let r: number
      if (exact) {
        const p = amount * s.amount
        q = Math.floor(p / total)
        r = p - q * total
        if (r < 0) {
          q -= 1
          r += total
        } else if (r >= total) {
          q += 1
          r -= total
        }
      } else {
        const p = bigAmount * BigInt(s.amount)
        q = Number(p / bigTotal)
        r = Number(p % bigTotal)
      }
      parts[i] = q
      remainders[i] = r
      assigned += q
      if (r > 0) withRemainder += 1
    }

    // the units left go to the largest remainders, the lower splitID first on equal remainders
    let left = amount - assigned
    if (left > 0) {
      const positive = new Float64Array(withRemainder)
      let m = 0
      for (let i = 0; i < n; i++) {
        const r = remainders[i] as number
        if (r > 0) positive[m++] = r
      }
      positive.sort()
      const threshold = positive[withRemainder - left] as number
      for (let i = 0; i < n; i++) {
        if ((remainders[i] as number) > threshold) {
          parts[i] = (parts[i] as number) + 1
          left -= 1
        }
      }
      for (let i = 0; i < n && left > 0; i++) {
        if (remainders[i] === threshold) {
          parts[i] = (parts[i] as number) + 1
          left -= 1
        }
      }
    }

    const moneySplitPatch: PatchEntry[] = new Array<PatchEntry>(n)
    for (let i = 0; i < n; i++) {
      const s = splits[i] as MoneySplit
      const part = parts[i] as number
      moneySplitPatch[i] =
        part > 0
          ? { splitID: s.splitID, updateType: 'UpdateAmount', newAmount: s.amount - part }
          : { splitID: s.splitID, updateType: 'DoNothing' }
    }
    return E.right({ moneySplitPatch, newGrossAmount: gross - amount })
  })

/**
 * A patch that deletes the listed splits (`DoDeleteSplitEntry` with `doDelete: true`) and keeps
 * the others (`DoNothing`); `newGrossAmount` is Σ of the splits kept. A splitID that is not a
 * positive safe integer → `ValidationFailed` (issue at `splitIDs.<index>`); one no split has, or
 * one listed twice → `PatchSplitMismatch` (`unknown`, `repeated`; `missing` empty); an empty list
 * → `NothingToChange`. The patch always passes `applyPatch`. Reads only
 * `payment.moneySplits` (any `Payment` will do).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { deleteSplitsPatch } from 'paysplit'
 * const split = (splitID: number, amount: number) => ({
 *   splitID, amount, isFee: false, paymentReferenceID: 'p-1', insertTime: '2026-11-21T10:00:00.000Z',
 *   connectedAccountID: 'b7f2a1c4-0000-4000-8000-00000000000' + String(splitID)
 * })
 * const payment = { moneySplits: [split(1, 700), split(2, 300)] }
 * assert.deepStrictEqual(deleteSplitsPatch(payment, [2]), E.right({
 *   moneySplitPatch: [
 *     { splitID: 1, updateType: 'DoNothing' },
 *     { splitID: 2, updateType: 'DoDeleteSplitEntry', doDelete: true }
 *   ],
 *   newGrossAmount: 700
 * }))
 * const unknown = deleteSplitsPatch(payment, [3])
 * assert.ok(E.isLeft(unknown) && unknown.left.code === 'PatchSplitMismatch')
 * assert.deepStrictEqual(unknown.left.unknown, [3])
 */
export const deleteSplitsPatch = (
  payment: Pick<Payment, 'moneySplits'>,
  splitIDs: ReadonlyArray<number>
): E.Either<PaymentError, MoneySplitPatch> =>
  named(
    payment,
    splitIDs,
    'splitIDs',
    (ids, issues) => {
      for (let k = 0; k < ids.length; k++) check(issues, own(ids, k), 'splitIDs', k, '', POSITIVE, true)
      return ids as ReadonlyArray<number>
    },
    (splits, t) => {
      if (splitIDs.length === 0) return E.left(nothingToChange())
      const moneySplitPatch: PatchEntry[] = new Array<PatchEntry>(splits.length)
      let kept = 0
      for (let i = 0; i < splits.length; i++) {
        const s = splits[i] as MoneySplit
        if (t.count[i] === 0) {
          kept += s.amount
          moneySplitPatch[i] = { splitID: s.splitID, updateType: 'DoNothing' }
        } else {
          moneySplitPatch[i] = { splitID: s.splitID, updateType: 'DoDeleteSplitEntry', doDelete: true }
        }
      }
      return E.right({ moneySplitPatch, newGrossAmount: kept })
    }
  )

/**
 * A patch that sets the listed splits to the given amounts (`UpdateAmount`) and keeps the others
 * (`DoNothing`); `newGrossAmount` is Σ amounts after it. Checked in this order: every entry an
 * object with a positive safe-integer `splitID` and a safe-integer `amount` ≥ 0, else
 * `ValidationFailed` (issues at `amounts.<index>.splitID` / `.amount`); a splitID no split has, or
 * one listed twice → `PatchSplitMismatch` (`unknown`, `repeated`; `missing` empty); an amount
 * above the split's → `SplitAmountIncrease`; no amount differing from the split's (an empty list
 * included) → `NothingToChange`. The patch always passes `applyPatch`. Reads only
 * `payment.moneySplits` (any `Payment` will do).
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { setAmountsPatch } from 'paysplit'
 * const split = (splitID: number, amount: number) => ({
 *   splitID, amount, isFee: false, paymentReferenceID: 'p-1', insertTime: '2026-11-21T10:00:00.000Z',
 *   connectedAccountID: 'b7f2a1c4-0000-4000-8000-00000000000' + String(splitID)
 * })
 * const payment = { moneySplits: [split(1, 700), split(2, 300)] }
 * assert.deepStrictEqual(setAmountsPatch(payment, [{ splitID: 1, amount: 0 }]), E.right({
 *   moneySplitPatch: [
 *     { splitID: 1, updateType: 'UpdateAmount', newAmount: 0 },
 *     { splitID: 2, updateType: 'DoNothing' }
 *   ],
 *   newGrossAmount: 300
 * }))
 * const raised = setAmountsPatch(payment, [{ splitID: 2, amount: 301 }])
 * assert.ok(E.isLeft(raised) && raised.left.code === 'SplitAmountIncrease')
 */
export const setAmountsPatch = (
  payment: Pick<Payment, 'moneySplits'>,
  amounts: ReadonlyArray<SplitAmount>
): E.Either<PaymentError, MoneySplitPatch> => {
  const values: number[] = []
  return named(
    payment,
    amounts,
    'amounts',
    (given, issues) => {
      const ids: number[] = new Array<number>(given.length)
      for (let k = 0; k < given.length; k++) {
        const at = `amounts.${k}`
        const entry = own(given, k)
        if (typeof entry !== 'object' || entry === null) {
          fail(issues, at, 'type', OBJECT)
          continue
        }
        // used only when no issue was found, and then they are what the rules allow (the amount as
        // given: check's value is 0 for -0)
        ids[k] = check(issues, own(entry, 'splitID'), at, -1, 'splitID', POSITIVE, true) as number
        const amount = own(entry, 'amount')
        check(issues, amount, at, -1, 'amount', AMOUNT, true)
        values[k] = amount as number
      }
      return ids
    },
    (splits, t) => {
      const moneySplitPatch: PatchEntry[] = new Array<PatchEntry>(splits.length)
      let after = 0
      let changed = false
      for (let i = 0; i < splits.length; i++) {
        const s = splits[i] as MoneySplit
        const k = t.first[i] as number
        if (k < 0) {
          after += s.amount
          moneySplitPatch[i] = { splitID: s.splitID, updateType: 'DoNothing' }
          continue
        }
        const newAmount = values[k] as number
        if (newAmount > s.amount) return E.left(increaseError())
        if (newAmount !== s.amount) changed = true
        after += newAmount
        moneySplitPatch[i] = { splitID: s.splitID, updateType: 'UpdateAmount', newAmount }
      }
      if (!changed) return E.left(nothingToChange())
      return E.right({ moneySplitPatch, newGrossAmount: after })
    }
  )
}

/**
 * What {@link deleteSplitsPatch} and {@link setAmountsPatch} share: `list` (at `path`) must be an
 * array no longer than {@link listBound} allows, `read` checks its entries into issues and gives the
 * splitIDs they name, which must each name one split once (`PatchSplitMismatch` without `missing`);
 * then `write` makes the patch from the splits in splitID order and the tally.
 */
const named = <A>(
  payment: unknown,
  list: unknown,
  path: string,
  read: (list: ReadonlyArray<unknown>, issues: Issues) => ReadonlyArray<number>,
  write: (splits: ReadonlyArray<MoneySplit>, t: Tally) => E.Either<PaymentError, A>
): E.Either<PaymentError, A> =>
  guarded(path, () => {
    if (!Array.isArray(list)) return E.left(invalid(path, 'type', ARRAY))
    const moneySplits = decodeSplits(payment)
    if (E.isLeft(moneySplits)) return moneySplits
    const given: ReadonlyArray<unknown> = list
    const bound = listBound(moneySplits.right.length)
    if (given.length > bound) return E.left(tooLong(path, bound))
    const issues: Issues = []
    const ids = read(given, issues)
    if (issues.length > 0) return E.left(validationError(issues))
    const index = indexSplits(moneySplits.right)
    const t = tally(index, ids.length, (k) => ids[k] as number)
    if (t.unknown !== undefined || t.repeated) return E.left(mismatchError(index, t, false))
    return write(index.splits, t)
  })
