/**
 * Errors are data: every failure of paysplit is a {@link PaymentError}, a plain object with a
 * string `code` named after the rule that was broken and a `message` a person can read.
 * Nothing in paysplit throws for bad input.
 *
 * @module errors
 */

import type { Issue, IssueCode, IssueParams, IssueReason } from './messages/issues.js'
import { en } from './messages/en.js'
import { plainMessage } from './messages/format.js'
import { own } from './internal/own.js'

export type { Issue, IssueCode, IssueParams, IssueReason, Messages } from './messages/issues.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Every error code paysplit returns. `DuplicateExternalPaymentReference`, `DuplicateKid`,
 * `UnmatchedTransfer`, `InvalidContext`, `CustomerNotFound` and `IdempotencyKeyReused` are only produced by the service
 * model of `paysplit/http`; `UnsupportedSchemaVersion` by the stored-state check (a document of a
 * newer schema than this release reads, docs/rules.md C11); the others by the decider and the codecs.
 */
export type ErrorCode =
  | 'ValidationFailed'
  | 'MissingCustomerExternalID'
  | 'GrossAmountMismatch'
  | 'PaymentAlreadyExists'
  | 'PaymentNotFound'
  | 'FormNotUsedForInvoice'
  | 'FormNotAllowedInStatus'
  | 'ChargeNotAllowedForInvoice'
  | 'ChargeNotAllowedForImmediateCharge'
  | 'ChargeNotAllowedInStatus'
  | 'InvoiceCannotBeCancelled'
  | 'CancelNotAllowedInStatus'
  | 'RefundNotAllowedInStatus'
  | 'NothingToRefund'
  | 'NotAnInvoice'
  | 'AdjustNotAllowedInStatus'
  | 'TransferNotAllowedInStatus'
  | 'KidMismatch'
  | 'PatchSplitMismatch'
  | 'SplitAmountIncrease'
  | 'NothingToChange'
  | 'DuplicateExternalPaymentReference'
  // safe retries (docs/rules.md C13): an Idempotency-Key sent again with another request
  | 'IdempotencyKeyReused'
  // the service model and stored states (docs/rules.md C9, C11)
  | 'DuplicateKid'
  | 'UnmatchedTransfer'
  | 'InvalidContext'
  | 'CustomerNotFound'
  | 'UnsupportedSchemaVersion'

/**
 * Every reason an {@link Issue} can give, a closed list (docs/rules.md C12): what a program reads
 * to choose its own words, each with the `params` a message needs (docs/decisions.md "Issues:
 * reasons, catalogs and caps").
 *
 * @example
 * import * as assert from 'node:assert'
 * import { issueReasons } from 'paysplit'
 * assert.strictEqual(issueReasons.length, 16)
 * assert.ok(issueReasons.includes('currency_minor_unit'))
 */
export const issueReasons: ReadonlyArray<IssueReason> = /* @__PURE__ */ Object.freeze(
  // the keys of the English catalog are the reasons and their singular forms (`too_long_one`)
  /* @__PURE__ */ Object.keys(en).filter((k) => !k.endsWith('_one')) as IssueReason[]
)

/**
 * The error of every failed paysplit call.
 *
 * - `issues` is present on validation errors and lists every problem found (a form wants all
 *   field errors at once).
 * - `missing`, `unknown` and `repeated` are present on `PatchSplitMismatch`: the splitIDs a
 *   patch left out, named without the payment holding them, and named more than once; each
 *   list ascending, each splitID once.
 */
export interface PaymentError {
  readonly code: ErrorCode
  readonly message: string
  readonly issues?: ReadonlyArray<Issue>
  readonly missing?: ReadonlyArray<number>
  readonly unknown?: ReadonlyArray<number>
  readonly repeated?: ReadonlyArray<number>
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Builds a {@link PaymentError} without issues.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { paymentError } from 'paysplit'
 * const e = paymentError('PaymentNotFound', 'No payment exists yet.')
 * assert.deepStrictEqual(e, { code: 'PaymentNotFound', message: 'No payment exists yet.' })
 */
export const paymentError = (code: ErrorCode, message: string): PaymentError => ({ code, message })

/**
 * Builds one {@link Issue}, its `message` the English one (`formatIssue(issue, en)`).
 *
 * @example
 * import * as assert from 'node:assert'
 * import { issue } from 'paysplit'
 * assert.deepStrictEqual(issue('currency', 'currency_minor_unit'), {
 *   path: 'currency', code: 'ValidationFailed', reason: 'currency_minor_unit',
 *   message: 'Currency without hundredths: not supported.'
 * })
 */
export const issue = (
  path: string,
  reason: IssueReason,
  params?: IssueParams,
  code: IssueCode = 'ValidationFailed'
): Issue => {
  const found: { path: string; code: IssueCode; reason: IssueReason; params?: IssueParams; message?: string } = { path, code, reason }
  if (params !== undefined) found.params = params
  // en holds only {name} placeholders: the plain filler gives formatIssue(found, en), with less code
  found.message = plainMessage(found, en)
  return found as Issue
}

/**
 * The most issues an error lists (docs/rules.md C3, bounded errors); past them one last issue at
 * `''` with reason `too_many_issues` counts the rest.
 *
 * @internal
 */
export const MAX_ISSUES = 100

/**
 * Builds the single error of a failed validation from every issue found: its `code` is the first
 * of `MissingCustomerExternalID`, `ValidationFailed`, `GrossAmountMismatch` that any issue has
 * (`issues.lost` names the best code of issues counted but not kept, when a collector dropped
 * some), and its `message` a sentence that quotes no input. At most 100 issues are kept, then one
 * at `''` with reason `too_many_issues` and `params.more` the number of the rest (those past the
 * first 100 and `issues.more`, the number a collector counted without keeping).
 * `issues` must not be empty.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { issue, validationError } from 'paysplit'
 * const e = validationError([
 *   issue('grossAmount', 'sum_mismatch', undefined, 'GrossAmountMismatch'),
 *   issue('currency', 'unknown_currency')
 * ])
 * assert.strictEqual(e.code, 'ValidationFailed')
 * assert.strictEqual(e.message, 'The input is not valid: 2 problems (see issues).')
 * assert.strictEqual(e.issues?.length, 2)
 */
export const validationError = (
  issues: ReadonlyArray<Issue> & { readonly more?: number; readonly lost?: IssueCode }
): PaymentError => {
  // the counters a collector keeps on its list, read as own properties only
  const counted = (own(issues, 'more') as number | undefined) ?? 0
  const lost = own(issues, 'lost')
  const more = counted + Math.max(0, issues.length - MAX_ISSUES)
  // the first code, in precedence, that an issue has
  const code =
    (['MissingCustomerExternalID', 'ValidationFailed', 'GrossAmountMismatch'] as const).find(
      (c) => lost === c || issues.some((i) => i.code === c)
    ) ?? 'ValidationFailed'
  const total = issues.length + counted
  const message = `The input is not valid${total > 0 ? `: ${total} problem${total > 1 ? 's' : ''} (see issues)` : ''}.`
  const kept = more > 0 ? [...issues.slice(0, MAX_ISSUES), issue('', 'too_many_issues', { more })] : issues
  return { code, message, issues: kept }
}

/**
 * Shorthand for a `ValidationFailed` error with one issue at `path`.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { invalid } from 'paysplit'
 * const e = invalid('at', 'format', { format: 'timestamp' })
 * assert.strictEqual(e.code, 'ValidationFailed')
 * assert.deepStrictEqual(e.issues?.[0], { path: 'at', code: 'ValidationFailed', reason: 'format', params: { format: 'timestamp' }, message: 'Must be a valid timestamp.' })
 */
export const invalid = (path: string, reason: IssueReason, params?: IssueParams): PaymentError =>
  validationError([issue(path, reason, params)])
