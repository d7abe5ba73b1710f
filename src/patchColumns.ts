/**
 * The internals the split-patch rules (`patches.ts`) and the patch builders (`patchBuilders.ts`)
 * share: a patch read into columns of numbers, the payment's splits indexed by splitID, the tally
 * of the splitIDs a list names and the `PatchSplitMismatch` it gives, the bound on a list's length
 * and the reading of a caller's splits (docs/rules.md C4; docs/decisions.md, "Own properties only"
 * and "Lists bounded").
 *
 * Pure and linear in the number of splits and entries; inputs never mutated.
 *
 * @internal
 * @module patchColumns
 */
import * as E from './internal/either.js'
import { invalid, type Issue, type PaymentError } from './errors.js'
import type { MoneySplit } from './payment.js'
import { ARRAY, OBJECT } from './codecs/fields.js'
import { own } from './internal/own.js'
import { walkMoneySplitPatch, type PatchEntrySink } from './codecs/requestChecks.js'

// -------------------------------------------------------------------------------------
// internal: a patch in columns
// -------------------------------------------------------------------------------------

/** A {@link PatchColumns} kind: `UpdateAmount`. */
export const UPDATE_AMOUNT = 0
/** A {@link PatchColumns} kind: `DoDeleteSplitEntry` with `doDelete: true`. */
export const DELETE_SPLIT = 1
/** A {@link PatchColumns} kind: `DoDeleteSplitEntry` with `doDelete: false`. */
export const KEEP_SPLIT = 2
/** A {@link PatchColumns} kind: `DoNothing`. */
export const DO_NOTHING = 3
/** A {@link PatchColumns} kind: an `updateType` that is none of the above (unchecked input). */
export const UNKNOWN_UPDATE = 4

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

/**
 * The {@link PatchColumns} kind of an entry's `updateType`, `value` its `doDelete` (read only for
 * `DoDeleteSplitEntry`).
 *
 * @internal
 */
export const kindOf = (updateType: unknown, value: unknown): number =>
  updateType === 'UpdateAmount'
    ? UPDATE_AMOUNT
    : updateType === 'DoNothing'
      ? DO_NOTHING
      : updateType === 'DoDeleteSplitEntry'
        ? value === true
          ? DELETE_SPLIT
          : KEEP_SPLIT
        : UNKNOWN_UPDATE

/** Thrown by the sink's start to stop the walk of a list longer than the bound; caught at once. */
const TOO_LONG: unique symbol = Symbol()

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
 * import { decodePatchColumns } from './patchColumns.js'
 * const r = decodePatchColumns({
 *   moneySplitPatch: [
 *     { splitID: 1, updateType: 'UpdateAmount', newAmount: 500 },
 *     { splitID: 2, updateType: 'DoNothing' }
 *   ],
 *   newGrossAmount: 800
 * })
 * assert.deepStrictEqual(r.patch && Array.from(r.patch.splitIDs), [1, 2])
 * assert.deepStrictEqual(r.patch && Array.from(r.patch.newAmounts), [500, 0])
 * const bad = decodePatchColumns({ moneySplitPatch: [{ splitID: 0, updateType: 'DoNothing' }], newGrossAmount: 0 })
 * assert.deepStrictEqual(bad.issues.map((i) => i.path), ['moneySplitPatch.0.splitID'])
 */
export const decodePatchColumns = (
  input: unknown,
  limit = Infinity
): { readonly issues: ReadonlyArray<Issue>; readonly patch?: PatchColumns } => {
  type Column = Float64Array | Uint8Array | number[]
  let splitIDs: Column = []
  let kinds: Column = []
  let newAmounts: Column = []
  let capacity = Infinity
  let count = 0
  let over = false
  const put: PatchEntrySink = (splitID, updateType, value) => {
    if (over || count === limit) {
      over = true
      return
    }
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
    // written out, not kindOf: this runs once an entry (docs/performance.md)
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
  let walked: ReturnType<typeof walkMoneySplitPatch>
  try {
    walked = walkMoneySplitPatch(input, (length) => {
      // refused before its entries are walked: the walk stops here (docs/decisions.md, "Lists bounded")
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- a private signal, caught just below, never seen by a caller
      if (length > limit) throw TOO_LONG
      if (length > SMALL) {
        capacity = length <= PRESIZED ? length : PRESIZED
        splitIDs = new Float64Array(capacity)
        kinds = new Uint8Array(capacity)
        newAmounts = new Float64Array(capacity)
      }
      return put
    })
  } catch (e) {
    if (e === TOO_LONG) return { issues: tooLong('moneySplitPatch', limit).issues ?? [] }
    throw e
  }
  const { issues, newGrossAmount } = walked
  if (newGrossAmount === undefined) return { issues }
  // a list whose length grew while it was walked (a proxy) is refused all the same
  if (over) return { issues: tooLong('moneySplitPatch', limit).issues ?? [] }
  // a plain-array column grows one entry per put: its length is count
  const exact = (c: Column): ArrayLike<number> => (c.length === count ? c : (c as Float64Array).subarray(0, count))
  return {
    issues,
    patch: { splitIDs: exact(splitIDs), kinds: exact(kinds), newAmounts: exact(newAmounts), newGrossAmount }
  }
}

// -------------------------------------------------------------------------------------
// internal: indexing splits by splitID
// -------------------------------------------------------------------------------------

/** How many splitIDs each list of a `PatchSplitMismatch` holds at most: the lowest (docs/rules.md C3). */
const LISTED = 100

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

/** The lowest {@link LISTED} of `xs`, ascending: the lists of a `PatchSplitMismatch` are bounded. */
const lowest = (xs: number[]): number[] => {
  xs.sort((a, b) => a - b)
  if (xs.length > LISTED) xs.length = LISTED
  return xs
}

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
  // the counts, not the splitIDs: a message quotes nothing from the input (the lists do, bounded)
  const parts = { missing, unknown, repeated }
  const counts = Object.keys(parts)
    .filter((k) => parts[k as keyof typeof parts].length > 0)
    .map((k) => `${String(parts[k as keyof typeof parts].length)} ${k}`)
  return {
    code: 'PatchSplitMismatch',
    message: `The patch must name each current split exactly once: ${counts.join(', ')} (see missing, unknown and repeated).`,
    missing: lowest(missing),
    unknown: lowest(unknown),
    repeated: lowest(repeated)
  }
}
/**
 * The most entries a list naming a payment's splits may hold (a patch, or a builder's splitIDs or
 * amounts): twice the splits, plus 100. Every honest mistake (each split named twice, a hundred
 * unknown splitIDs) still gets its `PatchSplitMismatch`; a longer list is refused before it is
 * walked, in memory that does not grow with the length it claims (docs/decisions.md, "Lists
 * bounded").
 *
 * @internal
 */
export const listBound = (splits: number): number => 2 * splits + 100

/** The `ValidationFailed` of a list longer than {@link listBound} (`max`), at `path`. @internal */
export const tooLong = (path: string, max: number): PaymentError => invalid(path, 'too_many', { max })

/** The fields of a split the rules and builders read, each required. */
const SPLIT_FIELDS = ['splitID', 'amount', 'connectedAccountID', 'isFee'] as const

/**
 * The splits of a payment a caller handed in (not a state `transition` made): its own
 * `moneySplits`, an array whose every element is its own plain object (prototype
 * `Object.prototype` or none) with its own `splitID`, `amount`, `connectedAccountID` and `isFee`; else `ValidationFailed` at `moneySplits`. Stops at the first
 * element that fails, so an array claiming 2^32−1 entries with holes costs nothing.
 *
 * @internal
 */
export const decodeSplits = (payment: unknown): E.Either<PaymentError, ReadonlyArray<MoneySplit>> => {
  const splits = own(payment, 'moneySplits')
  if (!Array.isArray(splits)) return E.left(invalid('moneySplits', 'type', ARRAY))
  const list: ReadonlyArray<unknown> = splits
  for (let i = 0; i < list.length; i++) {
    const at = `moneySplits.${String(i)}`
    if (!Object.hasOwn(list, i)) return E.left(invalid(at, 'required'))
    const split = list[i]
    // a plain record: what it inherits is Object.prototype's, which the rules test for (or nothing)
    const proto: unknown = typeof split === 'object' && split !== null ? Object.getPrototypeOf(split) : undefined
    if (proto !== Object.prototype && proto !== null) return E.left(invalid(at, 'type', OBJECT))
    for (const key of SPLIT_FIELDS) if (!Object.hasOwn(split as object, key)) return E.left(invalid(`${at}.${key}`, 'required'))
  }
  return E.right(list as ReadonlyArray<MoneySplit>)
}

/** Runs `f`, turning anything it throws (a hostile getter, a proxy) into `ValidationFailed`. */
export const guarded = <A>(path: string, f: () => E.Either<PaymentError, A>): E.Either<PaymentError, A> => {
  try {
    return f()
  } catch {
    return E.left(invalid(path, 'type', OBJECT))
  }
}

