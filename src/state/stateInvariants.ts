/**
 * The money invariants of a stored state (docs/rules.md C2, "money invariants"), and how the
 * state's issues are counted, for `validateState` (storedState.ts).
 *
 * @module stateInvariants
 */
import { MAX_ISSUES, type IssueParams, type IssueReason } from '../errors.js'
import { fail, type Issues, type Obj } from '../codecs/fields.js'
import type { Allocation, MoneySplit, PaymentKind, PaymentStatus } from '../payment.js'

// -------------------------------------------------------------------------------------
// issues
// -------------------------------------------------------------------------------------

// Validation stops walking a list once MAX_ISSUES (100, the cap of every list of issues) are
// found: a broken state of 100 000 splits need not produce 100 000 issues, and a hostile array that
// claims a huge length stops early. The error then ends with a `too_many_issues` issue counting
// those found past the first 100 before the walk stopped (docs/decisions.md "Issues: reasons,
// catalogs and caps").
export { MAX_ISSUES }

export const full = (issues: Issues): boolean => issues.length >= MAX_ISSUES

/** Adds the issue of `reason` at "state.`path`" (counted only, past {@link MAX_ISSUES}). */
export const add = (issues: Issues, path: string, reason: IssueReason, params?: IssueParams): void => { fail(issues, () => `state.${path}`, reason, params); }

/** Adds the issue that "state.`path`" is not one of `allowed`. */
export const notOneOf = (issues: Issues, path: string, ...allowed: ReadonlyArray<string | boolean>): void => {
  add(issues, path, 'not_one_of', { allowed })
}

// -------------------------------------------------------------------------------------
// invariants
// -------------------------------------------------------------------------------------

/**
 * Every fee entry (current split or allocation) names the same account (docs/rules.md C3), compared
 * without regard to case, as UUIDs are.
 */
const checkFeeAccount = (
  issues: Issues,
  splits: ReadonlyArray<MoneySplit>,
  allocation: ReadonlyArray<Allocation>
): void => {
  let feeAccount: string | undefined
  const same = (field: string, list: ReadonlyArray<Allocation>): void => {
    for (let i = 0; i < list.length; i++) {
      const s = list[i] as Allocation
      if (!s.isFee) continue
      const a = s.connectedAccountID.toLowerCase()
      if (feeAccount === undefined) feeAccount = a
      else if (a !== feeAccount) add(issues, `${field}.${i}.connectedAccountID`, 'fee_account_differs')
    }
  }
  same('moneySplits', splits)
  same('allocation', allocation)
}

/**
 * Once charged, every current split stands in the allocation under its splitID, for the same
 * account and fee flag, with at least its current amount. Both lists ascend by splitID: one merge.
 */
const checkSplitsAllocated = (
  issues: Issues,
  splits: ReadonlyArray<MoneySplit>,
  allocation: ReadonlyArray<Allocation>
): void => {
  let j = 0
  for (let i = 0; i < splits.length && !full(issues); i++) {
    // readSplits builds both lists by push, without holes
    const s = splits[i] as MoneySplit
    while (j < allocation.length && (allocation[j] as Allocation).splitID < s.splitID) j++
    const a = allocation[j]
    const path = `moneySplits.${i}`
    if (a === undefined || a.splitID !== s.splitID) {
      notOneOf(issues, `${path}.splitID`, 'allocation.*.splitID')
      continue
    }
    const at = `allocation.${j}`
    if (a.connectedAccountID !== s.connectedAccountID) {
      notOneOf(issues, `${path}.connectedAccountID`, `${at}.connectedAccountID`)
    }
    if (a.isFee !== s.isFee) notOneOf(issues, `${path}.isFee`, `${at}.isFee`)
    if (s.amount > a.amount) add(issues, `${path}.amount`, 'too_big', { max: `${at}.amount` })
  }
}

/** The params of an amount, list or count that must be 0 (or empty). */
export const ZERO = { max: 0 } as const

/** A list of split records as read: the valid records, and Σ amounts when every amount is valid and the sum stays safe. */
export interface Splits {
  readonly splits: ReadonlyArray<MoneySplit>
  readonly sum: number | undefined
}

/**
 * The money invariants. `r` holds the top-level fields as read: each amount (and `chargeImmediately`
 * of a card) is its valid value, or `undefined` when it is invalid (and has its issue already).
 */
const checkMoney = (
  issues: Issues,
  status: PaymentStatus,
  kind: PaymentKind,
  r: Obj,
  splitSum: number | undefined,
  allocation: Splits | undefined
): void => {
  const gross = r['grossAmount'] as number | undefined
  const charged = r['chargedAmount'] as number | undefined
  const refunded = r['refundedAmount'] as number | undefined
  const excess = r['excessRefundedAmount'] as number | undefined
  const paid = r['paidAmount'] as number | undefined
  /** The amount `key` (a required field, so set on `r`) must be 0. */
  const zero = (key: string): void => {
    const v = r[key]
    if (v !== undefined && v !== 0) add(issues, key, 'too_big', ZERO)
  }
  if (gross !== undefined && splitSum !== undefined && gross !== splitSum) {
    add(issues, 'grossAmount', 'sum_mismatch')
  }
  if (kind === 'card') {
    zero('paidAmount')
    zero('excessRefundedAmount')
  } else if (status === 'Reserved' || status === 'Cancelled') {
    // an invoice goes from Initiated to Charged
    notOneOf(issues, 'status', 'Initiated', 'Charged', 'Refunded')
  }
  if (status === 'Reserved' && kind === 'card' && r['chargeImmediately'] === true) {
    notOneOf(issues, 'chargeImmediately', false)
  }
  if (status !== 'Charged' && status !== 'Refunded') {
    // before the charge: nothing charged, refunded or allocated
    zero('chargedAmount')
    zero('refundedAmount')
    zero('excessRefundedAmount')
    if (allocation !== undefined && allocation.splits.length !== 0) add(issues, 'allocation', 'too_many', ZERO)
    if (gross !== undefined && gross < 1) add(issues, 'grossAmount', 'too_small', { min: 1 })
    if (status === 'Initiated' && kind === 'invoice' && paid !== undefined && gross !== undefined && paid >= gross) {
      add(issues, 'paidAmount', 'too_big', { max: 'grossAmount - 1' })
    }
    return
  }
  if (charged !== undefined && refunded !== undefined && gross !== undefined) {
    if (refunded > charged) {
      add(issues, 'refundedAmount', 'too_big', { max: 'chargedAmount' })
    } else if (charged - refunded !== gross) {
      notOneOf(issues, 'chargedAmount', 'grossAmount + refundedAmount')
    }
  }
  if (excess !== undefined && refunded !== undefined && excess > refunded) {
    add(issues, 'excessRefundedAmount', 'too_big', { max: 'refundedAmount' })
  }
  if (
    allocation?.sum !== undefined &&
    charged !== undefined &&
    excess !== undefined &&
    excess <= charged &&
    allocation.sum !== charged - excess
  ) {
    add(issues, 'allocation', 'sum_mismatch')
  }
  if (status === 'Refunded') zero('grossAmount')
  if (kind === 'invoice' && charged !== undefined && paid !== undefined && charged !== paid) {
    notOneOf(issues, 'chargedAmount', 'paidAmount')
  }
}

/**
 * The invariants between the fields of a state read by `validateState`: the money (when the status
 * and kind are valid), every current split allocated once charged, one fee account.
 */
export const checkInvariants = (
  issues: Issues,
  status: PaymentStatus | undefined,
  kind: PaymentKind | undefined,
  r: Obj,
  splits: Splits | undefined,
  allocation: Splits | undefined
): void => {
  if (status !== undefined && kind !== undefined) {
    checkMoney(issues, status, kind, r, splits?.sum, allocation)
    if ((status === 'Charged' || status === 'Refunded') && splits !== undefined && allocation !== undefined) {
      checkSplitsAllocated(issues, splits.splits, allocation.splits)
    }
  }
  if (splits !== undefined && allocation !== undefined) checkFeeAccount(issues, splits.splits, allocation.splits)
}
