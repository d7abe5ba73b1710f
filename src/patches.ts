/**
 * Split-patch arithmetic (docs/rules.md C4, docs/rules.md I2.5): what a money-split patch does to a payment's splits,
 * shared by the partial refund of a `Charged` payment and the adjustment of an `Initiated`
 * invoice. The builders that write a patch for the caller are in `patchBuilders.ts`; the split
 * index, the tally and the errors they share with the rules are exported from here.
 *
 * Everything here is pure and runs in time linear in the number of splits and patch entries. Splits are
 * indexed by `splitID` with typed arrays, not per-entry maps. Inputs are never mutated.
 *
 * @module patches
 */
import * as E from './internal/either.js'
import { invalid, issue, paymentError, validationError, type Issue, type PaymentError } from './errors.js'
import type { AdjustedSplit, RefundedSplit } from './events.js'
import type { MoneySplit, Payment } from './payment.js'
import { walkMoneySplitPatch, type PatchEntrySink } from './codecs/requestChecks.js'
import type { MoneySplitPatch, PatchEntry } from './codecs/requests.js'

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

// -------------------------------------------------------------------------------------
// internal: a patch in columns
// -------------------------------------------------------------------------------------

/** A {@link PatchColumns} kind: `UpdateAmount`. */
const UPDATE_AMOUNT = 0
/** A {@link PatchColumns} kind: `DoDeleteSplitEntry` with `doDelete: true`. */
const DELETE_SPLIT = 1
/** A {@link PatchColumns} kind: `DoDeleteSplitEntry` with `doDelete: false`. */
const KEEP_SPLIT = 2
/** A {@link PatchColumns} kind: `DoNothing`. */
const DO_NOTHING = 3
/** A {@link PatchColumns} kind: an `updateType` that is none of the above (unchecked input). */
const UNKNOWN_UPDATE = 4

/**
 * A money-split patch as parallel columns of numbers, entry `k` at index `k` of each: what the
 * decider works on, so that a patch of 100 000 entries costs three typed arrays, not 100 000
 * objects for the garbage collector to move.
 *
 * @internal
 */
export interface PatchColumns {
  readonly splitIDs: ArrayLike<number>
  /** `UPDATE_AMOUNT`, `DELETE_SPLIT`, `KEEP_SPLIT`, `DO_NOTHING` or `UNKNOWN_UPDATE`. */
  readonly kinds: ArrayLike<number>
  /** The `newAmount` of an `UpdateAmount` entry; 0 for the others. */
  readonly newAmounts: ArrayLike<number>
  readonly newGrossAmount: number
}

/** Columns start with room for this many entries at most, and double when full. */
const PRESIZED = 1 << 16

/** Below this many entries the columns are plain arrays: a typed array costs more to create. */
const SMALL = 256

/**
 * Reads a money-split patch from untrusted input into columns: the shape checks and issues of
 * `decodeMoneySplitPatch` (the same walk), without an object per entry. Large patches get typed
 * arrays (memory the garbage collector neither moves nor scans), sized for the entry array, or
 * for {@link PRESIZED} entries when it claims more (an array with a huge length may well have
 * holes, and the walk stops at the first) and doubled as they fill; small ones plain arrays.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { readPatchColumns } from './patches.js'
 * const r = readPatchColumns({
 *   moneySplitPatch: [
 *     { splitID: 1, updateType: 'UpdateAmount', newAmount: 500 },
 *     { splitID: 2, updateType: 'DoNothing' }
 *   ],
 *   newGrossAmount: 800
 * })
 * assert.deepStrictEqual(r.patch && Array.from(r.patch.splitIDs), [1, 2])
 * assert.deepStrictEqual(r.patch && Array.from(r.patch.newAmounts), [500, 0])
 * const bad = readPatchColumns({ moneySplitPatch: [{ splitID: 0, updateType: 'DoNothing' }], newGrossAmount: 0 })
 * assert.deepStrictEqual(bad.issues.map((i) => i.path), ['moneySplitPatch.0.splitID'])
 */
export const readPatchColumns = (
  input: unknown
): { readonly issues: ReadonlyArray<Issue>; readonly patch?: PatchColumns } => {
  type Column = Float64Array | Uint8Array | number[]
  let splitIDs: Column = []
  let kinds: Column = []
  let newAmounts: Column = []
  let capacity = Infinity
  let count = 0
  const put: PatchEntrySink = (splitID, updateType, value) => {
    if (count === capacity) {
      capacity = 2 * count + 16
      const ids = new Float64Array(capacity)
      const ks = new Uint8Array(capacity)
      const amounts = new Float64Array(capacity)
      ids.set(splitIDs)
      ks.set(kinds)
      amounts.set(newAmounts)
      splitIDs = ids
      kinds = ks
      newAmounts = amounts
    }
    splitIDs[count] = splitID
    kinds[count] =
      updateType === 'UpdateAmount'
        ? UPDATE_AMOUNT
        : updateType === 'DoNothing'
          ? DO_NOTHING
          : value === true
            ? DELETE_SPLIT
            : KEEP_SPLIT
    newAmounts[count] = updateType === 'UpdateAmount' ? (value as number) : 0
    count++
  }
  const { issues, newGrossAmount } = walkMoneySplitPatch(input, (length) => {
    if (length > SMALL) {
      capacity = length <= PRESIZED ? length : PRESIZED
      splitIDs = new Float64Array(capacity)
      kinds = new Uint8Array(capacity)
      newAmounts = new Float64Array(capacity)
    }
    return put
  })
  if (newGrossAmount === undefined) return { issues }
  const exact = (c: Column): ArrayLike<number> =>
    c.length === count ? c : Array.isArray(c) ? /* v8 ignore next -- unreachable: a plain-array column grows one entry per put, so its length is count */ c.slice(0, count) : c.subarray(0, count)
  return {
    issues,
    patch: { splitIDs: exact(splitIDs), kinds: exact(kinds), newAmounts: exact(newAmounts), newGrossAmount }
  }
}

// -------------------------------------------------------------------------------------
// internal: indexing splits by splitID
// -------------------------------------------------------------------------------------

/** How many splitIDs a list may name in an error message before it is cut short. */
const LISTED_IN_MESSAGE = 20

export interface SplitIndex {
  /** The payment's splits in ascending splitID order. */
  readonly splits: ReadonlyArray<MoneySplit>
  /** The position of `splitID` in `splits`, or -1 when no split has it. */
  readonly positionOf: (splitID: number) => number
}

/**
 * Indexes the splits by splitID. splitIDs are positive integers, ascending in `moneySplits`, with
 * gaps where splits were deleted: a typed array from splitID to position serves when they are
 * dense enough; a Map only for splitIDs far sparser than the splits (never seen in practice).
 */
export const indexSplits = (moneySplits: ReadonlyArray<MoneySplit>): SplitIndex => {
  const n = moneySplits.length
  let ascending = true
  let positive = true
  let max = 0
  for (let i = 0; i < n; i++) {
    const id = (moneySplits[i] as MoneySplit).splitID
    if (!(Number.isSafeInteger(id) && id >= 1)) positive = false
    else if (id > max) max = id
    if (!(id > (i === 0 ? 0 : (moneySplits[i - 1] as MoneySplit).splitID))) ascending = false
  }
  const splits = ascending
    ? moneySplits
    : [...moneySplits].sort((a, b) => a.splitID - b.splitID)
  if (positive && max <= 4 * n + 64) {
    const position = new Int32Array(max + 1)
    for (let i = 0; i < n; i++) position[(splits[i] as MoneySplit).splitID] = i + 1
    return {
      splits,
      positionOf: (splitID) =>
        splitID >= 1 && splitID <= max ? /* v8 ignore next -- unreachable `?? 0`: splitID is within the typed array's bounds (the hint covers this whole arm: the transform drops a comment inside the parentheses) */ (position[splitID] ?? 0) - 1 : -1
    }
  }
  const byID = new Map<number, number>()
  for (let i = 0; i < n; i++) byID.set((splits[i] as MoneySplit).splitID, i)
  return { splits, positionOf: (splitID) => byID.get(splitID) ?? -1 }
}

/** The splitIDs named by a list of references, as counts per split and per unknown splitID. */
export interface Tally {
  /** Per split position: 0 not named, 1 named once, 2 named more than once. */
  readonly count: Uint8Array
  /** Per split position: the index of the first reference naming it, or -1. */
  readonly first: Int32Array
  /** How often each splitID no split has was named; undefined when there is none. */
  readonly unknown: Map<number, number> | undefined
  /** True when some split was named more than once. */
  readonly repeated: boolean
}

export const tally = (
  index: SplitIndex,
  length: number,
  splitIDAt: (k: number) => number
): Tally => {
  const n = index.splits.length
  const count = new Uint8Array(n)
  const first = new Int32Array(n).fill(-1)
  let unknown: Map<number, number> | undefined
  let repeated = false
  for (let k = 0; k < length; k++) {
    const id = splitIDAt(k)
    const i = index.positionOf(id)
    if (i < 0) {
      unknown ??= new Map()
      unknown.set(id, (unknown.get(id) ?? 0) + 1)
    } else if (count[i] === 0) {
      count[i] = 1
      first[i] = k
    } else {
      count[i] = 2
      repeated = true
    }
  }
  return { count, first, unknown, repeated }
}

const sortAscending = (xs: number[]): number[] => xs.sort((a, b) => a - b)

const listIDs = (ids: ReadonlyArray<number>): string =>
  ids.length <= LISTED_IN_MESSAGE
    ? ids.join(', ')
    : `${ids.slice(0, LISTED_IN_MESSAGE).join(', ')}, … (${String(ids.length)} in all)`

/**
 * The `PatchSplitMismatch` of a tally: `missing` (only when `withMissing`), `unknown` and
 * `repeated`, each ascending and each splitID once. A splitID no split has that is named more
 * than once is both unknown and repeated.
 */
export const mismatchError = (index: SplitIndex, t: Tally, withMissing: boolean): PaymentError => {
  const missing: number[] = []
  const repeated: number[] = []
  const splits = index.splits
  for (let i = 0; i < splits.length; i++) {
    const c = t.count[i]
    if (c === 0 && withMissing) missing.push((splits[i] as MoneySplit).splitID)
    else if (c === 2) repeated.push((splits[i] as MoneySplit).splitID)
  }
  const unknown: number[] = []
  if (t.unknown !== undefined) {
    for (const [id, times] of t.unknown) {
      unknown.push(id)
      if (times > 1) repeated.push(id)
    }
  }
  sortAscending(missing)
  sortAscending(unknown)
  sortAscending(repeated)
  const parts: string[] = []
  if (missing.length > 0) parts.push(`missing splitIDs ${listIDs(missing)}`)
  if (unknown.length > 0) parts.push(`unknown splitIDs ${listIDs(unknown)}`)
  if (repeated.length > 0) parts.push(`repeated splitIDs ${listIDs(repeated)}`)
  return {
    code: 'PatchSplitMismatch',
    message: `The patch must name each current split exactly once: ${parts.join('; ')}.`,
    missing,
    unknown,
    repeated
  }
}

export const increaseError = (split: MoneySplit, asked: number): PaymentError =>
  paymentError(
    'SplitAmountIncrease',
    `Split ${String(split.splitID)} holds ${String(split.amount)}; the patch asks for ${String(asked)}, ` +
      'but a patch can only lower a split.'
  )

export const nothingToChange = (): PaymentError =>
  paymentError('NothingToChange', 'The patch changes nothing: every split keeps its amount.')

/**
 * A fresh copy of `split` holding `amount`, with the fields of {@link MoneySplit} in their order
 * (optional strings only when the split has them). Written out rather than spread: V8 copies a
 * spread several times slower, which shows on payments with many splits.
 *
 * @internal
 */
export const withAmount = (s: MoneySplit, amount: number): MoneySplit =>
  s.description === undefined
    ? s.externalID === undefined
      ? {
          splitID: s.splitID,
          paymentReferenceID: s.paymentReferenceID,
          connectedAccountID: s.connectedAccountID,
          amount,
          insertTime: s.insertTime,
          isFee: s.isFee
        }
      : {
          splitID: s.splitID,
          paymentReferenceID: s.paymentReferenceID,
          connectedAccountID: s.connectedAccountID,
          amount,
          insertTime: s.insertTime,
          externalID: s.externalID,
          isFee: s.isFee
        }
    : s.externalID === undefined
      ? {
          splitID: s.splitID,
          paymentReferenceID: s.paymentReferenceID,
          connectedAccountID: s.connectedAccountID,
          amount,
          description: s.description,
          insertTime: s.insertTime,
          isFee: s.isFee
        }
      : {
          splitID: s.splitID,
          paymentReferenceID: s.paymentReferenceID,
          connectedAccountID: s.connectedAccountID,
          amount,
          description: s.description,
          insertTime: s.insertTime,
          externalID: s.externalID,
          isFee: s.isFee
        }

/** Runs `f`, turning anything it throws (a hostile getter, a proxy) into `ValidationFailed`. */
export const guarded = <A>(path: string, f: () => E.Either<PaymentError, A>): E.Either<PaymentError, A> => {
  try {
    return f()
  } catch {
    return E.left(invalid(path, 'type', { expected: 'object' }))
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
    const entries = patch.moneySplitPatch
    const m = entries.length
    const splitIDs = new Array<number>(m)
    const kinds = new Array<number>(m)
    const newAmounts = new Array<number>(m)
    for (let k = 0; k < m; k++) {
      const entry = entries[k] as PatchEntry
      splitIDs[k] = entry.splitID
      switch (entry.updateType) {
        case 'UpdateAmount':
          kinds[k] = UPDATE_AMOUNT
          newAmounts[k] = entry.newAmount
          break
        case 'DoDeleteSplitEntry':
          kinds[k] = entry.doDelete ? DELETE_SPLIT : KEEP_SPLIT
          newAmounts[k] = 0
          break
        case 'DoNothing':
          kinds[k] = DO_NOTHING
          newAmounts[k] = 0
          break
        default:
          kinds[k] = UNKNOWN_UPDATE
          newAmounts[k] = 0
      }
    }
    return applyColumns(payment, { splitIDs, kinds, newAmounts, newGrossAmount: patch.newGrossAmount })
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
const OUT_OF_ORDER = Symbol('out of order')

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
  // the list is made at its final size (shortening it after would be a slow runtime call)
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
          return E.left(increaseError(split, amount))
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
export const returnedSplit = (split: MoneySplit, amount: number): RefundedSplit =>
  split.description === undefined
    ? split.externalID === undefined
      ? { refundAmount: amount, connectedAccountID: split.connectedAccountID, isFee: split.isFee }
      : {
          refundAmount: amount,
          connectedAccountID: split.connectedAccountID,
          externalID: split.externalID,
          isFee: split.isFee
        }
    : split.externalID === undefined
      ? {
          refundAmount: amount,
          connectedAccountID: split.connectedAccountID,
          description: split.description,
          isFee: split.isFee
        }
      : {
          refundAmount: amount,
          connectedAccountID: split.connectedAccountID,
          description: split.description,
          externalID: split.externalID,
          isFee: split.isFee
        }

const adjustedSplitOf = (split: MoneySplit, amount: number): AdjustedSplit =>
  split.description === undefined
    ? split.externalID === undefined
      ? { adjustedAmount: amount, connectedAccountID: split.connectedAccountID, isFee: split.isFee }
      : {
          adjustedAmount: amount,
          connectedAccountID: split.connectedAccountID,
          externalID: split.externalID,
          isFee: split.isFee
        }
    : split.externalID === undefined
      ? {
          adjustedAmount: amount,
          connectedAccountID: split.connectedAccountID,
          description: split.description,
          isFee: split.isFee
        }
      : {
          adjustedAmount: amount,
          connectedAccountID: split.connectedAccountID,
          description: split.description,
          externalID: split.externalID,
          isFee: split.isFee
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
  outcome.changes.map((c) => adjustedSplitOf(c.split, c.removedAmount))
