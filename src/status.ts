/**
 * Payment statuses as text: the five short names paysplit uses (`Charged`) and the long forms of
 * the service's wording (`ChargedPayment`, docs/rules.md I3). Parsing is case-sensitive and total: anything
 * that is not one of the ten accepted strings, non-strings included, is `none`.
 *
 * @module status
 */
import * as O from './internal/option.js'
import type { PaymentStatus } from './payment.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The service's long form of a status: `ChargedPayment` for `Charged`. */
export type LongPaymentStatus = `${PaymentStatus}Payment`

/**
 * Every payment status, in lifecycle order: `Initiated`, `Reserved`, `Charged`, `Cancelled`,
 * `Refunded`.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { paymentStatuses } from 'paysplit'
 * assert.strictEqual(paymentStatuses.join(', '), 'Initiated, Reserved, Charged, Cancelled, Refunded')
 */
export const paymentStatuses: ReadonlyArray<PaymentStatus> = Object.freeze([
  'Initiated',
  'Reserved',
  'Charged',
  'Cancelled',
  'Refunded'
] as const)

// -------------------------------------------------------------------------------------
// parsing
// -------------------------------------------------------------------------------------

/**
 * Reads a status from text: the short names `Initiated`, `Reserved`, `Charged`, `Cancelled`,
 * `Refunded` and the service's long forms `InitiatedPayment`, `ReservedPayment`, `ChargedPayment`,
 * `CancelledPayment`, `RefundedPayment`. Case-sensitive; anything else, non-strings included,
 * is `none`. Never throws.
 *
 * @example
 * import * as assert from 'node:assert'
 * import * as O from 'fp-ts/lib/Option.js'
 * import { parseStatus } from 'paysplit'
 * assert.deepStrictEqual(parseStatus('ChargedPayment'), O.some('Charged'))
 * assert.deepStrictEqual(parseStatus('Reserved'), O.some('Reserved'))
 * assert.deepStrictEqual(parseStatus('charged'), O.none)
 * assert.deepStrictEqual(parseStatus(42), O.none)
 */
export const parseStatus = (s: unknown): O.Option<PaymentStatus> => {
  if (typeof s !== 'string') return O.none
  // the short name, or the long form without its `Payment` (`Payment` alone leaves '', not a status)
  const short = s.endsWith('Payment') ? s.slice(0, -7) : s
  return (paymentStatuses as ReadonlyArray<string>).includes(short) ? O.some(short as PaymentStatus) : O.none
}

// -------------------------------------------------------------------------------------
// formatting
// -------------------------------------------------------------------------------------

/**
 * The service's long form of a status: the short name followed by `Payment`.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { longStatus } from 'paysplit'
 * assert.strictEqual(longStatus('Charged'), 'ChargedPayment')
 */
export const longStatus = (status: PaymentStatus): LongPaymentStatus => `${status}Payment`
