/**
 * Errors are data: every failure of paysplit is a {@link PaymentError}, a plain object with a
 * string `code` named after the rule that was broken and a `message` a person can read.
 * Nothing in paysplit throws for bad input.
 *
 * @module errors
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Every error code paysplit returns. `DuplicateExternalPaymentReference`, `DuplicateKid`,
 * `UnmatchedTransfer`, `InvalidContext` and `CustomerNotFound` are only produced by the service
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
  // the service model and stored states (docs/rules.md C9, C11)
  | 'DuplicateKid'
  | 'UnmatchedTransfer'
  | 'InvalidContext'
  | 'CustomerNotFound'
  | 'UnsupportedSchemaVersion'

/** The codes an {@link Issue} of a validation error can carry, in order of precedence. */
export type IssueCode = 'MissingCustomerExternalID' | 'ValidationFailed' | 'GrossAmountMismatch'

/**
 * One problem found while validating input. `path` is relative to the validated value, with
 * array indexes as segments: `moneySplitList.1.amount`; the empty string is the value itself.
 */
export interface Issue {
  readonly path: string
  readonly code: IssueCode
  readonly message: string
}

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

const precedence: ReadonlyArray<IssueCode> = [
  'MissingCustomerExternalID',
  'ValidationFailed',
  'GrossAmountMismatch'
]

/**
 * Builds the single error of a failed validation from every issue found: its `code` is the first
 * of `MissingCustomerExternalID`, `ValidationFailed`, `GrossAmountMismatch` that any issue has,
 * and its `message` names the first issue of that code and how many there are in all.
 * `issues` must not be empty.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { validationError } from 'paysplit'
 * const e = validationError([
 *   { path: 'grossAmount', code: 'GrossAmountMismatch', message: 'grossAmount 100 differs from the sum of the splits, 90.' },
 *   { path: 'currency', code: 'ValidationFailed', message: 'currency must be an active ISO 4217 code.' }
 * ])
 * assert.strictEqual(e.code, 'ValidationFailed')
 * assert.strictEqual(e.issues?.length, 2)
 */
export const validationError = (issues: ReadonlyArray<Issue>): PaymentError => {
  let code: IssueCode = 'ValidationFailed'
  for (const c of precedence) {
    if (issues.some((i) => i.code === c)) {
      code = c
      break
    }
  }
  const first = issues.find((i) => i.code === code) ?? issues[0]
  const head = first === undefined ? 'The input is not valid.' : first.message
  const more = issues.length > 1 ? ` (${String(issues.length)} problems in all; see issues.)` : ''
  return { code, message: head + more, issues }
}

/**
 * Shorthand for a `ValidationFailed` error with one issue at `path`.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { invalid } from 'paysplit'
 * const e = invalid('at', 'at must be an ISO 8601 UTC timestamp with fractional seconds.')
 * assert.strictEqual(e.code, 'ValidationFailed')
 * assert.strictEqual(e.issues?.[0]?.path, 'at')
 */
export const invalid = (path: string, message: string): PaymentError =>
  validationError([{ path, code: 'ValidationFailed', message }])
