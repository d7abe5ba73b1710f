/**
 * The money invariants of a stored state (docs/rules.md C2, "money invariants"), and how the
 * state's issues are counted, for `validateState` (storedState.ts).
 *
 * @module stateInvariants
 */
import type { IssueParams, IssueReason } from '../errors.js'
import { fail, type Issues } from './fields.js'
import type { Allocation, MoneySplit, PaymentKind, PaymentStatus } from '../payment.js'

// -------------------------------------------------------------------------------------
// issues
// -------------------------------------------------------------------------------------

/**
 * Validation stops walking a list once this many issues are found: a broken state of 100 000
 * splits need not produce 100 000 issues, and a hostile array that claims a huge length stops
 * early. The error then ends with a `too_many_issues` issue counting those found past the first
 * 100 before the walk stopped (docs/decisions.md "Issues: reasons, catalogs and caps").
 */
export const MAX_ISSUES = 100

export const full = (issues: Issues): boolean => issues.length >= MAX_ISSUES

/** Adds the issue of `reason` at "state.`path`" (counted only, past {@link MAX_ISSUES}). */
export const add = (issues: Issues, path: string, reason: IssueReason, params?: IssueParams): void => { fail(issues, () => `state.${path}`, reason, params); }

// -------------------------------------------------------------------------------------
// invariants
// -------------------------------------------------------------------------------------

/**
 * Every fee entry (current split or allocation) names the same account (docs/rules.md C3), compared
 * without regard to case, as UUIDs are.
 */
export const checkFeeAccount = (
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
export const checkSplitsAllocated = (
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
      add(issues, `${path}.splitID`, 'not_one_of', { allowed: ['allocation.*.splitID'] })
      continue
    }
    const at = `allocation.${j}`
    if (a.connectedAccountID !== s.connectedAccountID) {
      add(issues, `${path}.connectedAccountID`, 'not_one_of', { allowed: [`${at}.connectedAccountID`] })
    }
    if (a.isFee !== s.isFee) add(issues, `${path}.isFee`, 'not_one_of', { allowed: [`${at}.isFee`] })
    if (s.amount > a.amount) add(issues, `${path}.amount`, 'too_big', { max: `${at}.amount` })
  }
}

export interface Money {
  readonly status: PaymentStatus
  readonly kind: PaymentKind
  readonly chargeImmediately: boolean | undefined
  readonly grossAmount: number | undefined
  readonly splitSum: number | undefined
  readonly allocationSum: number | undefined
  readonly allocationLength: number | undefined
  readonly chargedAmount: number | undefined
  readonly refundedAmount: number | undefined
  readonly excessRefundedAmount: number | undefined
  readonly paidAmount: number | undefined
}

/** The params of an amount, list or count that must be 0 (or empty). */
export const ZERO = { max: 0 } as const

export const checkMoney = (issues: Issues, m: Money): void => {
  const { status, kind, grossAmount: gross, chargedAmount: charged, refundedAmount: refunded } = m
  const excess = m.excessRefundedAmount
  const paid = m.paidAmount
  if (gross !== undefined && m.splitSum !== undefined && gross !== m.splitSum) {
    add(issues, 'grossAmount', 'sum_mismatch')
  }
  if (kind === 'card') {
    if (paid !== undefined && paid !== 0) add(issues, 'paidAmount', 'too_big', ZERO)
    if (excess !== undefined && excess !== 0) add(issues, 'excessRefundedAmount', 'too_big', ZERO)
  } else if (status === 'Reserved' || status === 'Cancelled') {
    // an invoice goes from Initiated to Charged
    add(issues, 'status', 'not_one_of', { allowed: ['Initiated', 'Charged', 'Refunded'] })
  }
  if (status === 'Reserved' && kind === 'card' && m.chargeImmediately === true) {
    add(issues, 'chargeImmediately', 'not_one_of', { allowed: [false] })
  }
  const charges = status === 'Charged' || status === 'Refunded'
  if (!charges) {
    // before the charge: nothing charged, refunded or allocated
    if (charged !== undefined && charged !== 0) add(issues, 'chargedAmount', 'too_big', ZERO)
    if (refunded !== undefined && refunded !== 0) add(issues, 'refundedAmount', 'too_big', ZERO)
    if (excess !== undefined && excess !== 0) add(issues, 'excessRefundedAmount', 'too_big', ZERO)
    if (m.allocationLength !== undefined && m.allocationLength !== 0) add(issues, 'allocation', 'too_many', ZERO)
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
      add(issues, 'chargedAmount', 'not_one_of', { allowed: ['grossAmount + refundedAmount'] })
    }
  }
  if (excess !== undefined && refunded !== undefined && excess > refunded) {
    add(issues, 'excessRefundedAmount', 'too_big', { max: 'refundedAmount' })
  }
  if (
    m.allocationSum !== undefined &&
    charged !== undefined &&
    excess !== undefined &&
    excess <= charged &&
    m.allocationSum !== charged - excess
  ) {
    add(issues, 'allocation', 'sum_mismatch')
  }
  if (status === 'Refunded' && gross !== undefined && gross !== 0) {
    add(issues, 'grossAmount', 'too_big', ZERO)
  }
  if (kind === 'invoice' && charged !== undefined && paid !== undefined && charged !== paid) {
    add(issues, 'chargedAmount', 'not_one_of', { allowed: ['paidAmount'] })
  }
}

